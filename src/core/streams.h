// Streams and events: creation, destruction, submission, synchronisation.
//
// These are the core operations behind aclrt*Stream* and aclrt*Event*. A stream is an
// ordered queue on its device's backend; submissions hold the stream's lock, so tasks from
// several threads keep call order.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "core/objects.h"
#include "core/runtime.h"
#include "driver/task.h"

namespace aclsim::core {

// Stream flags we accept (ACL_STREAM_* values).
constexpr uint32_t kStreamFastLaunch = 0x1;
constexpr uint32_t kStreamFastSync = 0x2;
constexpr uint32_t kStreamPersistent = 0x4;
constexpr uint32_t kStreamHuge = 0x8;
constexpr uint32_t kStreamCpuSchedule = 0x10;
constexpr uint32_t kStreamDeviceUseOnly = 0x20;
constexpr uint32_t kStreamFlagsAll = 0x3f;

// Event flags we accept (ACL_EVENT_* values).
constexpr uint32_t kEventSync = 0x1;
constexpr uint32_t kEventCaptureStreamProgress = 0x2;
constexpr uint32_t kEventTimeLine = 0x8;
constexpr uint32_t kEventDeviceUseOnly = 0x10;
constexpr uint32_t kEventExternal = 0x20;
constexpr uint32_t kEventIpc = 0x40;
constexpr uint32_t kEventFlagsAll = 0x7b;
constexpr uint32_t kEventDefaultFlags = kEventSync | kEventTimeLine;

// Creates a stream in the current context. Returns the published stream.
Result<std::shared_ptr<Stream>> CreateStream(Runtime& runtime, uint32_t flags, int32_t priority);
// Destroys a stream (not the default stream). Waits for its work unless `force`, which drops
// unstarted tasks.
Status DestroyStream(Runtime& runtime, const void* handle, bool force);
// Enqueues a task on a stream.
Status Submit(Stream& stream, driver::Task&& task, uint64_t* task_id = nullptr);
// Waits for a stream's work (timeout_ms < 0: forever).
Status SyncStream(Stream& stream, int32_t timeout_ms);
// True if every task of the stream has completed.
Result<bool> StreamIdle(Stream& stream);

Result<std::shared_ptr<Event>> CreateEvent(Runtime& runtime, uint32_t flags);
Status DestroyEvent(Runtime& runtime, const void* handle);
Status RecordEvent(Event& event, Stream& stream);
Status ResetEvent(Event& event, Stream& stream);
// `timeout_ms` (wall clock, 0 = forever): the wait task fails with ACL_ERROR_RT_WAIT_TIMEOUT
// if the event's record has not completed that long after the wait reached the head of the
// stream (driver::Task::wait_timeout_ms).
Status StreamWaitEvent(Stream& stream, Event& event, uint32_t timeout_ms = 0);
Status SyncEvent(Event& event, int32_t timeout_ms);
Result<driver::Device::EventState> QueryEvent(Event& event);
// Simulated milliseconds between two completed records.
Result<float> EventElapsedMs(Event& start, Event& end);
// Simulated timestamp of a completed record, in microseconds.
Result<uint64_t> EventTimestampUs(Event& event);

}  // namespace aclsim::core
