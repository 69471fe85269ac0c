#include "core/callbacks.h"

#include "core/streams.h"

namespace aclsim::core {

namespace {

// A task that hands `run` to `thread` of `hub` when the stream reaches it; with `blocking`, the
// stream waits until the thread has run it.
Status PostToThread(Stream& stream, ReportHub* hub, uint64_t thread, const void* key,
                    std::function<void()> run, bool blocking, const char* label) {
  driver::Task task;
  task.label = label;
  if (!blocking) {
    task.kind = driver::TaskKind::kHostFunc;
    task.host_fn = [hub, thread, key, run = std::move(run)]() { hub->Post(thread, key, run); };
    return Submit(stream, std::move(task));
  }
  auto backend = stream.device()->backend();
  if (!backend.ok()) return backend.status();
  std::weak_ptr<driver::Device> weak_backend = *backend;
  task.kind = driver::TaskKind::kExternal;
  task.external_start = [hub, thread, key, weak_backend, run = std::move(run)](uint64_t task_id) {
    hub->Post(thread, key, [weak_backend, task_id, run]() {
      run();
      if (auto backend = weak_backend.lock()) backend->CompleteExternal(task_id, Status::Ok());
    });
  };
  return Submit(stream, std::move(task));
}

}  // namespace

Status LaunchCallback(Runtime& runtime, std::function<void()> callback, bool blocking,
                      const void* stream_handle) {
  auto stream = runtime.ResolveStream(stream_handle, "stream");
  if (!stream.ok()) return stream.status();
  const void* key = stream->get();
  const uint64_t thread = runtime.reports().ThreadOf(key);
  if (thread == 0) {
    return Err(StatusCode::kStreamNotSubscribe,
               "stream {} has no report thread: call aclrtSubscribeReport first", key);
  }
  return PostToThread(**stream, &runtime.reports(), thread, key, std::move(callback), blocking,
                      "aclrtLaunchCallback");
}

Status LaunchHostFunc(Runtime& runtime, std::function<void()> fn, const void* stream_handle) {
  auto stream = runtime.ResolveStream(stream_handle, "stream");
  if (!stream.ok()) return stream.status();
  const void* key = stream->get();
  if (const uint64_t thread = runtime.host_funcs().ThreadOf(key); thread != 0) {
    return PostToThread(**stream, &runtime.host_funcs(), thread, key, std::move(fn),
                        /*blocking=*/true, "aclrtLaunchHostFunc");
  }
  driver::Task task;
  task.kind = driver::TaskKind::kHostFunc;
  task.host_fn = std::move(fn);
  task.label = "aclrtLaunchHostFunc";
  return Submit(**stream, std::move(task));
}

}  // namespace aclsim::core
