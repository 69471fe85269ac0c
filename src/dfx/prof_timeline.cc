// msprof_<ts>.json: the run as Chrome trace events (JSON Object Format), for Perfetto and
// chrome://tracing. docs/profiling.md lists the tracks and events.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dfx/prof_lanes.h"
#include "dfx/prof_outputs.h"

namespace aclsim::dfx::prof::detail {
namespace {

using nlohmann::json;

constexpr uint64_t kDevicePidBase = 1000;
// Engine tracks of a device and the range tracks of host threads get tids above any
// stream id and OS thread id.
constexpr uint64_t kEngineTidBase = 1000000000;
constexpr uint64_t kRangeTidBase = 2000000000;

double Micros(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

class Writer {
 public:
  void Add(const json& event) {
    text_ += text_.empty() ? "{\"traceEvents\":[\n" : ",\n";
    text_ += event.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  // A metadata event: process_name / thread_name (args.name) or *_sort_index
  // (args.sort_index).
  void Meta(uint64_t pid, uint64_t tid, const std::string& what, json value) {
    const bool is_name = what == "process_name" || what == "thread_name";
    Add({{"name", what},
         {"ph", "M"},
         {"ts", 0},
         {"pid", pid},
         {"tid", tid},
         {"args", {{is_name ? "name" : "sort_index", std::move(value)}}}});
  }
  void Flow(uint64_t id, const char* name, uint64_t from_pid, uint64_t from_tid, uint64_t from_ns,
            uint64_t to_pid, uint64_t to_tid, uint64_t to_ns) {
    Add({{"name", name},
         {"cat", "flow"},
         {"ph", "s"},
         {"id", id},
         {"ts", Micros(from_ns)},
         {"pid", from_pid},
         {"tid", from_tid}});
    Add({{"name", name},
         {"cat", "flow"},
         {"ph", "f"},
         {"bp", "e"},
         {"id", id},
         {"ts", Micros(to_ns)},
         {"pid", to_pid},
         {"tid", to_tid}});
  }
  std::string Finish() {
    if (text_.empty()) text_ = "{\"traceEvents\":[";
    return text_ + "\n],\"displayTimeUnit\":\"ns\"}\n";
  }

 private:
  std::string text_;
};

json TaskArgs(const TaskRecord& task) {
  const double dur = static_cast<double>(DurNs(task));
  json args = {{"op name", task.op_name},
               {"task id", task.task_id},
               {"task kind", task.kind},
               {"engine", task.engine},
               {"stream id", task.stream_id},
               {"wait ns", WaitNs(task)},
               {"correlation id", task.correlation_id}};
  if (IsKernel(task)) {
    args["block dim"] = task.blocks;
    args["model id"] = task.model_id;
    args["flops"] = task.flops;
    args["cube utilization (%)"] = dur > 0 ? static_cast<double>(task.cube_ns) * 100.0 / dur : 0.0;
    args["vector utilization (%)"] =
        dur > 0 ? static_cast<double>(task.vector_ns) * 100.0 / dur : 0.0;
  }
  if (task.bytes > 0 || IsKernel(task) || IsCopy(task)) args["bytes"] = task.bytes;
  if (IsEventTask(task)) args["event id"] = task.event_id;
  if (task.failed) args["failed"] = true;
  return args;
}

uint64_t HostPid(const Trace& trace, const std::vector<uint32_t>& devices) {
  uint64_t pid = trace.info.pid == 0 ? 1 : trace.info.pid;
  const uint64_t last_device = devices.empty() ? 0 : devices.back();
  if (pid >= kDevicePidBase && pid <= kDevicePidBase + last_device) pid = kDevicePidBase - 1;
  return pid;
}

void HostEvents(const Trace& trace, uint64_t host, Writer& out) {
  out.Meta(host, 0, "process_name", "Host");
  out.Meta(host, 0, "process_sort_index", 0);
  // Threads in the order they first appear; their range tracks after them.
  std::map<uint64_t, size_t> threads;
  std::map<uint64_t, size_t> range_tracks;
  auto thread_seen = [&](uint64_t tid) {
    if (threads.count(tid) != 0) return;
    threads.emplace(tid, threads.size());
    out.Meta(host, tid, "thread_name", "Thread " + std::to_string(tid));
    out.Meta(host, tid, "thread_sort_index", 2 * threads.size());
  };
  for (const ApiRecord& api : trace.apis) {
    thread_seen(api.thread_id);
    out.Add({{"name", api.name},
             {"cat", "api"},
             {"ph", "X"},
             {"ts", Micros(api.start_ns)},
             {"dur", Micros(api.end_ns > api.start_ns ? api.end_ns - api.start_ns : 0)},
             {"pid", host},
             {"tid", api.thread_id},
             {"args", {{"correlation id", api.id}}}});
  }
  for (const MarkRecord& mark : trace.marks) {
    thread_seen(mark.thread_id);
    json args = {{"device id", mark.device_id}};
    if (mark.stream_id >= 0) args["stream id"] = mark.stream_id;
    if (!mark.range) {
      out.Add({{"name", mark.message},
               {"cat", "marker"},
               {"ph", "i"},
               {"s", "t"},
               {"ts", Micros(mark.start_ns)},
               {"pid", host},
               {"tid", mark.thread_id},
               {"args", args}});
      continue;
    }
    // Ranges on a track of their own: they need not nest with the API calls.
    auto [it, added] = range_tracks.emplace(mark.thread_id, range_tracks.size());
    const uint64_t tid = kRangeTidBase + it->second;
    if (added) {
      out.Meta(host, tid, "thread_name", "Ranges (thread " + std::to_string(mark.thread_id) + ")");
      out.Meta(host, tid, "thread_sort_index", 2 * threads[mark.thread_id] + 1);
    }
    out.Add({{"name", mark.message},
             {"cat", "range"},
             {"ph", "X"},
             {"ts", Micros(mark.start_ns)},
             {"dur", Micros(mark.end_ns > mark.start_ns ? mark.end_ns - mark.start_ns : 0)},
             {"pid", host},
             {"tid", tid},
             {"args", args}});
  }
}

uint64_t LaneTid(const Lane& lane) {
  if (!lane.is_engine) return lane.stream_id;
  const std::string engines[] = {"AI_CORE", "AI_VECTOR", "AI_CPU", "DMA"};
  const auto rank = static_cast<uint64_t>(std::find(engines, engines + 4, lane.engine) - engines);
  return kEngineTidBase + rank * 1000 + lane.sub;
}

void DeviceEvents(const Trace& trace, const std::vector<uint32_t>& devices, Writer& out) {
  const Releases releases = FindReleases(trace);
  for (uint32_t device : devices) {
    out.Meta(kDevicePidBase + device, 0, "process_name", "NPU " + std::to_string(device));
    out.Meta(kDevicePidBase + device, 0, "process_sort_index", 1 + device);
  }
  size_t order = 0;
  for (const Lane& lane : BuildLanes(trace)) {
    const uint64_t pid = kDevicePidBase + lane.device_id;
    const uint64_t tid = LaneTid(lane);
    out.Meta(pid, tid, "thread_name", lane.label);
    out.Meta(pid, tid, "thread_sort_index", order++);
    for (size_t index : lane.tasks) {
      const TaskRecord& task = trace.tasks[index];
      if (!lane.is_engine && WaitNs(task) > 0) {
        out.Add({{"name", "wait"},
                 {"cat", "wait"},
                 {"ph", "X"},
                 {"ts", Micros(task.ready_ns)},
                 {"dur", Micros(WaitNs(task))},
                 {"pid", pid},
                 {"tid", tid},
                 {"args", {{"task id", task.task_id}, {"on", WaitCause(trace, releases, index)}}}});
      }
      const char* cat = lane.is_engine ? "engine" : "task";
      if (IsEventTask(task)) {
        out.Add({{"name", task.kind},
                 {"cat", cat},
                 {"ph", "i"},
                 {"s", "t"},
                 {"ts", Micros(task.start_ns)},
                 {"pid", pid},
                 {"tid", tid},
                 {"args", TaskArgs(task)}});
      } else {
        out.Add({{"name", task.op_type},
                 {"cat", cat},
                 {"ph", "X"},
                 {"ts", Micros(task.start_ns)},
                 {"dur", Micros(DurNs(task))},
                 {"pid", pid},
                 {"tid", tid},
                 {"args", TaskArgs(task)}});
      }
    }
  }
  for (const MemoryRecord& sample : trace.memory) {
    out.Add({{"name", "Device memory"},
             {"ph", "C"},
             {"ts", Micros(sample.ns)},
             {"pid", kDevicePidBase + sample.device_id},
             {"tid", 0},
             {"args",
              {{"bytes in use", sample.bytes_in_use}, {"bytes reserved", sample.bytes_reserved}}}});
    // 1 - largest free block / free bytes: how split up the cached free memory is.
    out.Add({{"name", "Device memory fragmentation (%)"},
             {"ph", "C"},
             {"ts", Micros(sample.ns)},
             {"pid", kDevicePidBase + sample.device_id},
             {"tid", 0},
             {"args", {{"fragmentation", 100.0 * sample.fragmentation()}}}});
  }
}

// Arrows: API call -> each task it launched, event record -> the wait it released. An API
// call that launched one task uses its correlation id as the flow id; further tasks and the
// event arrows take ids above every correlation id (flow ids must be unique per arrow).
void FlowEvents(const Trace& trace, uint64_t host, Writer& out) {
  std::map<uint64_t, const ApiRecord*> apis;
  uint64_t next_id = 1;
  for (const ApiRecord& api : trace.apis) {
    apis.emplace(api.id, &api);
    next_id = std::max(next_id, api.id + 1);
  }
  std::map<uint64_t, bool> used;
  for (const TaskRecord& task : trace.tasks) {
    auto api = apis.find(task.correlation_id);
    if (task.correlation_id == 0 || api == apis.end()) continue;
    const uint64_t id = used[task.correlation_id] ? next_id++ : task.correlation_id;
    used[task.correlation_id] = true;
    out.Flow(id, "launch", host, api->second->thread_id, api->second->start_ns,
             kDevicePidBase + task.device_id, task.stream_id, task.start_ns);
  }
  const Releases releases = FindReleases(trace);
  for (size_t i = 0; i < trace.tasks.size(); ++i) {
    if (releases.record[i] < 0 || !releases.exact[i]) continue;
    const TaskRecord& wait = trace.tasks[i];
    const TaskRecord& record = trace.tasks[static_cast<size_t>(releases.record[i])];
    out.Flow(next_id++, "event", kDevicePidBase + record.device_id, record.stream_id,
             record.start_ns, kDevicePidBase + wait.device_id, wait.stream_id, wait.start_ns);
  }
}

}  // namespace

std::string TimelineJson(const Trace& trace) {
  Writer out;
  const std::vector<uint32_t> devices = DevicesOf(trace);
  const uint64_t host = HostPid(trace, devices);
  HostEvents(trace, host, out);
  DeviceEvents(trace, devices, out);
  FlowEvents(trace, host, out);
  return out.Finish();
}

}  // namespace aclsim::dfx::prof::detail
