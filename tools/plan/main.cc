// aclsim-plan: plans one arena for the buffers of a memory trace.
//
//   aclsim-plan TRACE.csv [--offsets OUT.csv] [--alignment N] [--search-nodes N]
//
// Reads the trace (tools/plan/trace_csv.h), runs the MemoryPlanner and, for comparison,
// TFLite's greedy-by-size planner, checks the plan and prints one JSON object:
//   {"buffers": n, "arena": bytes, "lower_bound": bytes, "total": bytes, "ratio": arena/lb,
//    "greedy_by_size": bytes, "strategy": "...", "ms": planner time, "greedy_ms": ...}
// --offsets writes "id,offset" for every buffer; --search-nodes bounds the planner's search
// (PlanOptions::search_nodes; 0 = heuristics only). Exit status: 0 on success, 1 on a usage
// error or a malformed trace (the message names the line), 2 if writing fails or the plan
// is invalid (a bug).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/guarded_main.h"
#include "core/memory_planner.h"
#include "tools/plan/trace_csv.h"

namespace {

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "aclsim-plan: %s\n", message.c_str());
  return code;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  CLI::App app{"Plans one memory arena for the buffers of a trace (id,lower,upper,size)."};
  std::string trace_path, offsets_path;
  uint64_t alignment = 1;
  uint64_t search_nodes = aclsim::core::PlanOptions{}.search_nodes;
  app.add_option("trace", trace_path, "trace CSV: id,lower,upper,size per buffer")->required();
  app.add_option("--offsets", offsets_path, "write id,offset for every buffer to this file");
  app.add_option("--alignment", alignment, "offset alignment in bytes (a power of two)")
      ->check(CLI::PositiveNumber);
  app.add_option("--search-nodes", search_nodes,
                 "work bound of the search in nodes (0 = heuristic orderings only)");
  CLI11_PARSE(app, argc, argv);

  auto buffers = aclsim::plan::ReadTraceFile(trace_path);
  if (!buffers.ok()) return Fail(1, buffers.status().message());

  aclsim::core::PlanOptions options;
  options.alignment = alignment;
  options.search_nodes = search_nodes;
  auto start = std::chrono::steady_clock::now();
  auto plan = aclsim::core::PlanMemory(*buffers, options);
  const double ms = MsSince(start);
  if (!plan.ok()) return Fail(1, plan.status().message());
  start = std::chrono::steady_clock::now();
  auto greedy = aclsim::core::GreedyBySize(*buffers, alignment);
  const double greedy_ms = MsSince(start);
  if (!greedy.ok()) return Fail(1, greedy.status().message());
  const aclsim::Status valid = aclsim::core::ValidatePlan(*buffers, plan->offsets);
  if (!valid.ok()) return Fail(2, "invalid plan: " + valid.message());

  if (!offsets_path.empty()) {
    std::ofstream out(offsets_path);
    aclsim::plan::WriteOffsets(out, *buffers, plan->offsets);
    out.close();
    if (!out) return Fail(2, offsets_path + ": cannot write");
  }
  const double ratio = plan->lower_bound == 0 ? 1.0
                                              : static_cast<double>(plan->arena) /
                                                    static_cast<double>(plan->lower_bound);
  const nlohmann::ordered_json report = {
      {"trace", trace_path},
      {"buffers", buffers->size()},
      {"alignment", alignment},
      {"arena", plan->arena},
      {"lower_bound", plan->lower_bound},
      {"total", plan->total},
      {"ratio", ratio},
      {"greedy_by_size", greedy->arena},
      {"strategy", plan->strategy},
      {"ms", ms},
      {"greedy_ms", greedy_ms},
  };
  std::cout << report.dump() << '\n';
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("aclsim-plan", 1, [&] { return RunTool(argc, argv); });
}
