// summary_<ts>.txt: a short text account of a run (SummaryText).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "dfx/prof_export.h"
#include "dfx/prof_format.h"
#include "dfx/prof_lanes.h"

namespace aclsim::dfx::prof {
namespace {

using detail::DurNs;
using detail::Us;
using detail::WaitNs;

struct StreamFacts {
  uint64_t busy = 0;
  uint64_t wait = 0;
  size_t tasks = 0;
  std::map<std::string, uint64_t> wait_by_cause;
};

void AppendTopOps(const Trace& trace, std::string& text) {
  std::map<std::string, std::pair<size_t, uint64_t>> ops;  // type -> (count, total ns)
  uint64_t kernel_total = 0;
  for (const TaskRecord& task : trace.tasks) {
    if (!detail::IsKernel(task)) continue;
    auto& [count, total] = ops[task.op_type];
    ++count;
    total += DurNs(task);
    kernel_total += DurNs(task);
  }
  std::vector<std::pair<std::string, std::pair<size_t, uint64_t>>> rows(ops.begin(), ops.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  if (rows.size() > 10) rows.resize(10);
  text += fmt::format("\nTop {} ops by total time:\n", rows.size());
  text += fmt::format("  {:<24} {:>7} {:>14} {:>8}\n", "OP Type", "Count", "Total(us)", "%");
  for (const auto& [type, stat] : rows) {
    text += fmt::format(
        "  {:<24} {:>7} {:>14} {:>8}\n", type, stat.first, Us(stat.second),
        detail::Percent(static_cast<double>(stat.second), static_cast<double>(kernel_total)));
  }
}

}  // namespace

std::string SummaryText(const Trace& trace) {
  const RunInfo& info = trace.info;
  std::string text = "aclsim profiling summary\n";
  text += fmt::format("SoC: {}  pid: {}  command: {}  started: {}\n",
                      info.soc_version.empty() ? "-" : info.soc_version, info.pid,
                      info.command.empty() ? "-" : info.command,
                      info.start_time.empty() ? "-" : info.start_time);
  const std::vector<uint32_t> devices = detail::DevicesOf(trace);
  const size_t kernels =
      static_cast<size_t>(std::count_if(trace.tasks.begin(), trace.tasks.end(), detail::IsKernel));
  text += fmt::format("{} tasks ({} kernels) on {} device(s); {} API calls; {} markers/ranges\n",
                      trace.tasks.size(), kernels, devices.size(), trace.apis.size(),
                      trace.marks.size());
  if (trace.tasks.empty()) return text + "No device tasks.\n";

  uint64_t first = UINT64_MAX;
  uint64_t last = 0;
  for (const TaskRecord& task : trace.tasks) {
    first = std::min(first, std::min(task.ready_ns, task.start_ns));
    last = std::max(last, task.end_ns);
  }
  text += fmt::format("Device time span: {} us (from {} us to {} us)\n",
                      Us(last > first ? last - first : 0), Us(first), Us(last));
  AppendTopOps(trace, text);

  const detail::Releases releases = detail::FindReleases(trace);
  std::map<std::pair<uint32_t, uint32_t>, StreamFacts> streams;  // (device, stream)
  for (size_t i = 0; i < trace.tasks.size(); ++i) {
    const TaskRecord& task = trace.tasks[i];
    StreamFacts& facts = streams[{task.device_id, task.stream_id}];
    facts.busy += DurNs(task);
    facts.wait += WaitNs(task);
    ++facts.tasks;
    if (WaitNs(task) > 0)
      facts.wait_by_cause[detail::WaitCause(trace, releases, i)] += WaitNs(task);
  }
  auto stream_name = [&devices](const std::pair<uint32_t, uint32_t>& key) {
    return devices.size() > 1 ? fmt::format("Device {} Stream {}", key.first, key.second)
                              : fmt::format("Stream {}", key.second);
  };
  text += "\nStreams:\n";
  text +=
      fmt::format("  {:<20} {:>14} {:>14} {:>7}\n", "Stream", "Busy(us)", "Waiting(us)", "Tasks");
  const std::pair<const std::pair<uint32_t, uint32_t>, StreamFacts>* most = nullptr;
  for (const auto& entry : streams) {
    const StreamFacts& facts = entry.second;
    text += fmt::format("  {:<20} {:>14} {:>14} {:>7}\n", stream_name(entry.first), Us(facts.busy),
                        Us(facts.wait), facts.tasks);
    if (facts.wait > 0 && (most == nullptr || facts.wait > most->second.wait)) most = &entry;
  }
  if (most == nullptr) return text + "\nNo stream waited.\n";
  const auto cause =
      std::max_element(most->second.wait_by_cause.begin(), most->second.wait_by_cause.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  text += fmt::format("\nThe stream that waited most: {}, {} us, mostly on {}\n",
                      stream_name(most->first), Us(most->second.wait), cause->first);
  return text;
}

}  // namespace aclsim::dfx::prof
