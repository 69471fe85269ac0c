// malloc_bench: host cost of aclrtMalloc + aclrtFree pairs on cached sizes (issue 4), as p50
// and p99 per pair, next to glibc malloc/free and jemalloc measured in the same run. jemalloc
// cannot be dlopen'ed (static TLS), so the program runs itself once more with
// LD_PRELOAD=libjemalloc.so.2 (package libjemalloc2) to measure malloc/free there. Writes
// JSON (argv[1], default malloc_bench.json).
//
// Pairs are timed in batches of kBatch (a clock read costs about as much as a pair); the
// percentiles are over the batches' per-pair means.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "acl/acl.h"
#include "bench/figures.h"

namespace {

constexpr int kBatch = 16;
constexpr int kBatches = 20000;
constexpr size_t kSizes[] = {512, 64 << 10, 512 << 10};

aclsim::bench::Figures g_figures;

struct Percentiles {
  double p50, p99;
};

template <typename Pair>
Percentiles Measure(Pair&& pair) {
  for (int i = 0; i < 2000; ++i) pair();  // warm the caches
  std::vector<double> per_pair(kBatches);
  for (double& x : per_pair) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatch; ++i) pair();
    const auto end = std::chrono::steady_clock::now();
    x = std::chrono::duration<double, std::nano>(end - start).count() / kBatch;
  }
  std::sort(per_pair.begin(), per_pair.end());
  return {per_pair[kBatches / 2], per_pair[kBatches * 99 / 100]};
}

Percentiles MeasureHostMalloc(size_t size) {
  return Measure([size] {
    void* p = std::malloc(size);
    asm volatile("" : : "r"(p) : "memory");
    std::free(p);
  });
}

constexpr const char* kChildEnv = "ACLSIM_MALLOC_BENCH_HOST_ONLY";

// Runs this program under jemalloc: size -> percentiles (empty if jemalloc is missing).
std::map<size_t, Percentiles> MeasureJemalloc() {
  std::map<size_t, Percentiles> out;
  const std::string command =
      fmt::format("{}=1 LD_PRELOAD=libjemalloc.so.2 /proc/{}/exe 2>/dev/null", kChildEnv, getpid());
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  size_t size = 0;
  Percentiles p{};
  while (std::fscanf(pipe, "%zu %lf %lf", &size, &p.p50, &p.p99) == 3) out[size] = p;
  pclose(pipe);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv(kChildEnv) != nullptr) {  // the jemalloc run: host malloc/free only
    if (std::getenv("LD_PRELOAD") == nullptr) return 1;
    for (size_t size : kSizes) {
      const Percentiles p = MeasureHostMalloc(size);
      std::printf("%zu %.3f %.3f\n", size, p.p50, p.p99);
    }
    return 0;
  }
  const std::map<size_t, Percentiles> jemalloc = MeasureJemalloc();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    fmt::print(stderr, "malloc_bench: aclInit/aclrtSetDevice failed: {}\n", aclGetRecentErrMsg());
    return 1;
  }
  fmt::print("aclrtMalloc + aclrtFree pairs on cached sizes (host time per pair)\n");
  for (size_t size : kSizes) {
    void* sink = nullptr;
    const Percentiles acl = Measure([&] {
      (void)aclrtMalloc(&sink, size, ACL_MEM_MALLOC_HUGE_FIRST);
      (void)aclrtFree(sink);
    });
    const Percentiles glibc = MeasureHostMalloc(size);
    const std::string label = fmt::format("{} B", size);
    g_figures.Report("aclrtMalloc+aclrtFree " + label + ": p50", acl.p50, "ns", "<= 50",
                     acl.p50 <= 50);
    g_figures.Reference("aclrtMalloc+aclrtFree " + label + ": p99", acl.p99, "ns");
    g_figures.Reference("  glibc malloc+free: p50", glibc.p50, "ns");
    g_figures.Reference("  glibc malloc+free: p99", glibc.p99, "ns");
    if (auto je = jemalloc.find(size); je != jemalloc.end()) {
      g_figures.Reference("  jemalloc malloc+free: p50", je->second.p50, "ns");
      g_figures.Reference("  jemalloc malloc+free: p99", je->second.p99, "ns");
    } else {
      fmt::print("  (jemalloc not installed: apt-get install libjemalloc2)\n");
    }
  }
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  g_figures.WriteJson(argc > 1 ? argv[1] : "malloc_bench.json", "device", "sim Ascend910B2");
  return 0;
}
