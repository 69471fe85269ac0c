// Writes the small graph models (.om) that api_model_test loads through the public API.
// A build-time fixture (like atc for the single-op models): it builds ModelFiles by hand so
// the aclmdl tests do not depend on the ONNX importer.
//
// Usage: make_graph_models OUT_DIR
//   add_relu.om    out = Relu(x + y) * 2 (a constant), sum = x + y (an output later nodes
//                  read); x, y: FLOAT [2, 3]
//   passthrough.om outputs: the input itself and a constant (filled by copies)
//   reshape.om     Reshape(x [2, 3], shape = constant [3, 2]) -> Relu
//   dyn_batch.om   y = Relu(x), x FLOAT [-1, 4], gears batch 1, 2, 4
//   dyn_shape.om   y = Relu(Reshape(x [2, 3], shape)), shape an INT64 [2] model input: the
//                  output shape depends on an input value
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/model_file.h"

namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace {

int32_t AddTensor(core::ModelFile& model, const std::string& name, std::vector<int64_t> dims,
                  ops::DataType dtype = ops::DataType::kFloat) {
  core::ModelTensor tensor;
  tensor.desc.dtype = dtype;
  tensor.desc.format = ops::Format::kNd;
  tensor.desc.dims = std::move(dims);
  tensor.desc.name = name;
  model.tensors.push_back(std::move(tensor));
  return static_cast<int32_t>(model.tensors.size() - 1);
}

template <typename T>
int32_t AddConstant(core::ModelFile& model, const std::string& name, std::vector<int64_t> dims,
                    ops::DataType dtype, const std::vector<T>& values) {
  const int32_t id = AddTensor(model, name, std::move(dims), dtype);
  while (model.weights.size() % core::kModelWeightAlign != 0) model.weights.push_back(0);
  core::WeightRange range;
  range.offset = model.weights.size();
  range.size = values.size() * sizeof(T);
  model.weights.resize(model.weights.size() + range.size);
  std::memcpy(model.weights.data() + range.offset, values.data(), range.size);
  model.tensors[static_cast<size_t>(id)].constant = range;
  return id;
}

void AddNode(core::ModelFile& model, const std::string& type, const std::string& name,
             std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  core::ModelNode node;
  node.type = type;
  node.name = name;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  model.nodes.push_back(std::move(node));
}

core::ModelFile AddRelu() {
  core::ModelFile model;
  model.name = "add_relu";
  model.soc_version = "Ascend910B2";
  const int32_t x = AddTensor(model, "x", {2, 3});
  const int32_t y = AddTensor(model, "y", {2, 3});
  const int32_t two =
      AddConstant<float>(model, "two", {2, 3}, ops::DataType::kFloat, std::vector<float>(6, 2.0F));
  const int32_t sum = AddTensor(model, "sum", {2, 3});
  const int32_t relu = AddTensor(model, "relu", {2, 3});
  const int32_t out = AddTensor(model, "out", {2, 3});
  AddNode(model, "Add", "add", {x, y}, {sum});
  AddNode(model, "Relu", "relu", {sum}, {relu});
  AddNode(model, "Mul", "scale", {relu, two}, {out});
  model.nodes.back().attrs["unused_note"] = std::string("kept for aclmdlGetOpAttr");
  model.inputs = {{"x", x}, {"y", y}};
  model.outputs = {{"out", out}, {"sum", sum}};
  return model;
}

core::ModelFile Passthrough() {
  core::ModelFile model;
  model.name = "passthrough";
  model.soc_version = "Ascend910B2";
  const int32_t x = AddTensor(model, "x", {4}, ops::DataType::kInt32);
  const int32_t c = AddConstant<int32_t>(model, "c", {4}, ops::DataType::kInt32, {7, 8, 9, 10});
  model.inputs = {{"x", x}};
  model.outputs = {{"same", x}, {"const", c}};
  return model;
}

core::ModelFile Reshape() {
  core::ModelFile model;
  model.name = "reshape";
  model.soc_version = "Ascend910B2";
  const int32_t x = AddTensor(model, "x", {2, 3});
  const int32_t shape = AddConstant<int64_t>(model, "shape", {2}, ops::DataType::kInt64, {3, 2});
  const int32_t reshaped = AddTensor(model, "reshaped", {3, 2});
  const int32_t y = AddTensor(model, "y", {3, 2});
  AddNode(model, "Reshape", "reshape", {x, shape}, {reshaped});
  AddNode(model, "Relu", "relu", {reshaped}, {y});
  model.inputs = {{"x", x}};
  model.outputs = {{"y", y}};
  return model;
}

core::ModelFile DynBatch() {
  core::ModelFile model;
  model.name = "dyn_batch";
  model.soc_version = "Ascend910B2";
  const int32_t x = AddTensor(model, "x", {-1, 4});
  const int32_t y = AddTensor(model, "y", {-1, 4});
  AddNode(model, "Relu", "relu", {x}, {y});
  model.inputs = {{"x", x}};
  model.outputs = {{"y", y}};
  model.gears.kind = core::GearKind::kBatch;
  model.gears.inputs = {0};
  model.gears.gears = {{1}, {2}, {4}};
  return model;
}

core::ModelFile DynShape() {
  core::ModelFile model;
  model.name = "dyn_shape";
  model.soc_version = "Ascend910B2";
  const int32_t x = AddTensor(model, "x", {2, 3});
  const int32_t shape = AddTensor(model, "shape", {2}, ops::DataType::kInt64);
  const int32_t reshaped = AddTensor(model, "reshaped", {-1, -1});
  const int32_t y = AddTensor(model, "y", {-1, -1});
  AddNode(model, "Reshape", "reshape", {x, shape}, {reshaped});
  AddNode(model, "Relu", "relu", {reshaped}, {y});
  model.inputs = {{"x", x}, {"shape", shape}};
  model.outputs = {{"y", y}};
  return model;
}

bool Write(const std::string& dir, const core::ModelFile& model) {
  aclsim::Status valid = core::ValidateModel(model, model.name);
  if (!valid.ok()) {
    std::fprintf(stderr, "make_graph_models: %s\n", valid.message().c_str());
    return false;
  }
  const std::vector<uint8_t> bytes = core::SerializeModel(model);
  std::ofstream out(dir + "/" + model.name + ".om", std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_graph_models OUT_DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  for (const auto& model : {AddRelu(), Passthrough(), Reshape(), DynBatch(), DynShape()}) {
    if (!Write(dir, model)) return 1;
  }
  return 0;
}
