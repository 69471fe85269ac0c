// Data-dump files: what the runtime writes for each dumped op execution (aclmdlSetDump,
// aclInit's "dump" key) and for the exception dump of a failed kernel, and their reader
// (aclsim-dump-reader, the tests). The layout is ours, described in docs/dump.md:
//
//   char[8]  magic "ACLSDMP\0"          u32 version (kVersion)        u32 flags (kFlag*)
//   str      op type, op name, model name  (str: u32 byte length, then the bytes, no NUL)
//   u32 model id   u64 step   u32 device id   u32 stream id   u64 task id   u64 timestamp (us)
//   u32 tensor count, then per tensor a header:
//     u8 kind (0 input, 1 output, 2 workspace)   u8 payload (0 data, 1 stats)   u16 reserved (0)
//     u32 index   i32 dtype (aclDataType)   i32 format (aclFormat)   u32 rank   i64 dims[rank]
//     u64 device address   u64 byte size
//   then the payloads, in header order: data = the tensor's bytes (byte size of them);
//   stats = f64 min, f64 max, f64 mean, u64 count, u64 nan count (40 bytes).
// Integers and floats are little-endian.
//
// Pure functions over values; no runtime state. Thread-safety: all functions may be called
// concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace aclsim::dfx::dump {

inline constexpr char kMagic[8] = {'A', 'C', 'L', 'S', 'D', 'M', 'P', '\0'};
inline constexpr uint32_t kVersion = 1;
// flags: the record is an exception dump (the kernel failed; outputs are what the buffers
// held when it failed).
inline constexpr uint32_t kFlagException = 0x1;
// Largest rank a file may state (ACL_MAX_DIM_CNT).
inline constexpr uint32_t kMaxRank = 128;

// kWorkspace: only in files written by acldumpSaveExceptionInfo (ACL_DUMP_TENSOR_WORKSPACE).
enum class TensorKind : uint8_t { kInput = 0, kOutput = 1, kWorkspace = 2 };
enum class Payload : uint8_t { kData = 0, kStats = 1 };

// Summary of a numeric tensor: min / max / mean over the values that are not NaN (`count`
// of them; min = max = mean = 0 when there are none), and how many are NaN.
struct TensorStats {
  double min = 0;
  double max = 0;
  double mean = 0;
  uint64_t count = 0;
  uint64_t nan_count = 0;
};

struct DumpTensor {
  TensorKind kind = TensorKind::kInput;
  uint32_t index = 0;  // the op's input or output index
  int32_t dtype = 0;   // aclDataType value
  int32_t format = 2;  // aclFormat value (2 = ND)
  std::vector<int64_t> dims;
  uint64_t address = 0;  // device address the tensor was read from (information only)
  uint64_t bytes = 0;    // the tensor's byte size on the device
  Payload payload = Payload::kData;
  std::vector<uint8_t> data;  // kData: `bytes` bytes
  TensorStats stats;          // kStats
};

struct DumpRecord {
  uint32_t flags = 0;
  std::string op_type;
  std::string op_name;
  std::string model_name;  // "" for single ops
  uint32_t model_id = 0;   // 0 for single ops
  uint64_t step = 0;
  uint32_t device_id = 0;
  uint32_t stream_id = 0;
  uint64_t task_id = 0;
  uint64_t timestamp_us = 0;
  std::vector<DumpTensor> tensors;
};

// The file's bytes.
std::vector<uint8_t> Encode(const DumpRecord& record);
// Parses a file's bytes; kParseFile naming `origin` and what is wrong (magic, version,
// truncation, an impossible rank or size, trailing bytes).
Result<DumpRecord> Decode(const uint8_t* data, size_t size, const std::string& origin);

// Writes `record` to `path` (the directory must exist): kWriteFile if it cannot.
Status WriteFile(const std::string& path, const DumpRecord& record);
// Reads and parses a file: kInvalidFile if it cannot be read, Decode's errors otherwise.
Result<DumpRecord> ReadFile(const std::string& path);

// Names of aclDataType / aclFormat values ("float16", "NCHW"); "dtype(<n>)" / "format(<n>)"
// for values we do not know.
std::string DtypeName(int32_t dtype);
std::string FormatName(int32_t format);
// Bits of one element of a dtype (0 if unknown or of no fixed size, like string).
uint32_t DtypeBits(int32_t dtype);
// Elements of a shape (1 for a scalar; 0 if any dim is negative).
uint64_t ElementCount(const std::vector<int64_t>& dims);

// Statistics of `bytes` of `dtype` elements; nullopt for dtypes that are not real numbers
// (string, complex, int4, uint1, unknown).
std::optional<TensorStats> ComputeStats(int32_t dtype, const uint8_t* data, size_t bytes);

// The tensor as a NumPy .npy file (format 1.0, C order, the dump's dims; bf16 as float32
// since NumPy has no bfloat16). kFeatureUnsupported for dtypes NumPy cannot hold
// (string, int4, uint1, complex32) and for stats-only tensors; kParseFile if the data's size
// does not match the dims.
Result<std::vector<uint8_t>> ToNpy(const DumpTensor& tensor);

// Sanitises a name for a dump file or directory name: '.', '/', '\\' and whitespace become
// '_' (CANN's rule); an empty name becomes "_".
std::string FileNamePart(const std::string& name);

}  // namespace aclsim::dfx::dump
