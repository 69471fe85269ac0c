// The byte-level pieces every aclsim `.om` file shares (docs/om-format.md, "Layout"): the
// 32-byte header with its CRC-32, a little-endian writer, a bounds-checked reader, and the
// tensor-descriptor and attribute encodings. Single-op models (core/op_model.h) and graph
// models (core/model_file.h) are both built from them, so the two kinds cannot drift apart.
//
// The reader checks every length and count against the bytes left before it allocates, so
// hostile input never allocates more than it holds; its first failure sticks (later reads
// return zeros) and becomes a Status of the caller's code, prefixed with "<kind> <origin>: ".
//
// Thread-safety: plain functions and values; a Writer / Reader is used by one thread.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "ops/types.h"

namespace aclsim::core {

// Header: magic "ACLSIMOP", then little-endian u32 version, u32 kind, u64 payload bytes,
// u32 CRC-32 of the payload, u32 reserved (0).
inline constexpr char kOmMagic[8] = {'A', 'C', 'L', 'S', 'I', 'M', 'O', 'P'};
inline constexpr uint32_t kOmVersion = 1;
inline constexpr uint32_t kOmKindSingleOp = 1;
inline constexpr uint32_t kOmKindGraph = 2;
inline constexpr size_t kOmHeaderBytes = 32;
// Sanity bounds the readers enforce on top of "no more than the bytes left".
inline constexpr size_t kOmMaxRank = 32;
inline constexpr size_t kOmMaxString = size_t{1} << 20;
// The smallest encoded tensor descriptor: 3 x i32, 3 x u32 counts, u32 name length, u8.
inline constexpr size_t kOmMinTensorBytes = 29;
// The smallest encoded attribute: u32 name length, u8 tag, a 1-byte value.
inline constexpr size_t kOmMinAttrBytes = 6;

// CRC-32 (IEEE 802.3, as zlib's crc32) of `size` bytes.
uint32_t Crc32(const uint8_t* data, size_t size);

// Bytes of a tensor's buffer (storage shape if it has a storage layout, else dims), or
// nullopt when a dim is unknown, the dtype has no byte size, or the size passes the limit of
// one tensor (common/checked_size.h).
std::optional<uint64_t> CheckedByteSize(const ops::TensorDesc& t);

// Appends little-endian values (little-endian hosts only: x86-64, aarch64).
class OmWriter {
 public:
  void U8(uint8_t v) { out_.push_back(v); }
  void U32(uint32_t v) { Raw(&v, 4); }
  void I32(int32_t v) { Raw(&v, 4); }
  void U64(uint64_t v) { Raw(&v, 8); }
  void I64(int64_t v) { Raw(&v, 8); }
  void F32(float v) { Raw(&v, 4); }
  void Str(const std::string& s);               // u32 length + bytes
  void Dims(const std::vector<int64_t>& dims);  // u32 count + i64 each
  void Ids(const std::vector<int32_t>& ids);    // u32 count + i32 each
  void Tensor(const ops::TensorDesc& t);        // the tensor encoding
  void Attrs(const ops::AttrMap& attrs);        // u32 count, then str name + tag + value
  void Raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

// Bounds-checked little-endian reader over a payload. `code` and `prefix` ("model a.om")
// make up every failure.
class OmReader {
 public:
  OmReader(const uint8_t* data, size_t size, StatusCode code, std::string prefix)
      : p_(data), end_(data + size), code_(code), prefix_(std::move(prefix)) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  // Records the first failure: "<prefix>: <message>".
  template <typename... Args>
  void Fail(fmt::format_string<Args...> format, Args&&... args) {
    if (!ok()) return;
    status_ = Status(
        code_, fmt::format("{}: {}", prefix_, fmt::format(format, std::forward<Args>(args)...)));
  }

  bool Raw(void* out, size_t n, const char* field);
  uint8_t U8(const char* field);
  uint32_t U32(const char* field);
  int32_t I32(const char* field);
  uint64_t U64(const char* field);
  int64_t I64(const char* field);
  float F32(const char* field);
  // A u32 count of elements of at least `min_bytes` each, checked against the bytes left
  // and `limit`; 0 after a failure.
  size_t Count(const char* field, size_t min_bytes, size_t limit);
  std::string Str(const char* field);
  std::vector<int64_t> Dims(const char* field, size_t limit);
  std::vector<int32_t> Ids(const char* field, size_t limit);
  // A tensor descriptor; `what` ("input 2") names it in messages. Checks dtype, formats,
  // dims (>= -1 or exactly [-2], rank <= kOmMaxRank), shape ranges, has_value and the
  // constant's size against the descriptor.
  ops::TensorDesc Tensor(const std::string& what);
  // An attribute map: names non-empty and unique, known tags, bool bytes 0/1, known dtypes.
  ops::AttrMap Attrs(const std::string& what);

 private:
  ops::AttrValue Attr(const std::string& what);
  ops::DataType DataTypeValue(const std::string& what);

  const uint8_t* p_;
  const uint8_t* end_;
  StatusCode code_;
  std::string prefix_;
  Status status_;
};

// Header + payload: the bytes of a file of `kind`.
std::vector<uint8_t> SealOm(uint32_t kind, const std::vector<uint8_t>& payload);

// How header failures are reported: "<what> <origin>: ..." with `short_code` for input
// shorter than the header or than the payload it announces, `bad_code` for the rest.
struct OmErrorStyle {
  const char* what;
  StatusCode short_code;
  StatusCode bad_code;
};

// A checked header: the kind and the payload it covers.
struct OmPayload {
  uint32_t kind = 0;
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Checks magic, version, payload size, reserved field and CRC (not the kind: each reader
// words its own message). Fails with the style's codes, naming `origin`.
Result<OmPayload> OpenOm(const void* data, size_t size, std::string_view origin,
                         const OmErrorStyle& style);

// True if the bytes start with "ACLSIMOP".
bool HasOmMagic(const void* data, size_t size);

}  // namespace aclsim::core
