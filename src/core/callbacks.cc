#include "core/callbacks.h"

#include "core/streams.h"

namespace aclsim::core {

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
  ReportHub* hub = &runtime.reports();
  driver::Task task;
  task.label = "aclrtLaunchCallback";
  if (!blocking) {
    task.kind = driver::TaskKind::kHostFunc;
    task.host_fn = [hub, thread, key, callback = std::move(callback)]() {
      hub->Post(thread, key, callback);
    };
    return Submit(**stream, std::move(task));
  }
  auto backend = (*stream)->device()->backend();
  if (!backend.ok()) return backend.status();
  std::weak_ptr<driver::Device> weak_backend = *backend;
  task.kind = driver::TaskKind::kExternal;
  task.external_start = [hub, thread, key, weak_backend,
                         callback = std::move(callback)](uint64_t task_id) {
    hub->Post(thread, key, [weak_backend, task_id, callback]() {
      callback();
      if (auto backend = weak_backend.lock()) backend->CompleteExternal(task_id, Status::Ok());
    });
  };
  return Submit(**stream, std::move(task));
}

Status LaunchHostFunc(Runtime& runtime, std::function<void()> fn, const void* stream_handle) {
  auto stream = runtime.ResolveStream(stream_handle, "stream");
  if (!stream.ok()) return stream.status();
  driver::Task task;
  task.kind = driver::TaskKind::kHostFunc;
  task.host_fn = std::move(fn);
  task.label = "aclrtLaunchHostFunc";
  return Submit(**stream, std::move(task));
}

}  // namespace aclsim::core
