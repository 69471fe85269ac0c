// Model inference example: a ResNet-18-shaped CNN converted from ONNX with
//
//   atc --model=resnet18.onnx --framework=5 --output=resnet18 --soc_version=Ascend910B2
//
// (the build does this; make_resnet.py writes the ONNX model with seeded weights and the
// expected outputs, computed independently with numpy), run as a CANN model runner would:
// query sizes, load, describe inputs and outputs, bind datasets, execute synchronously with
// aclmdlExecute and asynchronously with aclmdlExecuteAsync on a stream whose callbacks a
// report thread handles, check the outputs, and print the simulated latency and throughput
// and the memory the planner gave the intermediate tensors.
//
// Usage: model_resnet DIR   (DIR holds resnet18.om, input.bin, logits.bin, prob.bin)
// Builds unchanged against CANN except for the aclsim extension (guarded below).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#if __has_include("acl/acl_ext.h")
#include "acl/acl_ext.h"
#endif

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError err_ = (call);                                                              \
    if (err_ != ACL_SUCCESS) {                                                           \
      const char* msg_ = aclGetRecentErrMsg();                                           \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, msg_ ? msg_ : "no msg"); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

namespace {

constexpr int kAsyncRuns = 4;

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<float> values(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(values.size() * 4),
            reinterpret_cast<char*>(values.data()));
  return values;
}

std::string Dims(const aclmdlIODims& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.dimCount; ++i) {
    text += (i != 0 ? "," : "") + std::to_string(dims.dims[i]);
  }
  return text + "]";
}

// Largest |got - want| relative to the largest |want|.
double RelativeError(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0;
  double scale = 1e-12;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - want[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  return worst / scale;
}

std::vector<int> Top5(const std::vector<float>& score) {
  std::vector<int> index(score.size());
  for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<int>(i);
  std::partial_sort(index.begin(), index.begin() + 5, index.end(), [&](int a, int b) {
    return score[static_cast<size_t>(a)] > score[static_cast<size_t>(b)];
  });
  index.resize(5);
  return index;
}

std::atomic<int> g_callbacks{0};
std::atomic<bool> g_stop{false};

void OnInferenceDone(void* user) {
  const int run = *static_cast<int*>(user);
  std::printf("  callback: asynchronous inference %d done\n", run);
  g_callbacks.fetch_add(1);
}

// The model's input and output buffers in device memory, in datasets.
struct Io {
  aclmdlDataset* inputs = aclmdlCreateDataset();
  aclmdlDataset* outputs = aclmdlCreateDataset();
  std::vector<void*> memory;
  std::vector<aclDataBuffer*> buffers;

  aclError Add(aclmdlDataset* dataset, size_t bytes, void** dev) {
    aclError err = aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (err != ACL_SUCCESS) return err;
    memory.push_back(*dev);
    buffers.push_back(aclCreateDataBuffer(*dev, bytes));
    return aclmdlAddDatasetBuffer(dataset, buffers.back());
  }
  ~Io() {
    for (auto* buffer : buffers) (void)aclDestroyDataBuffer(buffer);
    for (void* dev : memory) (void)aclrtFree(dev);
    (void)aclmdlDestroyDataset(inputs);
    (void)aclmdlDestroyDataset(outputs);
  }
};

// Everything between aclrtSetDevice and aclrtResetDevice; 0 when every check passed.
int Run(const std::string& dir) {
  const std::string model_path = dir + "/resnet18.om";
  const std::vector<float> input = ReadFloats(dir + "/input.bin");
  const std::vector<float> want_logits = ReadFloats(dir + "/logits.bin");
  const std::vector<float> want_prob = ReadFloats(dir + "/prob.bin");
  if (input.size() != 3 * 224 * 224 || want_prob.size() != 1000 || want_logits.size() != 1000) {
    std::fprintf(stderr, "missing or short data files in %s\n", dir.c_str());
    return 1;
  }

  size_t work_size = 0;
  size_t weight_size = 0;
  CHECK(aclmdlQuerySize(model_path.c_str(), &work_size, &weight_size));
  uint32_t model_id = 0;
  CHECK(aclmdlLoadFromFile(model_path.c_str(), &model_id));
  std::printf("loaded %s as model %u: weights %zu bytes, work %zu bytes\n", model_path.c_str(),
              model_id, weight_size, work_size);

  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, model_id));
  Io io;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    aclmdlIODims dims = {};
    CHECK(aclmdlGetInputDims(desc, i, &dims));
    const size_t bytes = aclmdlGetInputSizeByIndex(desc, i);
    std::printf("  input %zu: %s %s, %zu bytes\n", i, aclmdlGetInputNameByIndex(desc, i),
                Dims(dims).c_str(), bytes);
    void* dev = nullptr;
    CHECK(io.Add(io.inputs, bytes, &dev));
    CHECK(aclrtMemcpy(dev, bytes, input.data(), input.size() * sizeof(float),
                      ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<void*> outputs;
  for (size_t o = 0; o < aclmdlGetNumOutputs(desc); ++o) {
    aclmdlIODims dims = {};
    CHECK(aclmdlGetOutputDims(desc, o, &dims));
    const size_t bytes = aclmdlGetOutputSizeByIndex(desc, o);
    std::printf("  output %zu: %s %s, %zu bytes\n", o, aclmdlGetOutputNameByIndex(desc, o),
                Dims(dims).c_str(), bytes);
    void* dev = nullptr;
    CHECK(io.Add(io.outputs, bytes, &dev));
    outputs.push_back(dev);
  }
  size_t logits_index = 0;
  size_t prob_index = 0;
  CHECK(aclmdlGetOutputIndexByName(desc, "logits", &logits_index));
  CHECK(aclmdlGetOutputIndexByName(desc, "prob", &prob_index));
  auto read = [&](size_t index, std::vector<float>* host) {
    host->assign(1000, 0.0F);
    return aclrtMemcpy(host->data(), 4000, outputs[index], 4000, ACL_MEMCPY_DEVICE_TO_HOST);
  };

  // 1. Synchronous inference, checked against the numpy reference.
  CHECK(aclmdlExecute(model_id, io.inputs, io.outputs));
  std::vector<float> logits;
  std::vector<float> prob;
  CHECK(read(logits_index, &logits));
  CHECK(read(prob_index, &prob));
  const double logits_error = RelativeError(logits, want_logits);
  const double prob_error = RelativeError(prob, want_prob);
  const std::vector<int> top = Top5(logits);
  const std::vector<int> want_top = Top5(want_logits);
  std::printf("aclmdlExecute: top-5 classes");
  for (int c : top) std::printf(" %d (%.4f)", c, static_cast<double>(prob[static_cast<size_t>(c)]));
  std::printf("\n  reference top-5:");
  for (int c : want_top) std::printf(" %d", c);
  std::printf("\n  max relative error: logits %.2e, prob %.2e\n", logits_error, prob_error);
  const bool correct = logits_error < 1e-3 && prob_error < 1e-3 && top == want_top;

  // 2. Asynchronous inferences on a stream, each followed by a callback; events time them in
  //    simulated time.
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  // The report thread runs the callbacks; it stops (and is joined) when Run returns.
  struct Reporter {
    std::thread thread{[] {
      while (!g_stop.load()) (void)aclrtProcessReport(10);
    }};
    ~Reporter() {
      g_stop.store(true);
      thread.join();
    }
  } reporter_thread;
  std::thread& reporter = reporter_thread.thread;
  CHECK(aclrtSubscribeReport(static_cast<uint64_t>(reporter.native_handle()), stream));
  aclrtEvent start = nullptr;
  aclrtEvent first = nullptr;
  aclrtEvent end = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&first));
  CHECK(aclrtCreateEvent(&end));
  int runs[kAsyncRuns];
  CHECK(aclrtRecordEvent(start, stream));
  for (int r = 0; r < kAsyncRuns; ++r) {
    runs[r] = r + 1;
    CHECK(aclmdlExecuteAsync(model_id, io.inputs, io.outputs, stream));
    if (r == 0) CHECK(aclrtRecordEvent(first, stream));
    CHECK(aclrtLaunchCallback(OnInferenceDone, &runs[r], ACL_CALLBACK_BLOCK, stream));
  }
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float latency_ms = 0;
  float total_ms = 0;
  CHECK(aclrtEventElapsedTime(&latency_ms, start, first));
  CHECK(aclrtEventElapsedTime(&total_ms, start, end));
  std::vector<float> async_prob;
  CHECK(read(prob_index, &async_prob));
  const bool async_correct = async_prob == prob;
  std::printf("aclmdlExecuteAsync x%d: %d callbacks, outputs %s the synchronous run's\n",
              kAsyncRuns, g_callbacks.load(), async_correct ? "equal" : "DIFFER from");
  std::printf("simulated latency %.3f ms per inference, throughput %.1f inferences/s\n",
              static_cast<double>(latency_ms), kAsyncRuns * 1000.0 / static_cast<double>(total_ms));

#ifdef ACLSIM_ACL_EXT_H_
  size_t arena = 0;
  size_t total = 0;
  size_t lower = 0;
  CHECK(aclextModelGetMemoryPlan(model_id, &arena, &total, &lower));
  std::printf(
      "memory planner: %zu intermediate bytes share a %zu-byte arena (%.1f%% of their "
      "sum; lower bound %zu)\n",
      total, arena, 100.0 * static_cast<double>(arena) / static_cast<double>(total), lower);
#endif

  CHECK(aclrtUnSubscribeReport(static_cast<uint64_t>(reporter.native_handle()), stream));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(first));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclmdlDestroyDesc(desc));
  CHECK(aclmdlUnload(model_id));
  return correct && async_correct && g_callbacks.load() == kAsyncRuns ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 1;
  }
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  const int failed = Run(argv[1]);
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("model example: %s\n", failed == 0 ? "PASSED" : "FAILED");
  return failed;
}
