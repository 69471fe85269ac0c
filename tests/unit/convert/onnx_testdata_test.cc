// Imports every model.onnx of the libonnx-testdata model sets and prints how many convert and
// why the others are refused. Refusals are fine (execution conformance is another suite);
// a crash or an escaped exception fails, and so does a converted model that is invalid.
// Converted models also run on a host interpreter (the op library's kernels, node by node) and
// are compared with test_data_set_0; the count is printed, and a converted model that does not
// match fails the test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "convert/onnx_import.h"
#include "convert/onnx_tensor.h"
#include "core/model_file.h"
#include "ops/op_library.h"

namespace aclsim::convert {
namespace {

namespace fs = std::filesystem;

// "model <path>: cannot convert the model; node 'x' (Conv): why" -> "Conv: why" (dims and
// node names dropped so that reasons group).
std::string Reason(const std::string& message) {
  std::string r = message;
  const size_t e = r.find("(E16002): ");
  if (e != std::string::npos) {
    const size_t from = e + 10;
    return "unsupported op " + r.substr(from, r.find(" (node", from) - from);
  }
  const size_t model_end = r.find(": ");
  if (model_end != std::string::npos) r = r.substr(model_end + 2);
  const size_t node = r.find("node '");
  if (node != std::string::npos) {
    const size_t close = r.find("' (", node);
    if (close != std::string::npos) r = r.substr(close + 3);
    const size_t paren = r.find("): ");
    if (paren != std::string::npos) r.erase(paren, 1);
  }
  return r.substr(0, 120);
}

// A host interpreter of a converted model: each node compiled with the op library and run on
// host buffers, front to back. It checks the conversion's numerics against ONNX's expected
// outputs before the device executor exists; "" when the outputs match.
std::string RunOnHost(const core::ModelFile& m, const fs::path& dir, double tolerance = 1e-3) {
  const auto& ops = ops::OpLibrary::Builtin();
  std::vector<std::optional<HostTensor>> vals(m.tensors.size());
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    const auto& mt = m.tensors[t];
    if (!mt.constant) continue;
    HostTensor h{mt.desc.dtype, mt.desc.dims, {}};
    h.data.assign(
        m.weights.begin() + static_cast<std::ptrdiff_t>(mt.constant->offset),
        m.weights.begin() + static_cast<std::ptrdiff_t>(mt.constant->offset + mt.constant->size));
    vals[t] = std::move(h);
  }
  auto load = [&](const std::string& name) -> std::optional<HostTensor> {
    std::ifstream in(dir / "test_data_set_0" / name, std::ios::binary);
    onnx::TensorProto p;
    if (!in || !p.ParseFromIstream(&in)) return std::nullopt;
    auto t = TensorFromProto(p, name);
    if (!t.ok()) return std::nullopt;
    return t.value();
  };
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    auto t = load("input_" + std::to_string(i) + ".pb");
    if (!t) return "no input data";
    vals[static_cast<size_t>(m.inputs[i].tensor)] = std::move(t);
  }
  driver::DeviceProps props;
  props.aicore_num = props.vector_core_num = props.aicpu_num = 1;
  props.clock_hz = 1'000'000'000;
  props.ub_bytes = 192 << 10;
  for (const auto& node : m.nodes) {
    ops::OpCall call;
    call.type = node.type;
    call.attrs = node.attrs;
    std::vector<ops::KernelBuffer> in_bufs;
    for (int32_t id : node.inputs) {
      if (id < 0) {
        call.inputs.emplace_back();
        in_bufs.push_back({nullptr, 0});
        continue;
      }
      auto& v = vals[static_cast<size_t>(id)];
      if (!v) return node.name + ": input not computed";
      ops::TensorDesc d = m.tensors[static_cast<size_t>(id)].desc;
      d.dims = v->dims;
      d.value = v->data;
      call.inputs.push_back(std::move(d));
      in_bufs.push_back({v->data.data(), v->data.size()});
    }
    call.outputs.resize(node.outputs.size());
    for (auto& o : call.outputs) o.format = ops::Format::kUndefined;
    auto kernel = ops.Compile(call, props);
    if (!kernel.ok()) return node.name + ": " + kernel.status().message();
    const auto& resolved = kernel.value()->call();
    std::vector<std::vector<uint8_t>> store;
    std::vector<ops::KernelBuffer> out_bufs;
    store.reserve(resolved.outputs.size());
    for (const auto& o : resolved.outputs) {
      store.emplace_back(std::max<size_t>(o.ByteSize(), 1));
      out_bufs.push_back({store.back().data(), o.ByteSize()});
    }
    std::vector<std::vector<int64_t>> dyn(resolved.outputs.size());
    Status st = kernel.value()->Run(in_bufs, out_bufs, &dyn);
    if (!st.ok()) return node.name + ": " + st.message();
    for (size_t j = 0; j < node.outputs.size(); ++j) {
      HostTensor h{resolved.outputs[j].dtype, resolved.outputs[j].dims, std::move(store[j])};
      if (kernel.value()->dynamic_output_shape()) h.dims = dyn[j];
      h.data.resize(static_cast<size_t>(ElementCount(h.dims).value_or(0)) *
                    ops::DataTypeSize(h.dtype));
      vals[static_cast<size_t>(node.outputs[j])] = std::move(h);
    }
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    auto want = load("output_" + std::to_string(i) + ".pb");
    const auto& got = vals[static_cast<size_t>(m.outputs[i].tensor)];
    if (!want || !got) return "output " + std::to_string(i) + " missing";
    auto w = ReadDoubles(want->dtype, want->data);
    auto g = ReadDoubles(got->dtype, got->data);
    if (!w || !g || w->size() != g->size()) return "output " + std::to_string(i) + " size";
    for (size_t k = 0; k < w->size(); ++k) {
      const double a = (*w)[k];
      const double b = (*g)[k];
      if (std::isnan(a) && std::isnan(b)) continue;
      if (std::fabs(a - b) > tolerance / 10 + tolerance * std::fabs(a)) {
        return "output " + std::to_string(i) + " element " + std::to_string(k) + ": " +
               std::to_string(b) + " != " + std::to_string(a);
      }
    }
  }
  return "";
}

TEST(OnnxTestdataTest, EveryModelConvertsOrIsRefusedCleanly) {
  const fs::path root = ACLSIM_ONNX_MODEL_DATA;
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " is absent (libonnx-testdata)";
  const auto& ops = ops::OpLibrary::Builtin();
  for (const char* set : {"simple", "pytorch-converted", "pytorch-operator"}) {
    if (!fs::is_directory(root / set)) continue;
    size_t converted = 0;
    size_t refused = 0;
    size_t matched = 0;
    std::vector<std::string> mismatched;
    std::map<std::string, std::vector<std::string>> reasons;
    for (const auto& dir : fs::directory_iterator(root / set)) {
      const fs::path file = dir.path() / "model.onnx";
      if (!fs::exists(file)) continue;
      auto m = ImportOnnxFile(file.string(), {}, ops);
      if (m.ok()) {
        ++converted;
        Status valid = core::ValidateModel(m.value(), file.string());
        EXPECT_TRUE(valid.ok()) << valid.message();
        const std::string why = RunOnHost(m.value(), dir.path());
        if (why.empty()) {
          ++matched;
        } else {
          mismatched.push_back(dir.path().filename().string() + ": " + why.substr(0, 150));
        }
      } else {
        ++refused;
        reasons[Reason(m.status().message())].push_back(dir.path().filename().string());
      }
    }
    std::printf("[%s] converted %zu, refused %zu; run on the host: %zu match ONNX's outputs\n", set,
                converted, refused, matched);
    for (const auto& why : mismatched) std::printf("  differs: %s\n", why.c_str());
    // force_fp16 (cube ops in float16): informational, at float16 tolerances.
    size_t fp16_converted = 0;
    size_t fp16_matched = 0;
    OnnxImportOptions fp16;
    fp16.precision_mode = PrecisionMode::kForceFp16;
    for (const auto& dir : fs::directory_iterator(root / set)) {
      const fs::path file = dir.path() / "model.onnx";
      if (!fs::exists(file)) continue;
      auto m = ImportOnnxFile(file.string(), fp16, ops);
      if (!m.ok()) continue;
      ++fp16_converted;
      EXPECT_TRUE(core::ValidateModel(m.value(), file.string()).ok());
      const std::string why = RunOnHost(m.value(), dir.path(), 2e-2);
      if (why.empty()) {
        ++fp16_matched;
      } else {
        std::printf("  force_fp16 differs: %s: %s\n", dir.path().filename().c_str(),
                    why.substr(0, 150).c_str());
      }
    }
    std::printf("  force_fp16: converted %zu, %zu match at float16 tolerance (2e-2)\n",
                fp16_converted, fp16_matched);
    EXPECT_TRUE(mismatched.empty()) << mismatched.size() << " converted model(s) differ";
    for (const auto& [why, models] : reasons) {
      std::printf("  %3zu x %s (e.g. %s)\n", models.size(), why.c_str(), models[0].c_str());
    }
  }
}

}  // namespace
}  // namespace aclsim::convert
