// The op library: the backend's kernels for CANN op types, as the core sees them.
//
// A single-op call (aclopExecuteV2("Add", ...)) becomes an OpCall: the op type, input and
// output tensor descriptions and attributes. The core validates and "compiles" it through
// the backend's OpLibrary (prototype checks, shape inference, kernel choice, tiling, engine,
// block count, work for the cost model) and caches the resulting OpKernel; executing it is
// a kKernel task whose functional body calls OpKernel::Run.
//
// Numeric values of DataType and Format are CANN's (aclDataType / aclFormat, identical to
// ge::DataType / ge::Format), so the API layer converts by cast.
//
// Thread-safety: an OpLibrary and the OpKernels it returns are immutable and may be used
// from any thread concurrently.
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
#include "driver/device_props.h"
#include "driver/task.h"

namespace aclsim::driver {

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
  // Element count of `dims` (1 for a scalar; 0 if any dim is 0 or the shape is not known).
  int64_t ElementCount() const;
  // Bytes of the buffer: of the storage shape if there is a storage layout, else of dims.
  size_t ByteSize() const;
};

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

struct OpCall {
  std::string type;
  std::vector<TensorDesc> inputs;
  std::vector<TensorDesc> outputs;
  AttrMap attrs;
  // Filled by OpLibrary::InferShape: attributes the op's prototype does not have (removed
  // from `attrs`; the core logs them at DEBUG).
  std::vector<std::string> ignored_attrs;
};

// The storage shape of a tensor of logical `dims` in `origin` format when stored in
// `storage` format (NC1HWC0, FRACTAL_Z, FRACTAL_NZ; any other storage format must equal the
// origin format). kFormatNotMatch for a pair without a layout rule.
Result<std::vector<int64_t>> StorageDims(Format origin, const std::vector<int64_t>& dims,
                                         DataType dtype, Format storage);
// C0, the channel block of the blocked formats: 32 for 1-byte types, else 16.
int64_t CubeBlockC0(DataType dtype);

// A buffer handed to a kernel: the program's device (or host) address and its size.
struct KernelBuffer {
  void* data = nullptr;
  size_t size = 0;
};

// A view of consecutive KernelBuffers (a vector's, or any array's).
class KernelBufferSpan {
 public:
  KernelBufferSpan() = default;
  KernelBufferSpan(const KernelBuffer* items, size_t count) : items_(items), count_(count) {}
  KernelBufferSpan(const std::vector<KernelBuffer>& items)  // NOLINT: converts like a span
      : items_(items.data()), count_(items.size()) {}
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  const KernelBuffer& operator[](size_t i) const { return items_[i]; }
  const KernelBuffer* begin() const { return items_; }
  const KernelBuffer* end() const { return items_ + count_; }

 private:
  const KernelBuffer* items_ = nullptr;
  size_t count_ = 0;
};

// A compiled op: one concrete shape signature, ready to run. Produced by OpLibrary::Compile.
class OpKernel {
 public:
  virtual ~OpKernel() = default;
  // The resolved call: attributes with defaults filled in, output descriptors inferred.
  virtual const OpCall& call() const = 0;
  virtual Engine engine() const = 0;
  virtual uint32_t blocks() const = 0;
  // The kernel's work for the cost model (buffers are filled in by the caller).
  virtual KernelWork work() const = 0;
  // True if output shapes are known only after running (NonZero, Where, Unique, ...).
  virtual bool dynamic_output_shape() const = 0;
  // The functional body, run on a backend thread. `inputs` has one entry per call().inputs
  // (absent optional inputs: {nullptr, 0}); buffers were checked against the descriptors'
  // byte sizes. For dynamic_output_shape() kernels `output_dims` receives each output's
  // real shape; otherwise it is left alone (may be nullptr).
  virtual Status Run(KernelBufferSpan inputs, KernelBufferSpan outputs,
                     std::vector<std::vector<int64_t>>* output_dims) const = 0;
};

class OpLibrary {
 public:
  virtual ~OpLibrary() = default;
  virtual bool HasOp(std::string_view type) const = 0;
  virtual std::vector<std::string> OpTypes() const = 0;
  // Indices of the inputs whose values the op needs to infer shapes or compile (perm of
  // Transpose, axes of ReduceSum, ...). The core supplies their TensorDesc::value.
  virtual std::vector<size_t> ValueInputs(std::string_view type) const = 0;
  // Checks `call` against the op's prototype (input count and order, dtypes, formats,
  // attribute types; unknown attributes are ignored), fills in defaulted attributes and
  // infers the output descriptors: outputs given with unknown or empty dims receive them,
  // outputs given with dims are checked. Errors name the op, the tensor and the reason:
  //   kOpTypeNotMatch (unknown type), kOpInputNotMatch / kOpOutputNotMatch (count, shape),
  //   kOpAttrNotMatch (missing or mistyped attribute), kInvalidParam (bad values).
  virtual Status InferShape(OpCall* call) const = 0;
  // Compiles a call whose shapes are all known (InferShape is applied first).
  virtual Result<std::shared_ptr<const OpKernel>> Compile(const OpCall& call,
                                                          const DeviceProps& props) const = 0;
};

}  // namespace aclsim::driver
