// The ONNX -> CANN op mapping (cann_ops.md section 2): one function per ONNX op type that
// emits the CANN op(s) of the node through a NodeContext.
//
// A mapping either emits ops and binds every ONNX output of the node to a value, or returns
// a Status: kOpTypeNotMatch "<why>" when this form of the node (an attribute value, a rank, a
// dtype) has no CANN equivalent, or what the op library said when an emitted op refused its
// inputs. The importer adds the node's name and collects the errors of all nodes.
//
// Thread-safety: the table is immutable; a NodeContext belongs to one import.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "convert/graph_builder.h"

namespace aclsim::convert {

class NodeContext {
 public:
  // `inputs`: one value id per ONNX input (-1 = omitted); `hints`: ONNX's inferred types of
  // the node's outputs.
  NodeContext(const onnx::NodeProto& proto, int opset, std::string name, GraphBuilder* builder,
              std::vector<int32_t> inputs, std::vector<OutputHint> hints);

  const onnx::NodeProto& proto() const { return proto_; }
  const std::string& op() const { return proto_.op_type(); }
  int opset() const { return opset_; }
  const std::string& name() const { return name_; }
  GraphBuilder& builder() { return *builder_; }

  // ---- Inputs
  size_t num_inputs() const { return inputs_.size(); }
  bool has(size_t i) const { return i < inputs_.size() && inputs_[i] >= 0; }
  int32_t in(size_t i) const { return has(i) ? inputs_[i] : -1; }
  const Value& v(size_t i) const { return builder_->value(inputs_[i]); }
  ops::DataType dtype(size_t i) const { return v(i).desc.dtype; }
  const std::vector<int64_t>& dims(size_t i) const { return v(i).desc.dims; }
  // Rank of input i; -1 when unknown.
  int64_t rank(size_t i) const;
  // Contents of input i when known at convert time.
  std::optional<std::vector<int64_t>> Ints(size_t i) const;
  std::optional<std::vector<double>> Doubles(size_t i) const;

  // ---- Outputs
  size_t num_outputs() const { return static_cast<size_t>(proto_.output_size()); }
  // True if ONNX output j is used (present with a name).
  bool wants(size_t j) const {
    return j < num_outputs() && !proto_.output(static_cast<int>(j)).empty();
  }
  const OutputHint& hint(size_t j) const { return hints_[j]; }
  void SetOutput(size_t j, int32_t value) { outputs_[j] = value; }
  const std::vector<int32_t>& outputs() const { return outputs_; }

  // ---- Attributes
  const onnx::AttributeProto* Attr(std::string_view name) const;
  bool Has(std::string_view name) const { return Attr(name) != nullptr; }
  int64_t Int(std::string_view name, int64_t def) const;
  float Float(std::string_view name, float def) const;
  std::string Str(std::string_view name, const std::string& def) const;
  std::vector<int64_t> IntList(std::string_view name, std::vector<int64_t> def) const;
  std::vector<float> FloatList(std::string_view name, std::vector<float> def) const;

  // ---- Emitting
  // A new constant value (generated name).
  int32_t Const(HostTensor t);
  int32_t ConstI64(const std::vector<int64_t>& values);  // 1-D
  int32_t ScalarI64(int64_t value);
  int32_t ScalarI32(int32_t value);
  // An intermediate op of this node (generated node and output names).
  // `hints` (optional) give the outputs' dtypes and dims when InferShape cannot (dynamic).
  Result<std::vector<int32_t>> Emit(const std::string& type, std::vector<int32_t> inputs,
                                    ops::AttrMap attrs, size_t num_outputs = 1,
                                    std::vector<OutputHint> hints = {});
  // The op producing the node's outputs 0..num_outputs-1 (ONNX names and hints); refuses when
  // the node uses more outputs than that.
  Status Final(const std::string& type, std::vector<int32_t> inputs, ops::AttrMap attrs,
               size_t num_outputs = 1);
  // The op of Final binding only its first `bound` outputs to the node's outputs; returns all
  // of its output values (for expansions that compute the other node outputs from them).
  Result<std::vector<int32_t>> FinalPartial(const std::string& type, std::vector<int32_t> inputs,
                                            ops::AttrMap attrs, size_t num_outputs, size_t bound);
  // As Final for output `j` only, from an op with one output.
  Status FinalAt(size_t j, const std::string& type, std::vector<int32_t> inputs,
                 ops::AttrMap attrs);

 private:
  const onnx::NodeProto& proto_;
  int opset_;
  std::string name_;
  GraphBuilder* builder_;
  std::vector<int32_t> inputs_;
  std::vector<OutputHint> hints_;
  std::vector<int32_t> outputs_;
  size_t emitted_ = 0;
};

using MapFn = Status (*)(NodeContext&);

// The mapping of an ONNX op type of the default domain; nullptr when unsupported.
MapFn FindMapping(std::string_view onnx_type);

// A refusal of this node's form: kOpTypeNotMatch with `why`.
Status Unsupported(std::string why);

// Registration of the two halves of the table (onnx_ops.cc: math, array, shape; onnx_ops_nn.cc:
// convolution, pooling, normalisation, activations with attributes).
void AddArrayMappings(std::vector<std::pair<std::string_view, MapFn>>* table);
void AddNnMappings(std::vector<std::pair<std::string_view, MapFn>>* table);

// Helpers shared by both halves.
int64_t NormAxis(int64_t axis, int64_t rank);
Status Simple(NodeContext& c, const std::string& cann);

}  // namespace aclsim::convert
