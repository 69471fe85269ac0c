// Model benchmarks (issue 6, item 8), on the model example's ResNet-18-shaped network
// (examples/model: resnet18.onnx converted by atc), each figure next to a reference measured
// in the same run:
//   * load: aclmdlLoadFromFile + aclmdlUnload, against reading the .om file into memory;
//   * host overhead per op: the host time of aclmdlExecuteAsync (enqueueing every node)
//     divided by the node count, against one aclrtMemsetAsync (the cheapest task enqueue);
//   * functional execution: aclmdlExecute (every kernel computed on the host CPU), against
//     onnxruntime-node on one thread (bench/ort_reference.js; scripts/install-ort.sh), when
//     node and the package are there;
//   * the simulated latency of one inference, and the memory plan.
// The memory planner's figures on the shared traces are planner_bench's.
//
// Usage: model_bench [DATA_DIR] [OUT.json]   (DATA_DIR defaults to the example's build dir)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_ext.h"
#include "bench/figures.h"
#include "core/model_file.h"

namespace {

using Clock = std::chrono::steady_clock;

template <typename Fn>
double MedianMs(int reps, Fn&& fn) {
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const auto start = Clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::nth_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(ms.size() / 2), ms.end());
  return ms[ms.size() / 2];
}

std::vector<char> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::vector<char> bytes(static_cast<size_t>(std::max<std::streamoff>(0, in.tellg())));
  in.seekg(0);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

// onnxruntime-node's mean ms per inference, or a negative value if it cannot run.
double OrtMs(const std::string& dir, int reps) {
  const std::string script = ACLSIM_BENCH_SOURCE_DIR "/ort_reference.js";
  const std::string modules = ACLSIM_ORT_MODULES;
  const std::string cmd = "NODE_PATH='" + modules + "' node '" + script + "' '" + dir +
                          "/resnet18.onnx' '" + dir + "/input.bin' " + std::to_string(reps) +
                          " 2>/dev/null";
  std::FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return -1;
  char line[512] = {};
  const bool got = std::fgets(line, sizeof(line), pipe) != nullptr;
  const int rc = pclose(pipe);
  if (!got || rc != 0) return -1;
  const std::string text = line;
  const size_t at = text.find("\"ms\":");
  return at == std::string::npos ? -1 : std::atof(text.c_str() + at + 5);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ACLSIM_MODEL_EXAMPLE_DIR;
  const std::string om = dir + "/resnet18.om";
  const std::vector<char> bytes = ReadAll(om);
  auto file = aclsim::core::ParseModel(bytes.data(), bytes.size(), om);
  if (!file.ok()) {
    fmt::print(stderr, "model_bench: {} (build the model example first)\n",
               file.status().message());
    return 1;
  }
  const size_t nodes = file.value().nodes.size();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    fmt::print(stderr, "model_bench: aclInit/aclrtSetDevice failed: {}\n", aclGetRecentErrMsg());
    return 1;
  }
  aclsim::bench::Figures figures;
  fmt::print("model: {} ({} nodes, {} bytes)\n", om, nodes, bytes.size());

  // Load.
  const double load_ms = MedianMs(10, [&] {
    uint32_t id = 0;
    (void)aclmdlLoadFromFile(om.c_str(), &id);
    (void)aclmdlUnload(id);
  });
  const double read_ms = MedianMs(10, [&] { (void)ReadAll(om); });
  figures.Reference("aclmdlLoadFromFile + aclmdlUnload", load_ms, "ms");
  figures.Reference("  reading the .om file", read_ms, "ms");
  figures.Reference("  load / read", load_ms / read_ms, "x");

  // Buffers for executions.
  uint32_t id = 0;
  if (aclmdlLoadFromFile(om.c_str(), &id) != ACL_SUCCESS) {
    fmt::print(stderr, "model_bench: load failed: {}\n", aclGetRecentErrMsg());
    return 1;
  }
  aclmdlDesc* desc = aclmdlCreateDesc();
  (void)aclmdlGetDesc(desc, id);
  aclmdlDataset* inputs = aclmdlCreateDataset();
  aclmdlDataset* outputs = aclmdlCreateDataset();
  std::vector<void*> memory;
  std::vector<aclDataBuffer*> buffers;
  auto add = [&](aclmdlDataset* dataset, size_t size) {
    void* dev = nullptr;
    (void)aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST);
    (void)aclrtMemset(dev, size, 0, size);
    memory.push_back(dev);
    buffers.push_back(aclCreateDataBuffer(dev, size));
    (void)aclmdlAddDatasetBuffer(dataset, buffers.back());
  };
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i)
    add(inputs, aclmdlGetInputSizeByIndex(desc, i));
  for (size_t o = 0; o < aclmdlGetNumOutputs(desc); ++o) {
    add(outputs, aclmdlGetOutputSizeByIndex(desc, o));
  }
  aclrtStream stream = nullptr;
  (void)aclrtCreateStream(&stream);

  // Host overhead per op: the enqueue alone (the stream drains between samples).
  (void)aclmdlExecuteAsync(id, inputs, outputs, stream);
  (void)aclrtSynchronizeStream(stream);
  std::vector<double> enqueue_ms;
  for (int i = 0; i < 10; ++i) {
    const auto start = Clock::now();
    (void)aclmdlExecuteAsync(id, inputs, outputs, stream);
    enqueue_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    (void)aclrtSynchronizeStream(stream);
  }
  std::sort(enqueue_ms.begin(), enqueue_ms.end());
  const double per_op_us = enqueue_ms[enqueue_ms.size() / 2] * 1000.0 / static_cast<double>(nodes);
  void* scratch = memory.front();
  const double memset_us =
      MedianMs(2000, [&] { (void)aclrtMemsetAsync(scratch, 4, 0, 4, stream); }) * 1000.0;
  (void)aclrtSynchronizeStream(stream);
  figures.Reference("aclmdlExecuteAsync host time per op", per_op_us, "us");
  figures.Reference("  aclrtMemsetAsync (one task enqueue)", memset_us, "us");
  figures.Reference("  per op / task enqueue", per_op_us / memset_us, "x");

  // Functional execution and simulated latency.
  const double exec_ms = MedianMs(5, [&] { (void)aclmdlExecute(id, inputs, outputs); });
  figures.Reference("aclmdlExecute (functional, host CPU)", exec_ms, "ms");
  const double ort_ms = OrtMs(dir, 5);
  if (ort_ms > 0) {
    figures.Reference("  onnxruntime-node, 1 thread", ort_ms, "ms");
    figures.Reference("  aclsim / onnxruntime", exec_ms / ort_ms, "x");
  } else {
    fmt::print("  (onnxruntime-node not available: scripts/install-ort.sh)\n");
  }
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  (void)aclrtCreateEvent(&start);
  (void)aclrtCreateEvent(&end);
  (void)aclrtRecordEvent(start, stream);
  (void)aclmdlExecuteAsync(id, inputs, outputs, stream);
  (void)aclrtRecordEvent(end, stream);
  (void)aclrtSynchronizeStream(stream);
  float sim_ms = 0;
  (void)aclrtEventElapsedTime(&sim_ms, start, end);
  figures.Reference("simulated latency per inference", static_cast<double>(sim_ms), "ms");
  size_t arena = 0;
  size_t total = 0;
  size_t lower = 0;
  (void)aclextModelGetMemoryPlan(id, &arena, &total, &lower);
  figures.Reference("planner arena", static_cast<double>(arena) / (1 << 20), "MiB");
  figures.Reference("  sum of intermediates (no reuse)", static_cast<double>(total) / (1 << 20),
                    "MiB");
  figures.Reference("  lower bound", static_cast<double>(lower) / (1 << 20), "MiB");

  (void)aclrtDestroyEvent(start);
  (void)aclrtDestroyEvent(end);
  (void)aclrtDestroyStream(stream);
  for (auto* buffer : buffers) (void)aclDestroyDataBuffer(buffer);
  for (void* dev : memory) (void)aclrtFree(dev);
  (void)aclmdlDestroyDataset(inputs);
  (void)aclmdlDestroyDataset(outputs);
  (void)aclmdlDestroyDesc(desc);
  (void)aclmdlUnload(id);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  figures.WriteJson(argc > 2 ? argv[2] : "model_bench.json", "model", "resnet18 (half width)");
  return 0;
}
