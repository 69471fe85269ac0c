// Host work on streams: report-thread callbacks (aclrtLaunchCallback) and host functions
// (aclrtLaunchHostFunc).
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <functional>

#include "common/status.h"
#include "core/runtime.h"

namespace aclsim::core {

// Enqueues `callback` on `stream` (NULL = default stream). When the stream reaches it, it is
// handed to the stream's report thread (aclrtSubscribeReport), which runs it in
// aclrtProcessReport. If `blocking`, the stream waits until it has run.
// kStreamNotSubscribe if the stream has no report thread.
Status LaunchCallback(Runtime& runtime, std::function<void()> callback, bool blocking,
                      const void* stream);

// Enqueues `fn` on `stream`; when the stream reaches it, it runs on the thread subscribed to the
// stream with aclrtSubscribeHostFunc (in its aclrtProcessHostFunc) or, if none, on a runtime
// thread; the stream waits for it either way.
Status LaunchHostFunc(Runtime& runtime, std::function<void()> fn, const void* stream);

}  // namespace aclsim::core
