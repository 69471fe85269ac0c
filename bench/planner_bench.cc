// planner_bench: the MemoryPlanner's figures (issue 6, items 3 and 8) on the shared traces
// (tests/data/memory-traces) and on a synthetic 20,000-buffer trace with a fixed seed:
// arena / lower bound of our plan beside greedy by size (TFLite) and no reuse (the sum of
// sizes), and the time per trace of both planners measured in the same run. Written as JSON
// (argv[1], default planner_bench.json).
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/figures.h"
#include "core/memory_planner.h"
#include "tools/plan/trace_csv.h"

namespace {

using aclsim::core::PlanBuffer;

aclsim::bench::Figures g_figures;

template <typename Fn>
double TimeMs(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// A model-like trace: weights live throughout, activations for a few steps, a few skip
// connections for many; sizes from a handful of tensor shapes.
std::vector<PlanBuffer> SyntheticTrace(size_t count) {
  std::mt19937_64 rng(20240601);
  const uint64_t shapes[] = {4096, 65536, 1 << 20, 3 << 20, 4 << 20, 16 << 20, 40 << 20};
  std::uniform_int_distribution<size_t> shape(0, std::size(shapes) - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  std::vector<PlanBuffer> buffers;
  const auto steps = static_cast<int64_t>(count);
  for (size_t i = 0; i < count; ++i) {
    PlanBuffer b;
    b.id = static_cast<int64_t>(i);
    b.size = shapes[shape(rng)];
    const int kind = percent(rng);
    const auto at = static_cast<int64_t>(i);
    if (kind < 2) {  // weights
      b.lower = 0;
      b.upper = steps + 1;
    } else if (kind < 12) {  // skip connections
      b.lower = at;
      b.upper = at + 1 + static_cast<int64_t>(rng() % 2000);
    } else {  // activations and workspaces
      b.lower = at;
      b.upper = at + 1 + static_cast<int64_t>(rng() % 8);
    }
    buffers.push_back(b);
  }
  return buffers;
}

void Measure(const std::string& name, const std::vector<PlanBuffer>& buffers, bool challenging) {
  aclsim::Result<aclsim::core::Plan> plan = aclsim::Status::Ok();
  aclsim::Result<aclsim::core::Plan> greedy = aclsim::Status::Ok();
  const double ms = TimeMs([&] { plan = aclsim::core::PlanMemory(buffers); });
  const double greedy_ms = TimeMs([&] { greedy = aclsim::core::GreedyBySize(buffers); });
  if (!plan.ok() || !greedy.ok()) {
    fmt::print("{}: {}\n", name, plan.ok() ? greedy.status().message() : plan.status().message());
    g_figures.Report(name + ": planned", 0, "", "plans", false);
    return;
  }
  const bool valid = aclsim::core::ValidatePlan(buffers, plan->offsets).ok();
  const auto lb = static_cast<double>(plan->lower_bound);
  const double ours = 100.0 * static_cast<double>(plan->arena) / lb;  // % of the bound
  const double theirs = 100.0 * static_cast<double>(greedy->arena) / lb;
  fmt::print("{} ({} buffers, best: {})\n", name, buffers.size(), plan->strategy);
  if (challenging) {
    g_figures.Report(name + ": arena / lower bound", ours, "%", "< greedy, ideally 100",
                     valid && ours < theirs);
  } else {
    g_figures.Report(name + ": arena / lower bound", ours, "%", "<= 100.5", valid && ours <= 100.5);
  }
  g_figures.Reference(name + ": greedy by size / lower bound", theirs, "%");
  g_figures.Reference(name + ": no reuse / lower bound",
                      100.0 * static_cast<double>(plan->total) / lb, "%");
  if (buffers.size() >= 10000) {
    g_figures.Report(name + ": planner time", ms, "ms", "<= 100", ms <= 100);
  } else {
    g_figures.Reference(name + ": planner time", ms, "ms");
  }
  g_figures.Reference(name + ": greedy by size time", greedy_ms, "ms");
}

}  // namespace

int main(int argc, char** argv) {
  fmt::print("aclsim MemoryPlanner: arena / lower bound and time per trace\n");
  const std::string dir = ACLSIM_TRACE_DIR;
  for (const char* file : {"somas/resnet50.csv", "somas/tiny_bert.csv", "somas/bert_base.csv",
                           "somas/pangu_2.6B.csv"}) {
    auto buffers = aclsim::plan::ReadTraceFile(dir + "/" + file);
    if (!buffers.ok()) {
      fmt::print(stderr, "planner_bench: {}\n", buffers.status().message());
      return 1;
    }
    Measure(file, *buffers, false);
  }
  for (const char* file : {"A", "B", "C", "D", "E", "F"}) {
    const std::string path = fmt::format("{}/challenging/{}.1048576.csv", dir, file);
    auto buffers = aclsim::plan::ReadTraceFile(path);
    if (!buffers.ok()) {
      fmt::print(stderr, "planner_bench: {}\n", buffers.status().message());
      return 1;
    }
    Measure(fmt::format("challenging/{}", file), *buffers, true);
  }
  Measure("synthetic 20k", SyntheticTrace(20000), false);
  g_figures.WriteJson(argc > 1 ? argv[1] : "planner_bench.json", "planner", "aclsim");
  return g_figures.AllPass() ? 0 : 1;
}
