// OpCache hot paths (src/core/op_cache.h) against references measured in the same run:
//   * a hit lookup of a prepared key vs std::unordered_map<std::string, ...>::find of the same
//     key (target: <= 200 ns);
//   * building the key of a small op call (what every aclopExecuteV2 pays before the lookup);
//   * the hit rate of a fixed-shape loop (target >= 99%) and of a loop over 8 shapes.
//
//   op_cache_bench [--benchmark_filter=...]   writes op_cache_bench.json
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/bench_report.h"
#include "core/op_cache.h"
#include "ops/op_library.h"

namespace {

namespace driver = aclsim::driver;
namespace ops = aclsim::ops;

ops::OpCall AddCall(int64_t n) {
  ops::OpCall call;
  call.type = "Add";
  ops::TensorDesc desc;
  desc.dtype = ops::DataType::kFloat16;
  desc.dims = {n, 64};
  call.inputs = {desc, desc};
  call.outputs = {desc};
  return call;
}

driver::DeviceProps Props() {
  driver::DeviceProps props;
  props.aicore_num = 24;
  props.vector_core_num = 48;
  props.ub_bytes = 192 * 1024;
  return props;
}

aclsim::core::OpCache::CompileFn CompileOf(const ops::OpCall& call) {
  return [call]() { return aclsim::ops::OpLibrary::Builtin().Compile(call, Props()); };
}

void BM_ReferenceUnorderedMapFind(benchmark::State& state) {
  const std::string key = aclsim::core::OpCacheKey(AddCall(16), true);
  std::unordered_map<std::string, int> map;
  for (int i = 0; i < 64; ++i) map[key + std::to_string(i)] = i;
  map[key] = -1;
  for (auto _ : state) benchmark::DoNotOptimize(map.find(key));
}
BENCHMARK(BM_ReferenceUnorderedMapFind);

void BM_OpCacheHitLookup(benchmark::State& state) {
  aclsim::core::OpCache cache(0);
  aclsim::core::OpCacheOutcome outcome;
  for (int i = 1; i <= 64; ++i) {
    const auto call = AddCall(i);
    (void)cache.GetOrCompile(
        aclsim::core::OpCacheKey(call, true),
        [&call] { return aclsim::core::OpCacheKey(call, false); }, CompileOf(call), &outcome);
  }
  const std::string key = aclsim::core::OpCacheKey(AddCall(16), true);
  for (auto _ : state) benchmark::DoNotOptimize(cache.Find(key));
}
BENCHMARK(BM_OpCacheHitLookup);

void BM_OpCacheKeyBuild(benchmark::State& state) {
  const auto call = AddCall(16);
  for (auto _ : state) benchmark::DoNotOptimize(aclsim::core::OpCacheKey(call, true));
}
BENCHMARK(BM_OpCacheKeyBuild);

// Hit rate of a loop of `iterations` executions cycling through `shapes` shapes.
double HitRate(int iterations, int shapes, uint64_t* incremental) {
  aclsim::core::OpCache cache(aclsim::core::OpCache::MaxBytesFromEnv());
  aclsim::core::OpCacheOutcome outcome;
  for (int i = 0; i < iterations; ++i) {
    const auto call = AddCall(1 + i % shapes);
    (void)cache.GetOrCompile(
        aclsim::core::OpCacheKey(call, true),
        [&call] { return aclsim::core::OpCacheKey(call, false); }, CompileOf(call), &outcome);
  }
  const auto stats = cache.stats();
  *incremental = stats.incremental;
  return static_cast<double>(stats.hits) /
         static_cast<double>(stats.hits + stats.misses + stats.incremental);
}

class RatioReporter : public aclsim::bench::TimesReporter {
 protected:
  void Summary() override {
    const double hit = TimeOf("BM_OpCacheHitLookup");
    const double ref = TimeOf("BM_ReferenceUnorderedMapFind");
    std::printf(
        "\nOpCache hit lookup      %8.1f ns vs unordered_map::find %8.1f ns = %5.2fx"
        "   target <= 200 ns: %s\n",
        hit, ref, hit / ref, hit <= 200 ? "met" : "MISSED");
    std::printf("OpCache key build       %8.1f ns (small op, 2 inputs + 1 output)\n",
                TimeOf("BM_OpCacheKeyBuild"));
    uint64_t incremental = 0;
    const double fixed = HitRate(10000, 1, &incremental);
    std::printf("hit rate, fixed shape   %8.4f%% over 10000 executions   target >= 99%%: %s\n",
                fixed * 100, fixed >= 0.99 ? "met" : "MISSED");
    const double cycling = HitRate(10000, 8, &incremental);
    std::printf(
        "hit rate, 8 shapes      %8.4f%% over 10000 executions (%llu incremental "
        "compiles: binary reused, tiling recomputed)\n",
        cycling * 100, static_cast<unsigned long long>(incremental));
  }
};

}  // namespace

int main(int argc, char** argv) {
  RatioReporter reporter;
  return aclsim::bench::RunBenchmarks(argc, argv, "op_cache_bench.json", &reporter);
}
