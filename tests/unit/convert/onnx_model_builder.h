// Small ONNX models built in C++ for the importer's tests and the fuzz corpus generator.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace aclsim::convert::testing {

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int opset = 13) {
    model_.set_ir_version(8);
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }
  // dims: -1 = a symbolic dim.
  void Input(const std::string& name, int elem, const std::vector<int64_t>& dims) {
    Info(model_.mutable_graph()->add_input(), name, elem, dims);
  }
  void Output(const std::string& name, int elem = onnx::TensorProto::FLOAT) {
    auto* out = model_.mutable_graph()->add_output();
    out->set_name(name);
    out->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  }
  void InitFloat(const std::string& name, const std::vector<int64_t>& dims,
                 const std::vector<float>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
  }
  void InitInt64(const std::string& name, const std::vector<int64_t>& dims,
                 const std::vector<int64_t>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
  }
  onnx::NodeProto* Node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? outputs.at(0) + "_node" : name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }
  static void Int(onnx::NodeProto* n, const std::string& name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void Ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  std::string Bytes() const { return model_.SerializeAsString(); }
  onnx::ModelProto& model() { return model_; }

 private:
  static void Info(onnx::ValueInfoProto* info, const std::string& name, int elem,
                   const std::vector<int64_t>& dims) {
    info->set_name(name);
    auto* tt = info->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) {
      auto* dim = shape->add_dim();
      if (d >= 0) {
        dim->set_dim_value(d);
      } else {
        dim->set_dim_param("N");
      }
    }
  }
  onnx::ModelProto model_;
};

// The models the tests and the fuzz corpus share.
inline OnnxModelBuilder AddModel() {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {2, 3});
  b.Input("y", onnx::TensorProto::FLOAT, {2, 3});
  b.Node("Add", {"x", "y"}, {"z"}, "add");
  b.Output("z");
  return b;
}

inline OnnxModelBuilder ConvReluModel() {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 3, 8, 8});
  b.InitFloat("w", {4, 3, 3, 3}, std::vector<float>(4 * 3 * 3 * 3, 0.5f));
  b.InitFloat("b", {4}, {1, 2, 3, 4});
  auto* conv = b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv");
  OnnxModelBuilder::Ints(conv, "pads", {1, 1, 1, 1});
  OnnxModelBuilder::Ints(conv, "kernel_shape", {3, 3});
  b.Node("Relu", {"c"}, {"y"}, "relu");
  b.Output("y");
  return b;
}

// y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])): pytorch's x.view(x.size(0), -1).
inline OnnxModelBuilder ReshapeChainModel(int64_t batch) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {batch, 3, 4});
  b.InitInt64("zero", {}, {0});
  b.InitInt64("axes0", {1}, {0});
  b.InitInt64("minus1", {1}, {-1});
  b.Node("Shape", {"x"}, {"s"}, "shape");
  b.Node("Gather", {"s", "zero"}, {"n"}, "gather");
  b.Node("Unsqueeze", {"n", "axes0"}, {"nu"}, "unsqueeze");
  auto* cat = b.Node("Concat", {"nu", "minus1"}, {"shape2"}, "concat");
  OnnxModelBuilder::Int(cat, "axis", 0);
  b.Node("Reshape", {"x", "shape2"}, {"y"}, "reshape");
  b.Output("y");
  return b;
}

}  // namespace aclsim::convert::testing
