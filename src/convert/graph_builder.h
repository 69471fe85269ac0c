// GraphBuilder: the graph model under construction while an ONNX model is converted.
//
// Values are the graph's tensors as the converter sees them: model inputs, constants (with
// their contents on the host) and op outputs. A value becomes a ModelFile tensor only when
// something needs it (a node reads it, or it is a model output), so constants that folding
// consumed never reach the weights blob.
//
// Emit() adds one CANN op: it checks the op type against the op library, runs
// OpLibrary::InferShape (the op's dtype and shape checks), and then either evaluates the op
// on the host when all its inputs are known (constant folding, with the op library's own
// kernel) or appends a ModelNode. The precision mode's Cast insertion around cube ops also
// happens here (onnx_import.h, PrecisionMode).
//
// Thread-safety: a GraphBuilder belongs to one import.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "convert/onnx_import.h"
#include "convert/onnx_tensor.h"
#include "core/model_file.h"
#include "ops/op_library.h"

namespace aclsim::convert {

// What ONNX's shape inference knows about a tensor: used for op outputs whose shapes the op
// library cannot infer at convert time (dynamic shapes). dims [-2] = unknown rank.
struct OutputHint {
  ops::DataType dtype = ops::DataType::kUndefined;
  std::vector<int64_t> dims = {ops::kUnknownRank};
};

struct Value {
  ops::TensorDesc desc;                      // name, dtype, format, dims; no desc.value
  std::optional<std::vector<uint8_t>> data;  // contents when known at convert time
  int32_t tensor = -1;                       // ModelFile tensor id once materialised
};

// One op to emit. `output_names` (optional, per output; "" = generated) names the output
// values; `hints` (optional, per output) fill in what InferShape leaves unknown.
struct OpSpec {
  std::string type;
  std::vector<int32_t> inputs;  // value ids; -1 = omitted optional input
  ops::AttrMap attrs;
  size_t num_outputs = 1;
  std::vector<std::string> output_names;
  std::vector<OutputHint> hints;
};

class GraphBuilder {
 public:
  GraphBuilder(const ops::OpLibrary& ops, PrecisionMode mode);

  // Names of the source model, kept for the values that carry them: generated names avoid
  // them.
  void ReserveName(const std::string& name) { reserved_.insert(name); }
  // `base` if no value or node uses it yet (and it is not reserved for another), else base
  // with the first free "_<n>" suffix. Marks the result used.
  std::string UniqueValueName(const std::string& base, bool is_reserved_owner);
  std::string UniqueNodeName(const std::string& base);

  // A model input (materialised at once).
  int32_t AddInput(const std::string& name, ops::DataType dtype, std::vector<int64_t> dims,
                   ops::Format format);
  // A value with known contents; `name` is used as is when free (a source-model name), else
  // made unique.
  int32_t AddConstant(const std::string& name, HostTensor tensor);

  const Value& value(int32_t id) const { return values_[static_cast<size_t>(id)]; }
  size_t value_count() const { return values_.size(); }
  // Retags a value's format (Conv weights are NCHW, not ND).
  void SetFormat(int32_t id, ops::Format format);

  // Adds the op (see the file comment). Returns one value id per output. Errors: the op
  // library's (kOpTypeNotMatch for a type it lacks, InferShape's codes), and a kernel's when
  // folding fails.
  Result<std::vector<int32_t>> Emit(const std::string& node_name, OpSpec op);

  // The ModelFile tensor of a value, materialising a constant into the weights blob.
  int32_t Materialize(int32_t id);
  // Adds the model output `name` reading value `id` (an Identity node when the tensor is
  // already an output).
  Status AddOutput(const std::string& name, int32_t id);

  // Number of ops folded at convert time, and of nodes emitted.
  size_t folded_ops() const { return folded_; }
  core::ModelFile& model() { return model_; }

 private:
  Result<std::vector<int32_t>> EmitWithCasts(const std::string& node_name, OpSpec op);
  Result<std::vector<int32_t>> EmitOne(const std::string& node_name, OpSpec op);
  // Evaluates a call whose inputs are all known; nullopt when the op cannot run on the host
  // (the caller then emits a node).
  std::optional<std::vector<HostTensor>> Fold(const ops::OpCall& call,
                                              const std::vector<int32_t>& inputs);
  // InferShape of `call` with every -1 dim set to 1 (nullopt when that fails too, e.g. for a
  // value input not known at convert time): the dtypes and ranks of a dynamic op's outputs.
  std::optional<ops::OpCall> Probe(const ops::OpCall& call) const;
  int32_t NewValue(Value v);

  const ops::OpLibrary& ops_;
  PrecisionMode mode_;
  core::ModelFile model_;
  std::vector<Value> values_;
  std::unordered_set<std::string> reserved_;
  std::unordered_set<std::string> used_values_;
  std::unordered_set<std::string> used_nodes_;
  std::unordered_set<int32_t> output_tensors_;
  size_t folded_ = 0;
  size_t folded_bytes_ = 0;
};

}  // namespace aclsim::convert
