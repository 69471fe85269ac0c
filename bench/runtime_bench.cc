// Runtime hot paths through the public API, each next to a reference measured in the same
// run: task enqueue (aclrtMemcpyAsync, aclrtRecordEvent) against a mutex-protected deque
// push/pop, device malloc/free against host malloc/free.
//
//   runtime_bench [--benchmark_filter=...]    prints "name: X ns vs reference Y ns = ratio"
// and writes runtime_bench.json (Google Benchmark JSON) into the working directory.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_report.h"

namespace {

constexpr size_t kCopyBytes = 4096;
constexpr int kSyncEvery = 256;

struct Fixture {
  aclrtStream stream = nullptr;
  void* device = nullptr;
  void* host = nullptr;
  Fixture() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtMalloc(&device, kCopyBytes, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS ||
        aclrtMallocHost(&host, kCopyBytes) != ACL_SUCCESS) {
      std::fprintf(stderr, "setup failed: %s\n", aclGetRecentErrMsg());
      std::exit(1);
    }
  }
  ~Fixture() {
    aclrtFreeHost(host);
    aclrtFree(device);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
  }
};

Fixture& Acl() {
  static Fixture fixture;
  return fixture;
}

// Reference for enqueue: the least a task queue does (lock, push a task-sized record, and a
// consumer popping in batches).
void BM_ReferenceQueuePush(benchmark::State& state) {
  struct Record {
    char bytes[128];
  };
  std::mutex mu;
  std::deque<Record> queue;
  Record record{};
  int n = 0;
  for (auto _ : state) {
    {
      std::lock_guard<std::mutex> lock(mu);
      queue.push_back(record);
    }
    if (++n % kSyncEvery == 0) {
      std::lock_guard<std::mutex> lock(mu);
      queue.clear();
    }
  }
}
BENCHMARK(BM_ReferenceQueuePush);

void BM_MemcpyAsyncEnqueue(benchmark::State& state) {
  Fixture& acl = Acl();
  int n = 0;
  for (auto _ : state) {
    aclrtMemcpyAsync(acl.device, kCopyBytes, acl.host, kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE,
                     acl.stream);
    if (++n % kSyncEvery == 0) aclrtSynchronizeStream(acl.stream);
  }
  aclrtSynchronizeStream(acl.stream);
}
BENCHMARK(BM_MemcpyAsyncEnqueue);

void BM_RecordEventEnqueue(benchmark::State& state) {
  Fixture& acl = Acl();
  aclrtEvent event = nullptr;
  aclrtCreateEvent(&event);
  int n = 0;
  for (auto _ : state) {
    aclrtRecordEvent(event, acl.stream);
    if (++n % kSyncEvery == 0) aclrtSynchronizeStream(acl.stream);
  }
  aclrtSynchronizeStream(acl.stream);
  aclrtDestroyEvent(event);
}
BENCHMARK(BM_RecordEventEnqueue);

void BM_ReferenceHostMallocFree(benchmark::State& state) {
  for (auto _ : state) {
    void* p = std::malloc(64 << 10);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}
BENCHMARK(BM_ReferenceHostMallocFree);

void BM_DeviceMallocFree(benchmark::State& state) {
  Acl();
  for (auto _ : state) {
    void* p = nullptr;
    aclrtMalloc(&p, 64 << 10, ACL_MEM_MALLOC_NORMAL_ONLY);
    benchmark::DoNotOptimize(p);
    aclrtFree(p);
  }
}
BENCHMARK(BM_DeviceMallocFree);

// Which reference each figure is compared with.
const std::map<std::string, std::string> kReferenceOf = {
    {"BM_MemcpyAsyncEnqueue", "BM_ReferenceQueuePush"},
    {"BM_RecordEventEnqueue", "BM_ReferenceQueuePush"},
    {"BM_DeviceMallocFree", "BM_ReferenceHostMallocFree"},
};

class RatioReporter : public aclsim::bench::TimesReporter {
 protected:
  void Summary() override {
    std::printf("\nratios (lower is better):\n");
    for (const auto& [name, reference] : kReferenceOf) {
      const double value = TimeOf(name);
      const double ref = TimeOf(reference);
      if (value == 0 || ref == 0) continue;
      std::printf("  %-24s %10.1f ns vs %-28s %10.1f ns = %6.2fx\n", name.c_str(), value,
                  reference.c_str(), ref, value / ref);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  RatioReporter reporter;
  return aclsim::bench::RunBenchmarks(argc, argv, "runtime_bench.json", &reporter);
}
