// The CSV files of a run: op_summary, task_time, op_statistic, api_statistic
// (docs/profiling.md lists their columns). Times in microseconds with three decimals.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "dfx/prof_format.h"
#include "dfx/prof_lanes.h"
#include "dfx/prof_outputs.h"

namespace aclsim::dfx::prof::detail {
namespace {

// Tasks (optionally kernels only) by start time, then device and task id.
std::vector<const TaskRecord*> SortedTasks(const Trace& trace, bool kernels_only) {
  std::vector<const TaskRecord*> tasks;
  for (const TaskRecord& task : trace.tasks) {
    if (!kernels_only || IsKernel(task)) tasks.push_back(&task);
  }
  std::stable_sort(tasks.begin(), tasks.end(), [](const TaskRecord* a, const TaskRecord* b) {
    return std::tie(a->start_ns, a->device_id, a->task_id) <
           std::tie(b->start_ns, b->device_id, b->task_id);
  });
  return tasks;
}

// Count, total, min and max of durations in ns.
struct Stat {
  uint64_t count = 0;
  uint64_t total = 0;
  uint64_t min = 0;
  uint64_t max = 0;
  void Add(uint64_t ns) {
    min = count == 0 ? ns : std::min(min, ns);
    max = std::max(max, ns);
    total += ns;
    ++count;
  }
  std::string Avg() const {
    return UsOf(count > 0 ? static_cast<double>(total) / static_cast<double>(count) : 0.0);
  }
};

// Groups by key, sorted by total time (descending), then key.
template <typename Key>
std::vector<std::pair<Key, Stat>> ByTotal(const std::map<Key, Stat>& stats) {
  std::vector<std::pair<Key, Stat>> rows(stats.begin(), stats.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  return rows;
}

}  // namespace

std::string OpSummaryCsv(const Trace& trace) {
  std::string csv =
      CsvRow({"Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "Task Type",
              "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Dim",
              "Bytes Moved", "Cube Utilization(%)", "Vector Utilization(%)"});
  for (const TaskRecord* task : SortedTasks(trace, true)) {
    const auto dur = static_cast<double>(DurNs(*task));
    csv += CsvRow({std::to_string(task->device_id), std::to_string(task->model_id),
                   std::to_string(task->task_id), std::to_string(task->stream_id), task->op_name,
                   task->op_type, KernelTaskType(task->engine), Us(task->start_ns),
                   Us(DurNs(*task)), Us(WaitNs(*task)), std::to_string(task->blocks),
                   std::to_string(task->bytes), Percent(static_cast<double>(task->cube_ns), dur),
                   Percent(static_cast<double>(task->vector_ns), dur)});
  }
  return csv;
}

std::string TaskTimeCsv(const Trace& trace) {
  std::string csv = CsvRow({"Device_id", "Stream ID", "Task ID", "Task Type", "Engine", "Op Name",
                            "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)"});
  for (const TaskRecord* task : SortedTasks(trace, false)) {
    csv += CsvRow({std::to_string(task->device_id), std::to_string(task->stream_id),
                   std::to_string(task->task_id), task->kind, task->engine, task->op_name,
                   Us(task->start_ns), Us(DurNs(*task)), Us(WaitNs(*task))});
  }
  return csv;
}

std::string OpStatisticCsv(const Trace& trace) {
  std::map<std::pair<std::string, std::string>, Stat> stats;  // (op type, core type)
  uint64_t kernel_total = 0;
  for (const TaskRecord& task : trace.tasks) {
    if (!IsKernel(task)) continue;
    stats[{task.op_type, KernelTaskType(task.engine)}].Add(DurNs(task));
    kernel_total += DurNs(task);
  }
  std::string csv = CsvRow({"OP Type", "Core Type", "Count", "Total Time(us)", "Avg Time(us)",
                            "Min Time(us)", "Max Time(us)", "Ratio(%)"});
  for (const auto& [key, stat] : ByTotal(stats)) {
    csv += CsvRow({key.first, key.second, std::to_string(stat.count), Us(stat.total), stat.Avg(),
                   Us(stat.min), Us(stat.max),
                   Percent(static_cast<double>(stat.total), static_cast<double>(kernel_total))});
  }
  return csv;
}

std::string ApiStatisticCsv(const Trace& trace) {
  std::map<std::string, Stat> stats;
  for (const ApiRecord& api : trace.apis) {
    stats[api.name].Add(api.end_ns > api.start_ns ? api.end_ns - api.start_ns : 0);
  }
  std::string csv = CsvRow(
      {"API Name", "Count", "Total Time(us)", "Avg Time(us)", "Min Time(us)", "Max Time(us)"});
  for (const auto& [name, stat] : ByTotal(stats)) {
    csv += CsvRow(
        {name, std::to_string(stat.count), Us(stat.total), stat.Avg(), Us(stat.min), Us(stat.max)});
  }
  return csv;
}

}  // namespace aclsim::dfx::prof::detail
