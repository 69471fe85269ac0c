#include "dfx/prof_lanes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace aclsim::dfx::prof::detail {
namespace {

constexpr const char* kEngineOrder[] = {"AI_CORE", "AI_VECTOR", "AI_CPU", "DMA"};

int EngineRank(const std::string& engine) {
  for (int i = 0; i < 4; ++i) {
    if (engine == kEngineOrder[i]) return i;
  }
  return 4;
}

// Task indexes ordered by start time, then task id (the submission order).
std::vector<size_t> ByStart(const Trace& trace) {
  std::vector<size_t> order(trace.tasks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&trace](size_t a, size_t b) {
    const TaskRecord& x = trace.tasks[a];
    const TaskRecord& y = trace.tasks[b];
    return std::tie(x.start_ns, x.task_id) < std::tie(y.start_ns, y.task_id);
  });
  return order;
}

}  // namespace

bool IsCopy(const TaskRecord& task) {
  return task.kind == "MEMCPY" || task.kind == "MEMCPY2D" || task.kind == "MEMSET";
}

bool IsEventTask(const TaskRecord& task) {
  return task.kind == "EVENT_RECORD" || task.kind == "EVENT_WAIT" || task.kind == "EVENT_RESET";
}

bool HasEngineLane(const std::string& engine) { return EngineRank(engine) < 4; }

std::string EngineLabel(const std::string& engine) {
  if (engine == "AI_CORE") return "AI Core";
  if (engine == "AI_VECTOR") return "AI Vector";
  if (engine == "AI_CPU") return "AI CPU";
  return engine;
}

std::string KernelTaskType(const std::string& engine) {
  return engine == "AI_VECTOR" ? "AI_VECTOR_CORE" : engine;
}

std::vector<uint32_t> DevicesOf(const Trace& trace) {
  std::set<uint32_t> devices;
  for (const TaskRecord& task : trace.tasks) devices.insert(task.device_id);
  for (const MemoryRecord& sample : trace.memory) devices.insert(sample.device_id);
  return {devices.begin(), devices.end()};
}

std::vector<Lane> BuildLanes(const Trace& trace) {
  // Keyed so that map order is the drawing order.
  std::map<std::pair<uint32_t, uint32_t>, Lane> streams;
  // (device, engine rank, engine) -> sub-lanes with the end of their last task.
  std::map<std::tuple<uint32_t, int, std::string>, std::vector<std::pair<Lane, uint64_t>>> engines;
  for (size_t index : ByStart(trace)) {
    const TaskRecord& task = trace.tasks[index];
    Lane& lane = streams[{task.device_id, task.stream_id}];
    if (lane.tasks.empty()) {
      lane.device_id = task.device_id;
      lane.stream_id = task.stream_id;
      lane.label = fmt::format("Stream {}", task.stream_id);
    }
    lane.tasks.push_back(index);
    if (!HasEngineLane(task.engine)) continue;
    auto& subs = engines[{task.device_id, EngineRank(task.engine), task.engine}];
    auto free = std::find_if(subs.begin(), subs.end(),
                             [&task](const auto& sub) { return sub.second <= task.start_ns; });
    if (free == subs.end()) {
      Lane sub;
      sub.device_id = task.device_id;
      sub.is_engine = true;
      sub.engine = task.engine;
      sub.sub = static_cast<uint32_t>(subs.size());
      sub.label = EngineLabel(task.engine);
      if (sub.sub > 0) sub.label += fmt::format(" {}", sub.sub + 1);
      subs.emplace_back(std::move(sub), 0);
      free = subs.end() - 1;
    }
    free->first.tasks.push_back(index);
    free->second = std::max(free->second, task.end_ns);
  }
  std::vector<Lane> lanes;
  for (uint32_t device : DevicesOf(trace)) {
    for (auto& [key, lane] : streams) {
      if (key.first == device) lanes.push_back(std::move(lane));
    }
    for (auto& [key, subs] : engines) {
      if (std::get<0>(key) != device) continue;
      for (auto& sub : subs) lanes.push_back(std::move(sub.first));
    }
  }
  return lanes;
}

Releases FindReleases(const Trace& trace) {
  const size_t n = trace.tasks.size();
  Releases releases{std::vector<int64_t>(n, -1), std::vector<bool>(n, false)};
  // (device, event) -> records by end time.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<size_t>> records;
  for (size_t i = 0; i < n; ++i) {
    const TaskRecord& task = trace.tasks[i];
    if (task.kind == "EVENT_RECORD") records[{task.device_id, task.event_id}].push_back(i);
  }
  for (auto& [key, list] : records) {
    std::stable_sort(list.begin(), list.end(), [&trace](size_t a, size_t b) {
      return std::tie(trace.tasks[a].end_ns, trace.tasks[a].task_id) <
             std::tie(trace.tasks[b].end_ns, trace.tasks[b].task_id);
    });
  }
  for (size_t i = 0; i < n; ++i) {
    const TaskRecord& wait = trace.tasks[i];
    if (wait.kind != "EVENT_WAIT") continue;
    auto it = records.find({wait.device_id, wait.event_id});
    if (it == records.end()) continue;
    const std::vector<size_t>& list = it->second;
    // The last record that ended at or before the wait started.
    auto after =
        std::upper_bound(list.begin(), list.end(), wait.start_ns,
                         [&trace](uint64_t t, size_t r) { return t < trace.tasks[r].end_ns; });
    if (after == list.begin()) continue;
    const size_t record = *(after - 1);
    releases.record[i] = static_cast<int64_t>(record);
    releases.exact[i] = trace.tasks[record].end_ns == wait.start_ns;
  }
  return releases;
}

std::string WaitCause(const Trace& trace, const Releases& releases, size_t task) {
  const TaskRecord& waiting = trace.tasks[task];
  if (waiting.kind == "EVENT_WAIT") {
    if (releases.record[task] < 0) return fmt::format("event {}", waiting.event_id);
    const TaskRecord& record = trace.tasks[static_cast<size_t>(releases.record[task])];
    return fmt::format("event {} recorded on stream {}", waiting.event_id, record.stream_id);
  }
  return "a busy " + EngineLabel(waiting.engine);
}

}  // namespace aclsim::dfx::prof::detail
