// ReportHub: host callbacks delivered through report threads (aclrtSubscribeReport,
// aclrtLaunchCallback, aclrtProcessReport, aclrtUnSubscribeReport).
//
// A user thread subscribes to one or more streams by its thread id; callbacks launched on
// those streams are queued to that thread when the stream reaches them, and run when the
// thread calls aclrtProcessReport. A blocking callback holds its stream until it has run.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "common/status.h"

namespace aclsim::core {

class ReportHub {
 public:
  // Id of the calling thread as users pass it (pthread_self()).
  static uint64_t CurrentThreadId();

  // kRepeatSubscribe if `stream_key` already has a report thread.
  Status Subscribe(uint64_t thread_id, const void* stream_key);
  // kStreamNotSubscribe if `stream_key` is not subscribed to `thread_id`. Callbacks of the
  // stream still queued are run by the unsubscribing thread (nothing is lost).
  Status Unsubscribe(uint64_t thread_id, const void* stream_key);
  // The report thread of a stream, 0 if none.
  uint64_t ThreadOf(const void* stream_key) const;
  // Queues `run` for the report thread of `stream_key`.
  void Post(uint64_t thread_id, const void* stream_key, std::function<void()> run);
  // Runs the callbacks queued for the calling thread, waiting up to timeout_ms (< 0: forever)
  // for the first one. kThreadNotSubscribe if the thread has no stream; kWaitTimeout when
  // nothing arrived in time.
  Status Process(int32_t timeout_ms);
  // Teardown (aclFinalize, the runtime's end). From BeginClose on, callbacks no longer wait for
  // report threads: those queued and those the streams reach while their devices are released
  // run on a thread of the hub, in order, and aclrtProcessReport returns kUninitialized at once
  // (also to a thread already waiting in it). EndClose runs what is left and joins that thread.
  // Both may be called more than once.
  void BeginClose();
  void EndClose();

  ~ReportHub();

 private:
  struct Pending {
    const void* stream_key;
    std::function<void()> run;
  };
  void RunClosed();  // the closing thread's loop

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<const void*, uint64_t> stream_thread_;
  std::map<uint64_t, std::deque<Pending>> queues_;
  bool closed_ = false;
  bool stopping_ = false;
  std::deque<std::function<void()>> closing_;
  std::thread closer_;
};

}  // namespace aclsim::core
