// What the profiling outputs share: task classes, the device lanes (one per stream and per
// engine, as drawn by msprof_<ts>.json and timeline_<ts>.svg) and which event record
// released each event wait. Internal to aclsim_dfx.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dfx/prof_records.h"

namespace aclsim::dfx::prof::detail {

inline uint64_t DurNs(const TaskRecord& task) {
  return task.end_ns > task.start_ns ? task.end_ns - task.start_ns : 0;
}
// start - ready: the time the task waited (for an event record or a free engine).
inline uint64_t WaitNs(const TaskRecord& task) {
  return task.start_ns > task.ready_ns ? task.start_ns - task.ready_ns : 0;
}
inline bool IsKernel(const TaskRecord& task) { return task.kind == "KERNEL"; }
// Copies and memsets (DMA work).
bool IsCopy(const TaskRecord& task);
// EVENT_RECORD, EVENT_WAIT, EVENT_RESET: drawn as instants.
bool IsEventTask(const TaskRecord& task);
// The engines that get a lane of their own: AI_CORE, AI_VECTOR, AI_CPU, DMA.
bool HasEngineLane(const std::string& engine);
// "AI Core", "AI Vector", "AI CPU", "DMA"; other engines as they are.
std::string EngineLabel(const std::string& engine);
// op_summary's Task Type: AI_CORE, AI_VECTOR_CORE, AI_CPU; other engines as they are.
std::string KernelTaskType(const std::string& engine);

// One horizontal track of a device: a stream, or an engine. Tasks of one engine that overlap
// in time (two DMA copies at once) go to numbered sub-lanes ("DMA", "DMA 2").
struct Lane {
  uint32_t device_id = 0;
  bool is_engine = false;
  uint32_t stream_id = 0;     // stream lanes
  std::string engine;         // engine lanes
  uint32_t sub = 0;           // engine lanes: 0, 1, ...
  std::string label;          // "Stream 3", "AI Core", "DMA 2"
  std::vector<size_t> tasks;  // indexes into Trace::tasks, by start time
};

// The lanes of every device: by device, its streams (by id), then its engines (AI Core,
// AI Vector, AI CPU, DMA, then others by name). Every task is on exactly one stream lane and,
// if HasEngineLane(engine), on exactly one engine lane.
std::vector<Lane> BuildLanes(const Trace& trace);

// The devices of the trace (tasks and memory samples), ascending.
std::vector<uint32_t> DevicesOf(const Trace& trace);

// For each task: if it is an EVENT_WAIT, the index of the EVENT_RECORD of the same event
// and device that ended latest at or before the wait's start; else -1. `exact[i]` tells
// whether that record ended exactly when the wait started (it released the wait).
struct Releases {
  std::vector<int64_t> record;
  std::vector<bool> exact;
};
Releases FindReleases(const Trace& trace);

// What a waiting task waited on: "event 3 recorded on stream 0" for an EVENT_WAIT (the record
// that released it; "event 3" when there is none), else "a busy <engine label>".
std::string WaitCause(const Trace& trace, const Releases& releases, size_t task);

}  // namespace aclsim::dfx::prof::detail
