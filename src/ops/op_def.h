// How an op of the op library is defined.
//
// One OpDef per CANN op type: its prototype (inputs, outputs, attributes with defaults, from
// ../shared/reference/cann_ops.md), its engine, and three functions:
//   infer  shape inference and checks: reads inputs/attrs, sets every output's dtype and dims
//          (OpContext::SetOutput), fails with a message naming the tensor and the reason;
//   run    the functional kernel: computes outputs from inputs (RunContext), on a backend's
//          worker thread, never touching anything but its tensors;
//   work   optional: the kernel's work for the cost model; by default an elementwise-style
//          stream over all inputs and outputs on the vector cores (DefaultWork).
//
// Registration is explicit: each op group (src/ops/groups/<name>_ops.cc) has a
// Register<Name>Ops(OpRegistry&) function, listed once in ops/op_groups.def, the table the
// library's constructor (ops/op_library.cc) calls.
//
// Thread-safety: OpDefs are immutable after registration; contexts belong to one call.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/checked_size.h"
#include "common/status.h"
#include "driver/device_props.h"
#include "driver/task.h"
#include "ops/tensor.h"
#include "ops/types.h"

namespace aclsim::ops {

enum class AttrType {
  kBool,
  kInt,
  kFloat,
  kString,
  kType,
  kListBool,
  kListInt,
  kListFloat,
  kListString,
  kListType,
  kListListInt,
};
const char* AttrTypeName(AttrType type);

struct AttrDef {
  std::string name;
  AttrType type = AttrType::kInt;
  std::optional<AttrValue> default_value;  // nullopt: REQUIRED_ATTR
};

enum class ArgKind { kRequired, kOptional, kDynamic };

struct ArgDef {
  std::string name;
  ArgKind kind = ArgKind::kRequired;
  std::vector<DataType> dtypes;  // accepted dtypes; empty = any
};

class OpContext;
class RunContext;
struct OpDef;

using InferFn = std::function<Status(OpContext&)>;
using RunFn = std::function<Status(RunContext&)>;
// Work and block count of a compiled call; *blocks starts at the default and may be changed.
using WorkFn =
    std::function<driver::KernelWork(const OpContext&, const driver::DeviceProps&, uint32_t*)>;

struct OpDef {
  std::string type;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  driver::Engine engine = driver::Engine::kAiVector;
  // Inputs whose values infer or run needs on the host (perm, axes, multiples, k, ...).
  std::vector<size_t> value_inputs;
  // Output shapes are known only after running (NonZero, Where, Unique).
  bool dynamic_output_shape = false;
  // Vector operations per output element for the default work (e.g. Gelu ~ 8).
  uint32_t ops_per_element = 1;
  InferFn infer;
  RunFn run;
  WorkFn work;  // optional
};

// Attribute getters shared by both contexts. Attributes of the prototype are always present
// (defaults filled in); a getter of the wrong type is a programming error (kInternal).
class AttrReader {
 public:
  explicit AttrReader(const AttrMap* attrs) : attrs_(attrs) {}
  bool Has(std::string_view name) const { return attrs_->find(name) != attrs_->end(); }
  bool GetBool(std::string_view name) const { return Get<bool>(name); }
  int64_t GetInt(std::string_view name) const { return Get<int64_t>(name); }
  float GetFloat(std::string_view name) const { return Get<float>(name); }
  const std::string& GetString(std::string_view name) const { return Get<std::string>(name); }
  DataType GetType(std::string_view name) const { return Get<DataType>(name); }
  const std::vector<int64_t>& GetInts(std::string_view name) const {
    return Get<std::vector<int64_t>>(name);
  }
  const std::vector<float>& GetFloats(std::string_view name) const {
    return Get<std::vector<float>>(name);
  }
  const std::vector<std::vector<int64_t>>& GetIntLists(std::string_view name) const {
    return Get<std::vector<std::vector<int64_t>>>(name);
  }
  const AttrMap& attrs() const { return *attrs_; }

 private:
  template <typename T>
  const T& Get(std::string_view name) const;
  const AttrMap* attrs_;
};

// The view of one call during shape inference and compilation. Input indices are positions
// in the call (a dynamic input expands to several); InputsOf(arg) gives an argument's range.
class OpContext : public AttrReader {
 public:
  OpContext(const OpDef& def, OpCall* call);

  const OpDef& def() const { return def_; }
  const std::string& op_type() const { return call_->type; }
  size_t num_inputs() const { return call_->inputs.size(); }
  size_t num_outputs() const { return call_->outputs.size(); }
  const TensorDesc& input(size_t i) const { return call_->inputs[i]; }
  // False for an omitted optional input (absent placeholder or beyond the given count).
  bool has_input(size_t i) const { return i < num_inputs() && !call_->inputs[i].absent(); }
  const TensorDesc& output(size_t i) const { return call_->outputs[i]; }
  // [first, first + count) of the call's inputs that belong to prototype argument `arg`.
  std::pair<size_t, size_t> InputsOf(size_t arg) const { return input_ranges_[arg]; }
  std::pair<size_t, size_t> OutputsOf(size_t arg) const { return output_ranges_[arg]; }

  // Sets output i's dtype and dims (its format follows the first input's unless given).
  void SetOutput(size_t i, DataType dtype, std::vector<int64_t> dims);
  void SetOutput(size_t i, DataType dtype, std::vector<int64_t> dims, Format format);

  // The value of an integer input (int32 or int64 contents, or a bool/float scalar cast),
  // required to be known: kOpInputNotMatch naming the input otherwise.
  Result<std::vector<int64_t>> InputInts(size_t i) const;
  Result<std::vector<double>> InputDoubles(size_t i) const;

  // Error helpers: the message is prefixed with "op <type>: ".
  template <typename... Args>
  Status Fail(StatusCode code, fmt::format_string<Args...> format, Args&&... args) const {
    return Status(code, fmt::format("op {}: ", call_->type) +
                            fmt::format(format, std::forward<Args>(args)...));
  }
  // Name for messages: `x1` (input 0), or `x[2]` for the third tensor of a dynamic input.
  std::string InputName(size_t i) const;
  std::string OutputName(size_t i) const;

  OpCall& call() { return *call_; }
  const OpCall& call() const { return *call_; }

  // Set up by the library before infer runs.
  void SetRanges(std::vector<std::pair<size_t, size_t>> inputs,
                 std::vector<std::pair<size_t, size_t>> outputs);

 private:
  const OpDef& def_;
  OpCall* call_;
  std::vector<std::pair<size_t, size_t>> input_ranges_;
  std::vector<std::pair<size_t, size_t>> output_ranges_;
};

// The view of one call while its kernel runs: tensors over the program's buffers.
class RunContext : public AttrReader {
 public:
  RunContext(const OpCall& call, std::vector<Tensor> inputs, std::vector<Tensor> outputs)
      : AttrReader(&call.attrs),
        call_(call),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)) {}
  const OpCall& call() const { return call_; }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return outputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i].data != nullptr; }
  const Tensor& in(size_t i) const { return inputs_[i]; }
  Tensor& out(size_t i) { return outputs_[i]; }
  // Integer / floating contents of a (small) input, from its buffer.
  std::vector<int64_t> InputInts(size_t i) const { return ReadInts(inputs_[i]); }
  // Dynamic-output-shape ops: the real shape of output i (its buffer must hold it).
  Status SetOutputDims(size_t i, std::vector<int64_t> dims);
  const std::vector<std::vector<int64_t>>& output_dims() const { return output_dims_; }

  template <typename... Args>
  Status Fail(StatusCode code, fmt::format_string<Args...> format, Args&&... args) const {
    return Status(code, fmt::format("op {}: ", call_.type) +
                            fmt::format(format, std::forward<Args>(args)...));
  }

 private:
  const OpCall& call_;
  std::vector<Tensor> inputs_;
  std::vector<Tensor> outputs_;
  std::vector<std::vector<int64_t>> output_dims_;
};

class OpRegistry {
 public:
  // Adds an op; a second definition of the same type replaces nothing and is a bug (aborts
  // in debug builds, ignored otherwise).
  void Add(OpDef def);
  const OpDef* Find(std::string_view type) const;
  std::vector<std::string> Types() const;

 private:
  std::map<std::string, OpDef, std::less<>> ops_;
};

// --- helpers for defining ops ----------------------------------------------------------

// The default work: every input read once, every output written once, `ops_per_element`
// vector operations per output element, spread over the vector cores.
driver::KernelWork DefaultWork(const OpContext& ctx, const driver::DeviceProps& props,
                               uint32_t* blocks);

// The cost model's class of a dtype (cube shape, vector element size).
driver::DtypeClass DtypeClassOf(DataType dtype);

// Dtype groups (cann_ops.md 0.2 rule 7, narrowed to what the kernels compute).
std::vector<DataType> FloatTypes();   // f16, bf16, f32, f64
std::vector<DataType> IntTypes();     // i8, u8, i16, u16, i32, u32, i64, u64
std::vector<DataType> NumberTypes();  // FloatTypes + IntTypes
std::vector<DataType> AllTypes();     // NumberTypes + bool
std::vector<DataType> IndexTypes();   // i32, i64
inline std::vector<DataType> Types(std::initializer_list<DataType> list) { return list; }

// Shape inference of an op whose output 0 has input 0's dtype and dims.
Status InferSame(OpContext& ctx);
// Dims as messages print them: "[2, 3, 4]".
std::string DimsStr(const std::vector<int64_t>& dims);

ArgDef In(std::string name, std::vector<DataType> dtypes = {});
ArgDef OptIn(std::string name, std::vector<DataType> dtypes = {});
ArgDef DynIn(std::string name, std::vector<DataType> dtypes = {});
ArgDef Out(std::string name, std::vector<DataType> dtypes = {});
ArgDef DynOut(std::string name, std::vector<DataType> dtypes = {});
AttrDef ReqAttr(std::string name, AttrType type);
AttrDef OptAttr(std::string name, AttrType type, AttrValue default_value);

// NumPy broadcast of two shapes; kOpInputNotMatch naming both inputs if incompatible.
Result<std::vector<int64_t>> BroadcastShapes(const OpContext& ctx, size_t a, size_t b);
Result<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                           const std::vector<int64_t>& b);
// Normalises an axis against a rank (negative counts from the end); error if out of range.
Result<int64_t> NormalizeAxis(const OpContext& ctx, int64_t axis, int64_t rank, const char* what);

}  // namespace aclsim::ops
