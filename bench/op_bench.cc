// Single ops through the public API, each next to a reference from the same run:
//   * host cost of aclopExecuteV2 on a cached small op (target <= 2 us) vs aclrtMemcpyAsync
//     enqueue of 4 KiB: the time of the call on the calling thread (each call timed; the
//     stream is synchronised every kSyncEvery calls, untimed). Also printed: the same loop's
//     wall time per call with the synchronisations, i.e. bounded by the simulated device
//     executing the ops on the host's other cores;
//   * functional MatMul fp32 1024^3 (aclopExecuteV2 + sync, wall time) vs the same Eigen
//     product called directly (target >= 0.8x the direct speed);
//   * functional Add of 16M fp32 (bytes moved per second) vs memcpy bandwidth.
//
//   op_bench [--benchmark_filter=...]   writes op_bench.json
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_report.h"

namespace {

constexpr int kSyncEvery = 256;

struct Op {
  std::vector<aclTensorDesc*> in_desc, out_desc;
  std::vector<aclDataBuffer*> in, out;
  std::vector<void*> device;
  aclopAttr* attr = nullptr;

  void AddTensor(bool input, aclDataType type, std::vector<int64_t> dims, size_t element) {
    size_t bytes = element;
    for (int64_t d : dims) bytes *= static_cast<size_t>(d);
    void* ptr = nullptr;
    if (aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemset(ptr, bytes, 0, bytes) != ACL_SUCCESS) {
      std::fprintf(stderr, "device memory: %s\n", aclGetRecentErrMsg());
      std::exit(1);
    }
    device.push_back(ptr);
    auto* desc =
        aclCreateTensorDesc(type, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND);
    (input ? in_desc : out_desc).push_back(desc);
    (input ? in : out).push_back(aclCreateDataBuffer(ptr, bytes));
  }
  aclError Run(const char* type, aclrtStream stream) {
    return aclopExecuteV2(type, static_cast<int>(in.size()), in_desc.data(), in.data(),
                          static_cast<int>(out.size()), out_desc.data(), out.data(), attr, stream);
  }
  ~Op() {
    for (auto* d : in_desc) aclDestroyTensorDesc(d);
    for (auto* d : out_desc) aclDestroyTensorDesc(d);
    for (auto* b : in) aclDestroyDataBuffer(b);
    for (auto* b : out) aclDestroyDataBuffer(b);
    for (void* p : device) aclrtFree(p);
    if (attr != nullptr) aclopDestroyAttr(attr);
  }
};

struct Fixture {
  aclrtStream stream = nullptr;
  Fixture() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
      std::fprintf(stderr, "setup failed: %s\n", aclGetRecentErrMsg());
      std::exit(1);
    }
  }
  ~Fixture() {
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
  }
};

Fixture& Acl() {
  static Fixture fixture;
  return fixture;
}

void Check(aclError err, const char* what) {
  if (err != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d %s\n", what, err, aclGetRecentErrMsg());
    std::exit(1);
  }
}

// Calls `enqueue` once per iteration, synchronising `stream` every kSyncEvery calls (so the
// queue stays bounded). `calls_only`: each iteration's time is the call's alone (manual time);
// otherwise the loop's wall time, synchronisations included.
template <typename Enqueue>
void EnqueueLoop(benchmark::State& state, aclrtStream stream, bool calls_only, Enqueue&& enqueue) {
  int n = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    enqueue();
    if (calls_only) {
      state.SetIterationTime(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (++n % kSyncEvery == 0) aclrtSynchronizeStream(stream);
  }
  aclrtSynchronizeStream(stream);
}

void MemcpyAsyncEnqueue(benchmark::State& state, bool calls_only) {
  Fixture& acl = Acl();
  void* device = nullptr;
  void* host = nullptr;
  Check(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc");
  Check(aclrtMallocHost(&host, 4096), "aclrtMallocHost");
  EnqueueLoop(state, acl.stream, calls_only, [&] {
    aclrtMemcpyAsync(device, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, acl.stream);
  });
  aclrtFree(device);
  aclrtFreeHost(host);
}

void ExecuteV2CachedSmallOp(benchmark::State& state, bool calls_only) {
  Fixture& acl = Acl();
  Op op;
  for (int i = 0; i < 2; ++i) op.AddTensor(true, ACL_FLOAT16, {16, 64}, 2);
  op.AddTensor(false, ACL_FLOAT16, {16, 64}, 2);
  Check(op.Run("Add", acl.stream), "Add (compile)");
  EnqueueLoop(state, acl.stream, calls_only, [&] { op.Run("Add", acl.stream); });
}

void BM_ReferenceMemcpyAsyncEnqueue(benchmark::State& state) { MemcpyAsyncEnqueue(state, true); }
BENCHMARK(BM_ReferenceMemcpyAsyncEnqueue)->UseManualTime();
void BM_ExecuteV2CachedSmallOp(benchmark::State& state) { ExecuteV2CachedSmallOp(state, true); }
BENCHMARK(BM_ExecuteV2CachedSmallOp)->UseManualTime();
void BM_ReferenceMemcpyAsyncWithSyncs(benchmark::State& state) { MemcpyAsyncEnqueue(state, false); }
BENCHMARK(BM_ReferenceMemcpyAsyncWithSyncs);
void BM_ReferenceExecuteV2WithSyncs(benchmark::State& state) {
  ExecuteV2CachedSmallOp(state, false);
}
BENCHMARK(BM_ReferenceExecuteV2WithSyncs);

constexpr int64_t kN = 1024;

void BM_MatMul1024Functional(benchmark::State& state) {
  Fixture& acl = Acl();
  Op op;
  op.AddTensor(true, ACL_FLOAT, {kN, kN}, 4);
  op.AddTensor(true, ACL_FLOAT, {kN, kN}, 4);
  op.AddTensor(false, ACL_FLOAT, {kN, kN}, 4);
  Check(op.Run("MatMul", acl.stream), "MatMul");
  Check(aclrtSynchronizeStream(acl.stream), "sync");
  for (auto _ : state) {
    op.Run("MatMul", acl.stream);
    aclrtSynchronizeStream(acl.stream);
  }
}
BENCHMARK(BM_MatMul1024Functional)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_ReferenceEigenGemm1024(benchmark::State& state) {
  Eigen::MatrixXf a = Eigen::MatrixXf::Random(kN, kN);
  Eigen::MatrixXf b = Eigen::MatrixXf::Random(kN, kN);
  Eigen::MatrixXf c(kN, kN);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
}
BENCHMARK(BM_ReferenceEigenGemm1024)->Unit(benchmark::kMillisecond)->Iterations(5);

constexpr int64_t k16M = int64_t{16} << 20;

void BM_Add16MFunctional(benchmark::State& state) {
  Fixture& acl = Acl();
  Op op;
  op.AddTensor(true, ACL_FLOAT, {k16M}, 4);
  op.AddTensor(true, ACL_FLOAT, {k16M}, 4);
  op.AddTensor(false, ACL_FLOAT, {k16M}, 4);
  Check(op.Run("Add", acl.stream), "Add");
  Check(aclrtSynchronizeStream(acl.stream), "sync");
  for (auto _ : state) {
    op.Run("Add", acl.stream);
    aclrtSynchronizeStream(acl.stream);
  }
}
BENCHMARK(BM_Add16MFunctional)->Unit(benchmark::kMillisecond)->Iterations(10);

void BM_ReferenceMemcpy64MiB(benchmark::State& state) {
  std::vector<char> src(k16M * 4, 1), dst(k16M * 4);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
  }
}
BENCHMARK(BM_ReferenceMemcpy64MiB)->Unit(benchmark::kMillisecond)->Iterations(10);

class RatioReporter : public aclsim::bench::TimesReporter {
 protected:
  void Summary() override {
    const double exec = TimeOf("BM_ExecuteV2CachedSmallOp");
    const double enqueue = TimeOf("BM_ReferenceMemcpyAsyncEnqueue");
    std::printf(
        "\naclopExecuteV2 (cached)  %8.0f ns vs aclrtMemcpyAsync %8.0f ns = %5.2fx   "
        "target <= 2000 ns: %s\n",
        exec, enqueue, exec / enqueue, exec <= 2000 ? "met" : "MISSED");
    const double exec_wall = TimeOf("BM_ReferenceExecuteV2WithSyncs");
    const double enqueue_wall = TimeOf("BM_ReferenceMemcpyAsyncWithSyncs");
    std::printf(
        "  (per call with the synchronisations, the device's execution included: "
        "%.0f ns vs %.0f ns)\n",
        exec_wall, enqueue_wall);
    const double mm = TimeOf("BM_MatMul1024Functional");
    const double eigen = TimeOf("BM_ReferenceEigenGemm1024");
    const double speed = mm > 0 ? eigen / mm : 0;
    std::printf(
        "MatMul fp32 1024^3       %8.1f ms vs Eigen directly %8.1f ms = %5.2fx the "
        "direct speed   target >= 0.8x: %s\n",
        mm, eigen, speed, speed >= 0.8 ? "met" : "MISSED");
    const double add = TimeOf("BM_Add16MFunctional");
    const double copy = TimeOf("BM_ReferenceMemcpy64MiB");
    // Both run in milliseconds (wall time): bytes moved / time.
    const double add_gbs = add > 0 ? 3.0 * k16M * 4 / (add * 1e-3) / 1e9 : 0;
    const double copy_gbs = copy > 0 ? 2.0 * k16M * 4 / (copy * 1e-3) / 1e9 : 0;
    std::printf("Add fp32 16M             %8.2f GB/s vs memcpy %8.2f GB/s = %5.2fx\n", add_gbs,
                copy_gbs, copy_gbs > 0 ? add_gbs / copy_gbs : 0);
  }
};

}  // namespace

int main(int argc, char** argv) {
  RatioReporter reporter;
  return aclsim::bench::RunBenchmarks(argc, argv, "op_bench.json", &reporter);
}
