// Task tracing for the profiler: marks the tasks launched while profiling is on
// (driver::Task::traced) and turns the backend's TaskTrace reports into profiler records.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "dfx/profiler.h"
#include "driver/driver.h"

namespace aclsim::core {

void MarkTracedSlow(driver::Task& task);

// Device task trace (the device log's task-trace mode, msnpureport -t on): while any open
// device has it on, every task is traced so that its device log can name its simulated times.
// Counted: one AddDeviceTaskTrace(+1) per device that turned it on, (-1) when it closes.
extern std::atomic<int> g_device_task_traces;
inline bool DeviceTaskTraceActive() {
  return g_device_task_traces.load(std::memory_order_relaxed) > 0;
}
inline void AddDeviceTaskTrace(int delta) {
  g_device_task_traces.fetch_add(delta, std::memory_order_relaxed);
}

// While alive (and profiling is on), tasks the calling thread launches are tagged with a model
// node's name and the model id (a model's kernels are named by their nodes in profiles).
class ScopedTaskTag {
 public:
  ScopedTaskTag(const char* op_name, uint32_t model_id);
  ~ScopedTaskTag();
  ScopedTaskTag(const ScopedTaskTag&) = delete;
  ScopedTaskTag& operator=(const ScopedTaskTag&) = delete;

 private:
  const char* saved_name_;
  uint32_t saved_model_;
};

// Called for every task the core submits.
inline void MarkTraced(driver::Task& task) {
  const auto& profiler = dfx::prof::Profiler::Get();
  if (profiler.active() || profiler.subscribed_any() || DeviceTaskTraceActive()) {
    MarkTracedSlow(task);
  }
}

// The tracer of device `device_id` (Device::SetTaskTracer).
std::function<void(const driver::TaskTrace&)> MakeTaskTracer(uint32_t device_id);

}  // namespace aclsim::core
