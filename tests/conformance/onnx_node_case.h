// One ONNX backend node test (data/node/test_*/): its single node and every data set, read
// for the node runners (onnx_node_runner through aclop, onnx_node_aclnn_runner through aclnn).
// Test-only code; public ACL headers and libonnx's protobuf messages only.
#pragma once

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "onnx_tensor.h"

namespace onnxconf {

struct NodeCase {
  onnx::ModelProto model;
  const onnx::NodeProto* node = nullptr;
  int opset = 0;
  std::string op;  // the node's op type ("<domain>.<op>" outside the default domain)
  struct Set {
    std::string name;
    std::map<std::string, Tensor> values;    // initializers and fed inputs, by name
    std::map<std::string, Tensor> expected;  // outputs, by name
  };
  std::vector<Set> sets;

  // The tensor of node input / output i in `set` (null: omitted or absent).
  const Tensor* Input(const Set& set, size_t i) const;
  const Tensor* Output(const Set& set, size_t i) const;
};

// Reads model.onnx: "" for a single node of the default domain, else why not (c->op is set
// whenever the graph has a node).
std::string ReadNodeModel(const std::filesystem::path& dir, NodeCase* c);
// Reads every test_data_set_*: initializers, input_N.pb (the graph inputs that are not
// initializers, in order) and output_N.pb, each retyped to its declared element type when a
// .pb stores it as another of the same size (bfloat16 as uint16), then passed to `adjust`.
std::string ReadNodeData(const std::filesystem::path& dir, NodeCase* c,
                         const std::function<void(Tensor*)>& adjust);

}  // namespace onnxconf
