#include "convert/onnx_graph.h"

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <exception>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace aclsim::convert {

namespace {

// The opset the mapping table starts at; older models are upgraded to it first.
constexpr int kMinOpset = 9;

void Warn(const OnnxImportOptions& options, const std::string& message) {
  if (options.warning) options.warning(message);
}

OutputHint HintOf(const onnx::TypeProto& type) {
  OutputHint h;
  if (!type.has_tensor_type()) return h;
  h.dtype = DataTypeFromOnnx(type.tensor_type().elem_type());
  if (!type.tensor_type().has_shape()) return h;
  h.dims.clear();
  for (const auto& d : type.tensor_type().shape().dim()) {
    h.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
  }
  return h;
}

void SetShape(onnx::ValueInfoProto* info, const std::vector<int64_t>& dims) {
  auto* shape = info->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d >= 0) dim->set_dim_value(d);
  }
}

// True if every node reads only names defined before it (graph inputs, initializers, earlier
// node outputs), no name is defined twice and every graph output is defined: what libonnx's
// version converter assumes without checking (it crashes otherwise).
bool DefinedInOrder(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> defined;
  for (const auto& in : graph.input()) defined.insert(in.name());
  for (const auto& init : graph.initializer()) defined.insert(init.name());
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) {
      if (!in.empty() && defined.count(in) == 0) return false;
    }
    for (const auto& out : node.output()) {
      if (!out.empty() && !defined.insert(out).second) return false;
    }
    for (const auto& attr : node.attribute()) {
      if (attr.has_g() || attr.graphs_size() > 0) return false;  // subgraphs: not upgraded
    }
  }
  for (const auto& out : graph.output()) {
    if (defined.count(out.name()) == 0) return false;
  }
  return true;
}

}  // namespace

Result<PreparedGraph> PrepareGraph(const void* data, size_t size, std::string_view origin,
                                   const OnnxImportOptions& options) {
  PreparedGraph g;
  if (size > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !g.model.ParseFromArray(data, static_cast<int>(size))) {
    return Err(StatusCode::kParseModel, "model {}: not an ONNX model (ModelProto parse failed)",
               origin);
  }
  if (!g.model.has_graph()) return Err(StatusCode::kParseModel, "model {}: has no graph", origin);
  for (const auto& op : g.model.opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") g.opset = static_cast<int>(op.version());
  }
  if (g.opset == 0) {
    for (const auto& node : g.model.graph().node()) {
      if (node.domain().empty() || node.domain() == "ai.onnx") {
        return Err(StatusCode::kParseModel,
                   "model {}: node '{}' ({}) is of the default ONNX domain, which the model "
                   "does not import (opset_import)",
                   origin, node.name(), node.op_type());
      }
    }
    g.opset = kMinOpset;  // no default-domain node: the other domains' nodes are refused later
  } else if (g.opset < kMinOpset && !DefinedInOrder(g.model.graph())) {
    Warn(options, fmt::format("model {}: opset {} is not upgraded (the graph is not in "
                              "topological order or reads undefined tensors)",
                              origin, g.opset));
  } else if (g.opset < kMinOpset) {
    // libonnx's version converter assumes a well-formed graph (it crashes on some that are
    // not), so only models that pass libonnx's checker and DefinedInOrder are upgraded.
    try {
      onnx::checker::check_model(g.model);
      onnx::ModelProto upgraded = onnx::version_conversion::ConvertVersion(g.model, kMinOpset);
      g.model = std::move(upgraded);
      g.opset = kMinOpset;
    } catch (const std::exception& e) {
      Warn(options, fmt::format("model {}: opset {} could not be upgraded to {} ({}); converting "
                                "it as it is",
                                origin, g.opset, kMinOpset, e.what()));
    }
  }
  onnx::GraphProto* graph = g.model.mutable_graph();
  std::unordered_set<std::string> initializers;
  for (const auto& init : graph->initializer()) initializers.insert(init.name());

  // --input_shape
  for (const auto& [name, dims] : options.input_shapes) {
    bool found = false;
    for (auto& in : *graph->mutable_input()) {
      if (in.name() != name || initializers.count(name) != 0) continue;
      SetShape(&in, dims);
      found = true;
    }
    if (!found) {
      return Err(StatusCode::kInvalidParam,
                 "model {}: --input_shape names '{}', which is not an "
                 "input of the model",
                 origin, name);
    }
  }

  // ONNX's shape inference: dtypes and ranks for what the op library leaves unknown. A model
  // it cannot infer is still converted (the op library infers what it can). libonnx 1.12's
  // inference crashes on some malformed nodes (convPoolShapeInference on hostile Conv/Pool
  // attributes, found by fuzzing), so it runs only on models its checker accepts.
  try {
    onnx::checker::check_model(g.model);
    onnx::ShapeInferenceOptions opts;
    opts.check_type = false;
    opts.error_mode = 0;
    onnx::shape_inference::InferShapes(g.model, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception& e) {
    Warn(options, fmt::format("model {}: ONNX shape inference failed: {}", origin, e.what()));
  }
  for (const auto* list : {&graph->input(), &graph->value_info(), &graph->output()}) {
    for (const auto& info : *list) g.types[info.name()] = HintOf(info.type());
  }

  // Outputs: the graph's or --out_nodes.
  const int node_count = graph->node_size();
  if (options.out_nodes.empty()) {
    for (const auto& out : graph->output()) g.outputs.emplace_back(out.name(), out.name());
  } else {
    for (const auto& [node_name, index] : options.out_nodes) {
      const onnx::NodeProto* node = nullptr;
      for (const auto& n : graph->node()) {
        if (n.name() == node_name) node = &n;
      }
      if (node == nullptr) {
        return Err(StatusCode::kInvalidParam,
                   "model {}: --out_nodes names '{}', which is not a "
                   "node of the model",
                   origin, node_name);
      }
      if (index < 0 || index >= node->output_size() || node->output(index).empty()) {
        return Err(StatusCode::kInvalidParam,
                   "model {}: --out_nodes {}:{}: node '{}' has {} "
                   "output(s)",
                   origin, node_name, index, node_name, node->output_size());
      }
      g.outputs.emplace_back(node->output(index), node->output(index));
    }
  }
  if (g.outputs.empty()) return Err(StatusCode::kParseModel, "model {}: has no outputs", origin);
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    if (g.outputs[i].first.empty()) {
      return Err(StatusCode::kParseModel, "model {}: graph output {} has no name", origin, i);
    }
    for (size_t j = 0; j < i; ++j) {
      if (g.outputs[j].first == g.outputs[i].first) {
        return Err(StatusCode::kParseModel, "model {}: output '{}' is listed twice", origin,
                   g.outputs[i].first);
      }
    }
  }

  // Producers, then a depth-first walk from the outputs: topological order of needed nodes.
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < node_count; ++i) {
    for (const auto& out : graph->node(i).output()) {
      if (out.empty()) continue;
      if (!producer.emplace(out, i).second || initializers.count(out) != 0) {
        return Err(StatusCode::kParseModel, "model {}: tensor '{}' is produced twice", origin, out);
      }
    }
  }
  std::vector<uint8_t> state(static_cast<size_t>(node_count), 0);  // 0 new, 1 open, 2 done
  std::vector<std::pair<int, int>> stack;                          // node, next input
  auto visit = [&](const std::string& tensor) -> Status {
    auto it = producer.find(tensor);
    if (it == producer.end()) return Status::Ok();
    if (state[static_cast<size_t>(it->second)] == 0) {
      state[static_cast<size_t>(it->second)] = 1;
      stack.emplace_back(it->second, 0);
    } else if (state[static_cast<size_t>(it->second)] == 1) {
      return Err(StatusCode::kParseModel, "model {}: the graph has a cycle through tensor '{}'",
                 origin, tensor);
    }
    return Status::Ok();
  };
  for (const auto& [io_name, tensor] : g.outputs) {
    ACLSIM_RETURN_IF_ERROR(visit(tensor));
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& proto = graph->node(node);
      if (next < proto.input_size()) {
        const std::string& in = proto.input(next++);
        if (!in.empty()) ACLSIM_RETURN_IF_ERROR(visit(in));
        continue;
      }
      state[static_cast<size_t>(node)] = 2;
      g.order.push_back(node);
      stack.pop_back();
    }
  }
  return g;
}

}  // namespace aclsim::convert
