#include "onnx_node_case.h"

#include <algorithm>
#include <fstream>

namespace onnxconf {

namespace fs = std::filesystem;

const Tensor* NodeCase::Input(const Set& set, size_t i) const {
  if (i >= static_cast<size_t>(node->input_size())) return nullptr;
  const std::string& name = node->input(static_cast<int>(i));
  auto v = set.values.find(name);
  return name.empty() || v == set.values.end() ? nullptr : &v->second;
}

const Tensor* NodeCase::Output(const Set& set, size_t i) const {
  if (i >= static_cast<size_t>(node->output_size())) return nullptr;
  const std::string& name = node->output(static_cast<int>(i));
  auto v = set.expected.find(name);
  return name.empty() || v == set.expected.end() ? nullptr : &v->second;
}

std::string ReadNodeModel(const fs::path& dir, NodeCase* c) {
  {
    std::ifstream f(dir / "model.onnx", std::ios::binary);
    if (!f || !c->model.ParseFromIstream(&f)) return "cannot parse model.onnx";
  }
  const auto& graph = c->model.graph();
  if (graph.node_size() != 1) {
    c->op = graph.node_size() > 0 ? graph.node(0).op_type() : "";
    return "not a single-node graph (" + std::to_string(graph.node_size()) + " nodes)";
  }
  c->node = &graph.node(0);
  c->op = c->node->op_type();
  if (!c->node->domain().empty() && c->node->domain() != "ai.onnx") {
    c->op = c->node->domain() + "." + c->node->op_type();
    return "domain " + c->node->domain();
  }
  for (const auto& op : c->model.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") c->opset = static_cast<int>(op.version());
  return "";
}

std::string ReadNodeData(const fs::path& dir, NodeCase* c,
                         const std::function<void(Tensor*)>& adjust) {
  const auto& graph = c->model.graph();
  // Declared element types (a bfloat16 input may be stored as uint16 in its .pb).
  std::map<std::string, int> declared;
  for (const auto* list : {&graph.input(), &graph.output()}) {
    for (const auto& vi : *list) {
      if (!vi.type().has_tensor_type()) return "non-tensor (sequence/optional) value " + vi.name();
      declared[vi.name()] = vi.type().tensor_type().elem_type();
    }
  }
  auto retype = [&](const std::string& name, Tensor* t) {
    auto d = declared.find(name);
    if (d != declared.end() && d->second != t->type && ElemSize(d->second) == ElemSize(t->type))
      t->type = d->second;
    adjust(t);
  };
  // Graph inputs that are not initializers are input_N.pb in order.
  std::map<std::string, bool> is_init;
  for (const auto& t : graph.initializer()) is_init[t.name()] = true;
  std::vector<std::string> feed_names;
  for (const auto& vi : graph.input())
    if (!is_init.count(vi.name())) feed_names.push_back(vi.name());
  std::vector<std::string> out_names;
  for (const auto& vi : graph.output()) out_names.push_back(vi.name());

  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0)
      dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty()) return "no test_data_set";
  for (const fs::path& set_dir : dirs) {
    NodeCase::Set set;
    set.name = set_dir.filename().string();
    std::string why;
    for (const auto& t : graph.initializer()) {
      if (!FromProto(t, &set.values[t.name()], &why)) return "initializer: " + why;
    }
    for (size_t i = 0; i < feed_names.size(); ++i) {
      Tensor& t = set.values[feed_names[i]];
      if (!LoadTensor(set_dir / ("input_" + std::to_string(i) + ".pb"), &t, &why)) {
        return "input " + std::to_string(i) + ": " + why;
      }
      retype(feed_names[i], &t);
    }
    for (size_t j = 0; j < out_names.size(); ++j) {
      Tensor& t = set.expected[out_names[j]];
      if (!LoadTensor(set_dir / ("output_" + std::to_string(j) + ".pb"), &t, &why)) {
        return "output " + std::to_string(j) + ": " + why;
      }
      retype(out_names[j], &t);
    }
    c->sets.push_back(std::move(set));
  }
  return "";
}

}  // namespace onnxconf
