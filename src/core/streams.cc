#include "core/streams.h"

#include "core/task_tracing.h"
#include "dfx/log.h"

namespace aclsim::core {

Result<std::shared_ptr<Stream>> CreateStream(Runtime& runtime, uint32_t flags, int32_t priority) {
  if ((flags & ~kStreamFlagsAll) != 0) {
    return Err(StatusCode::kInvalidParam, "stream flag 0x{:x} has unknown bits (known: 0x{:x})",
               flags, kStreamFlagsAll);
  }
  auto context = runtime.CurrentContext();
  if (!context.ok()) return context.status();
  const auto& device = (*context)->device();
  const auto& props = device->props();
  if (priority < props.stream_priority_greatest || priority > props.stream_priority_least) {
    return Err(StatusCode::kInvalidParam, "stream priority {} is outside [{}, {}] of {}", priority,
               props.stream_priority_greatest, props.stream_priority_least, props.soc_name);
  }
  auto backend = device->backend();
  if (!backend.ok()) return backend.status();
  driver::QueueConfig config;
  config.priority = priority;
  config.flags = flags;
  driver::QueueId queue = 0;
  ACLSIM_RETURN_IF_ERROR((*backend)->CreateQueue(config, &queue));
  auto stream = MakeHandleObject<Stream>(device, queue, flags, priority, /*is_default=*/false);
  device->TrackStream(stream);
  PublishHandle(stream);
  return stream;
}

Status DestroyStream(Runtime& runtime, const void* handle, bool force) {
  auto found = LookupHandle<Stream>(handle, "stream");
  if (!found.ok()) return found.status();
  if ((*found)->is_default()) {
    return Err(StatusCode::kInvalidParam,
               "stream {} is a context's default stream; it is released with its device", handle);
  }
  auto stream = RetireHandle<Stream>(handle, "stream");
  if (!stream.ok()) return stream.status();
  (*stream)->mark_destroyed();
  auto& device = (*stream)->device();
  device->UntrackStream(stream->get());
  auto backend = device->backend();
  if (!backend.ok()) return Status::Ok();  // the device was reset: its queues are gone
  for (ReportHub* hub : {&runtime.reports(), &runtime.host_funcs()}) {
    if (uint64_t thread = hub->ThreadOf(handle); thread != 0)
      (void)hub->Unsubscribe(thread, handle);
  }
  return (*backend)->DestroyQueue((*stream)->queue(), force);
}

Status Submit(Stream& stream, driver::Task&& task, uint64_t* task_id) {
  auto backend = stream.device()->backend();
  if (!backend.ok()) return backend.status();
  std::lock_guard<std::mutex> lock(stream.submit_mutex());
  if (stream.destroyed()) {
    return Err(StatusCode::kInvalidHandle, "stream was destroyed while the call was in flight");
  }
  uint64_t id = 0;
  if (task.kind == driver::TaskKind::kKernel) {
    task.exec_timeout_ns = stream.device()->op_execute_timeout_ns();
  }
  MarkTraced(task);
  ACLSIM_RETURN_IF_ERROR((*backend)->Submit(stream.queue(), std::move(task), &id));
  if (task_id != nullptr) *task_id = id;
  return Status::Ok();
}

Status SyncStream(Stream& stream, int32_t timeout_ms) {
  auto backend = stream.device()->backend();
  if (!backend.ok()) return backend.status();
  return (*backend)->SyncQueue(stream.queue(), timeout_ms);
}

Result<bool> StreamIdle(Stream& stream) {
  auto backend = stream.device()->backend();
  if (!backend.ok()) return backend.status();
  return (*backend)->QueryQueue(stream.queue()).idle;
}

Result<std::shared_ptr<Event>> CreateEvent(Runtime& runtime, uint32_t flags) {
  if ((flags & ~kEventFlagsAll) != 0) {
    return Err(StatusCode::kInvalidParam, "event flag 0x{:x} has unknown bits (known: 0x{:x})",
               flags, kEventFlagsAll);
  }
  auto context = runtime.CurrentContext();
  if (!context.ok()) return context.status();
  const auto& device = (*context)->device();
  auto backend = device->backend();
  if (!backend.ok()) return backend.status();
  driver::EventId id = 0;
  ACLSIM_RETURN_IF_ERROR((*backend)->CreateEvent(flags, &id));
  auto event = MakeHandleObject<Event>(device, id, flags);
  device->TrackEvent(event);
  PublishHandle(event);
  return event;
}

Status DestroyEvent(Runtime& runtime, const void* handle) {
  auto event = RetireHandle<Event>(handle, "event");
  if (!event.ok()) return event.status();
  auto& device = (*event)->device();
  device->UntrackEvent(event->get());
  auto backend = device->backend();
  if (!backend.ok()) return Status::Ok();
  return (*backend)->DestroyEvent((*event)->id());
}

namespace {

driver::Task EventTask(driver::TaskKind kind, const Event& event, const char* label) {
  driver::Task task;
  task.kind = kind;
  task.event = event.id();
  task.event_device = event.device()->physical_id();
  task.label = label;
  return task;
}

Status SameBackendDevice(const Event& event, const Stream& stream, const char* api) {
  if (event.device() != stream.device() && event.device()->released()) {
    return Err(StatusCode::kInvalidDevice, "{}: the event's device was reset", api);
  }
  return Status::Ok();
}

}  // namespace

Status RecordEvent(Event& event, Stream& stream) {
  if (event.device() != stream.device()) {
    return Err(StatusCode::kResourceNotMatch,
               "aclrtRecordEvent: event belongs to device {}, stream to device {}",
               event.device()->id(), stream.device()->id());
  }
  return Submit(stream, EventTask(driver::TaskKind::kEventRecord, event, "aclrtRecordEvent"));
}

Status ResetEvent(Event& event, Stream& stream) {
  if (event.device() != stream.device()) {
    return Err(StatusCode::kResourceNotMatch,
               "aclrtResetEvent: event belongs to device {}, stream to device {}",
               event.device()->id(), stream.device()->id());
  }
  return Submit(stream, EventTask(driver::TaskKind::kEventReset, event, "aclrtResetEvent"));
}

Status StreamWaitEvent(Stream& stream, Event& event, uint32_t timeout_ms) {
  ACLSIM_RETURN_IF_ERROR(SameBackendDevice(event, stream, "aclrtStreamWaitEvent"));
  driver::Task task = EventTask(driver::TaskKind::kEventWait, event, "aclrtStreamWaitEvent");
  task.wait_timeout_ms = timeout_ms;
  return Submit(stream, std::move(task));
}

Status SyncEvent(Event& event, int32_t timeout_ms) {
  auto backend = event.device()->backend();
  if (!backend.ok()) return backend.status();
  return (*backend)->SyncEvent(event.id(), timeout_ms);
}

Result<driver::Device::EventState> QueryEvent(Event& event) {
  auto backend = event.device()->backend();
  if (!backend.ok()) return backend.status();
  return (*backend)->QueryEvent(event.id());
}

namespace {

Result<uint64_t> CompletedTimestampNs(Event& event, const char* which) {
  if ((event.flags() & kEventTimeLine) == 0) {
    return Err(StatusCode::kInvalidParam,
               "{} event was created without ACL_EVENT_TIME_LINE and carries no timestamp", which);
  }
  auto state = QueryEvent(event);
  if (!state.ok()) return state.status();
  if (!state->recorded) {
    return Err(StatusCode::kEventTimestampInvalid, "{} event has not been recorded", which);
  }
  if (!state->complete) {
    return Err(StatusCode::kEventNotComplete, "{} event's record has not completed yet", which);
  }
  return state->timestamp_ns;
}

}  // namespace

Result<float> EventElapsedMs(Event& start, Event& end) {
  auto t0 = CompletedTimestampNs(start, "start");
  if (!t0.ok()) return t0.status();
  auto t1 = CompletedTimestampNs(end, "end");
  if (!t1.ok()) return t1.status();
  double delta_ns = static_cast<double>(*t1) - static_cast<double>(*t0);
  return static_cast<float>(delta_ns / 1e6);
}

Result<uint64_t> EventTimestampUs(Event& event) {
  auto ns = CompletedTimestampNs(event, "the");
  if (!ns.ok()) return ns.status();
  return *ns / 1000;
}

}  // namespace aclsim::core
