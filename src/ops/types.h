// The op library's vocabulary: data types, formats, tensor descriptions, attributes and the
// op call, as the core, atc's converters and every backend see them.
//
// A single-op call (aclopExecuteV2("Add", ...)) becomes an OpCall: the op type, input and
// output tensor descriptions and attributes. The core validates and "compiles" it through
// the op library (ops/op_library.h: prototype checks, shape inference, kernel choice, tiling,
// engine, block count, work for the cost model) and caches the resulting OpKernel
// (ops/op_kernel.h); executing it is a kKernel task whose functional body calls OpKernel::Run.
//
// Numeric values of DataType and Format are CANN's (aclDataType / aclFormat, identical to
// ge::DataType / ge::Format), so the API layer converts by cast.
//
// Thread-safety: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/status.h"

namespace aclsim::ops {

enum class DataType : int32_t {
  kUndefined = -1,
  kFloat = 0,
  kFloat16 = 1,
  kInt8 = 2,
  kInt32 = 3,
  kUint8 = 4,
  kInt16 = 6,
  kUint16 = 7,
  kUint32 = 8,
  kInt64 = 9,
  kUint64 = 10,
  kDouble = 11,
  kBool = 12,
  kString = 13,
  kComplex64 = 16,
  kComplex128 = 17,
  kBf16 = 27,
  kInt4 = 29,
  kUint1 = 30,
  kComplex32 = 33,
};

enum class Format : int32_t {
  kUndefined = -1,
  kNchw = 0,
  kNhwc = 1,
  kNd = 2,
  kNc1hwc0 = 3,
  kFractalZ = 4,
  kNc1hwc0C04 = 12,
  kHwcn = 16,
  kNdhwc = 27,
  kFractalNz = 29,
  kNcdhw = 30,
  kNdc1hwc0 = 32,
  kFractalZ3d = 33,
  kNc = 35,
  kNcl = 47,
};

// Bytes of one element (0 for kUndefined, kString and sub-byte types).
size_t DataTypeSize(DataType dtype);
// CANN's spelling without the ACL_ prefix ("FLOAT16"), or "DT_<n>" for unknown values.
std::string DataTypeName(DataType dtype);
std::string FormatName(Format format);
bool IsKnownDataType(int32_t value);
bool IsKnownFormat(int32_t value);

// Dimension markers at compile time (aclopCompile): -1 = unknown dim, {-2} = unknown rank.
inline constexpr int64_t kUnknownDim = -1;
inline constexpr int64_t kUnknownRank = -2;

// A tensor as an op call describes it.
//  * dims/format: the logical (origin) shape and format, what aclCreateTensorDesc received;
//  * storage_format/storage_dims: the physical layout of the buffer if it differs
//    (aclSetTensorFormat/Shape: NC1HWC0, FRACTAL_NZ, ...); kUndefined = same as origin;
//  * value: the tensor's contents when known on the host (aclSetTensorConst, host
//    placement, or read by the core for inputs an op needs at compile time);
//  * dtype kUndefined marks an omitted optional input (placeholder).
struct TensorDesc {
  DataType dtype = DataType::kUndefined;
  Format format = Format::kNd;
  std::vector<int64_t> dims;
  Format storage_format = Format::kUndefined;
  std::vector<int64_t> storage_dims;
  std::vector<std::pair<int64_t, int64_t>> shape_range;
  std::string name;
  std::optional<std::vector<uint8_t>> value;

  bool absent() const { return dtype == DataType::kUndefined; }
  bool has_storage_layout() const {
    return storage_format != Format::kUndefined && storage_format != format;
  }
  bool shape_known() const;  // no unknown dim and not unknown rank
  // Element count of `dims` (1 for a scalar; 0 if any dim is 0 or the shape is not known;
  // INT64_MAX when it does not fit, which CheckTensorSize refuses).
  int64_t ElementCount() const;
  // Bytes of the buffer: of the storage shape if there is a storage layout, else of dims
  // (SIZE_MAX when it does not fit).
  size_t ByteSize() const;
};

// kInvalidParam unless the known shapes of `desc` (dims, and storage_dims if given) have at most
// kMaxTensorElements elements and kMaxTensorBytes bytes (common/checked_size.h). Every way a
// descriptor enters aclsim (aclCreateTensorDesc, model and JSON tensor tables) and every inferred
// output passes it, so ElementCount and ByteSize of an accepted descriptor never saturate. `what`
// names the tensor.
Status CheckTensorSize(const TensorDesc& desc, std::string_view what);
// CheckTensorSize's verdict alone (no message: for hot paths that name the tensor on failure).
bool TensorSizeFits(const TensorDesc& desc);

// Field-by-field equality (every field selects the kernel a call compiles to).
bool operator==(const TensorDesc& a, const TensorDesc& b);
inline bool operator!=(const TensorDesc& a, const TensorDesc& b) { return !(a == b); }

// Attribute values, one alternative per aclopSetAttr* setter.
using AttrValue = std::variant<bool, int64_t, float, std::string, DataType, std::vector<bool>,
                               std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                               std::vector<DataType>, std::vector<std::vector<int64_t>>>;
// Ordered by name, so equal attribute sets serialise (and hash) identically.
using AttrMap = std::map<std::string, AttrValue, std::less<>>;

// Human-readable attribute value ("[1, 2]", "true", "FLOAT16", ...).
std::string AttrValueToString(const AttrValue& value);

// f16 or bf16 with f32, in either order: the pairs the 910B's Add and Mul kernels take as they
// are (each input read at its own width, an f32 result); aclnnAdd (alpha 1) and aclnnMul use
// them instead of casting the narrow operand first.
inline bool IsMixedFloatPair(DataType a, DataType b) {
  const auto narrow = [](DataType t) { return t == DataType::kFloat16 || t == DataType::kBf16; };
  return (a == DataType::kFloat && narrow(b)) || (b == DataType::kFloat && narrow(a));
}

struct OpCall {
  std::string type;
  std::vector<TensorDesc> inputs;
  std::vector<TensorDesc> outputs;
  AttrMap attrs;
  // Filled by OpLibrary::InferShape: attributes the op's prototype does not have (removed
  // from `attrs`; the core logs them at DEBUG).
  std::vector<std::string> ignored_attrs;
};

}  // namespace aclsim::ops
