#include "core/task_tracing.h"

#include <utility>

namespace aclsim::core {

std::atomic<int> g_device_task_traces{0};

namespace {

using driver::Engine;
using driver::TaskKind;

const char* KindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kMemcpy:
      return "MEMCPY";
    case TaskKind::kMemcpy2d:
      return "MEMCPY2D";
    case TaskKind::kMemset:
      return "MEMSET";
    case TaskKind::kEventRecord:
      return "EVENT_RECORD";
    case TaskKind::kEventWait:
      return "EVENT_WAIT";
    case TaskKind::kEventReset:
      return "EVENT_RESET";
    case TaskKind::kHostFunc:
      return "HOST_FUNC";
    case TaskKind::kExternal:
      return "EXTERNAL";
    case TaskKind::kKernel:
      return "KERNEL";
    case TaskKind::kSignal:
      return "NOTIFY_RECORD";
    case TaskKind::kWaitSignal:
      return "NOTIFY_WAIT";
  }
  return "UNKNOWN";
}

const char* EngineName(const driver::Task& task) {
  switch (task.kind) {
    case TaskKind::kMemcpy:
    case TaskKind::kMemcpy2d:
    case TaskKind::kMemset:
      return "DMA";
    case TaskKind::kEventRecord:
    case TaskKind::kEventWait:
    case TaskKind::kEventReset:
    case TaskKind::kSignal:
    case TaskKind::kWaitSignal:
      return "STREAM";
    case TaskKind::kHostFunc:
    case TaskKind::kExternal:
      return "HOST";
    case TaskKind::kKernel:
      break;
  }
  switch (task.engine) {
    case Engine::kAiCore:
      return "AI_CORE";
    case Engine::kAiVector:
      return "AI_VECTOR";
    case Engine::kAiCpu:
      return "AI_CPU";
  }
  return "AI_CORE";
}

dfx::prof::TaskRecord ToRecord(uint32_t device_id, const driver::TaskTrace& trace) {
  const driver::Task& task = *trace.task;
  dfx::prof::TaskRecord r;
  r.device_id = device_id;
  r.stream_id = trace.queue;
  r.task_id = trace.task_id;
  r.kind = KindName(task.kind);
  r.engine = EngineName(task);
  r.op_type = task.label != nullptr ? task.label : "";
  r.op_name = task.op_name != nullptr ? task.op_name : r.op_type;
  r.model_id = task.model_id;
  r.ready_ns = trace.ready_ns;
  r.start_ns = trace.start_ns;
  r.end_ns = trace.end_ns;
  r.correlation_id = task.correlation;
  if (task.kind == TaskKind::kKernel) {
    r.blocks = task.blocks;
    const bool legacy = task.work.empty();
    r.bytes = legacy ? task.bytes_moved : task.work.gm_read_bytes + task.work.gm_write_bytes;
    r.flops = legacy ? task.flops : task.work.cube_flops + task.work.vector_flops;
    r.cube_ns = trace.cube_ns;
    r.vector_ns = trace.vector_ns;
  } else {
    r.bytes = task.bytes;
  }
  if (task.kind == TaskKind::kEventRecord || task.kind == TaskKind::kEventWait ||
      task.kind == TaskKind::kEventReset) {
    r.event_id = task.event;
  }
  return r;
}

thread_local const char* tag_name = nullptr;
thread_local uint32_t tag_model = 0;

}  // namespace

ScopedTaskTag::ScopedTaskTag(const char* op_name, uint32_t model_id)
    : saved_name_(tag_name), saved_model_(tag_model) {
  tag_name = op_name;
  tag_model = model_id;
}

ScopedTaskTag::~ScopedTaskTag() {
  tag_name = saved_name_;
  tag_model = saved_model_;
}

void MarkTracedSlow(driver::Task& task) {
  auto& profiler = dfx::prof::Profiler::Get();
  if (task.op_name == nullptr) task.op_name = tag_name;
  if (task.model_id == 0) task.model_id = tag_model;
  // Not profiling: only the tasks of a subscribed model, or every task while a device log's
  // task trace is on.
  if (!profiler.active() && !DeviceTaskTraceActive() &&
      (task.model_id == 0 || !profiler.IsSubscribed(task.model_id))) {
    return;
  }
  task.traced = true;
  task.label = profiler.Intern(task.label);
  task.op_name = profiler.Intern(task.op_name);
  if (task.correlation == 0) task.correlation = dfx::prof::CurrentApiCall();
}

std::function<void(const driver::TaskTrace&)> MakeTaskTracer(uint32_t device_id) {
  return [device_id](const driver::TaskTrace& trace) {
    dfx::prof::Profiler::Get().AddTask(ToRecord(device_id, trace));
  };
}

}  // namespace aclsim::core
