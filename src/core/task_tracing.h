// Task tracing for the profiler: marks the tasks launched while profiling is on
// (driver::Task::traced) and turns the backend's TaskTrace reports into profiler records.
#pragma once

#include <cstdint>
#include <functional>

#include "dfx/profiler.h"
#include "driver/driver.h"

namespace aclsim::core {

void MarkTracedSlow(driver::Task& task);

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
  if (profiler.active() || profiler.subscribed_any()) MarkTracedSlow(task);
}

// The tracer of device `device_id` (Device::SetTaskTracer).
std::function<void(const driver::TaskTrace&)> MakeTaskTracer(uint32_t device_id);

}  // namespace aclsim::core
