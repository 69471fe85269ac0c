// Scheduler: functional execution on workers or inline, completion and failures.
#include <chrono>
#include <exception>
#include <thread>
#include <utility>

#include "sim/scheduler.h"
#include "sim/task_exec.h"

namespace aclsim::sim {

using driver::TaskKind;

namespace {

uint32_t FailureCode(TaskKind kind) {
  switch (kind) {
    case TaskKind::kKernel:
      return 507015;  // ACL_ERROR_RT_AICORE_EXCEPTION
    case TaskKind::kMemcpy:
    case TaskKind::kMemcpy2d:
    case TaskKind::kMemset:
      return 507013;  // ACL_ERROR_RT_SYS_DMA
    default:
      return 507000;  // ACL_ERROR_RT_INTERNAL_ERROR
  }
}

// Runs user code; an exception becomes a task failure.
template <typename Fn>
Status Guarded(const char* what, Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return Err(StatusCode::kTaskFailed, "{} threw: {}", what, e.what());
  } catch (...) {
    return Err(StatusCode::kTaskFailed, "{} threw a non-standard exception", what);
  }
  return Status::Ok();
}

// Runs a kernel's fallible body; a failure becomes the engine's exception code.
Status RunKernelBody(const driver::Task& task) {
  Status body;
  Status thrown = Guarded("kernel", [&] { body = task.kernel_fn(); });
  if (!thrown.ok()) body = Status(StatusCode::kInternal, thrown.message());
  if (body.ok()) return body;
  uint32_t code = 507015;                                       // ACL_ERROR_RT_AICORE_EXCEPTION
  if (task.engine == driver::Engine::kAiVector) code = 507035;  // VECTOR_CORE_EXCEPTION
  if (task.engine == driver::Engine::kAiCpu) code = 507018;     // AICPU_EXCEPTION
  return Status(StatusCode::kTaskFailed, body.message(), code);
}

// Calls `idle` until it returns false or 50 µs of wall time have passed.
template <typename Idle>
void SpinWhile(Idle&& idle) {
  constexpr auto kSpin = std::chrono::microseconds(50);
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (uint32_t i = 1; idle(); ++i) {
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
  }
}

}  // namespace

thread_local DeviceSched* Scheduler::self_dispatch_ = nullptr;
thread_local bool Scheduler::in_worker_ = false;

Scheduler::StartInfo Scheduler::StartLocked(SimTask& t) {
  StartInfo info;
  t.run = RunState::kRunning;
  DeviceSched& dev = *t.dev;
  if (dev.lost) {
    info.lost = true;
  } else if (t.id == dev.faults.device_lost) {
    dev.lost = true;
    t.fault_option = "fault_device_lost";
    t.fault_code = driver::kDeviceLostCode;
  }
  info.inject_fault = !info.lost && t.fault_option != nullptr;
  info.external_early = t.external_completed_early;
  if ((info.inject_fault || info.lost) && t.task.kind == TaskKind::kExternal) {
    dev.externals.erase(t.id);
  }
  return info;
}

void Scheduler::WorkerLoop(uint32_t device) {
  in_worker_ = true;
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  for (;;) {
    if (dev.ready.empty() && !dev.stopping && !dev.spinning && dev.executing == 0) {
      dev.spinning = true;  // TryDispatch signals no one while this worker spins
      const uint64_t seen = dev.dispatches.load(std::memory_order_acquire);
      lock.unlock();
      SpinWhile([&dev, seen] { return dev.dispatches.load(std::memory_order_acquire) == seen; });
      lock.lock();
      dev.spinning = false;
    }
    dev.work_cv.wait(lock, [&dev] { return dev.stopping || !dev.ready.empty(); });
    if (dev.ready.empty()) return;
    std::shared_ptr<SimTask> t = std::move(dev.ready.front());
    dev.ready.pop_front();
    if (!dev.ready.empty()) dev.work_cv.notify_one();  // more work: another worker may idle
    const StartInfo info = StartLocked(*t);
    ++dev.executing;
    lock.unlock();
    Execute(t, info, &lock);
    if (!lock.owns_lock()) lock.lock();
    --dev.executing;
  }
}

void Scheduler::DrainInline() {
  Lock lock(mu_);
  while (!inline_ready_.empty()) {
    std::shared_ptr<SimTask> t = std::move(inline_ready_.front());
    inline_ready_.pop_front();
    const StartInfo info = StartLocked(*t);
    lock.unlock();
    Execute(t, info);
    lock.lock();
  }
}

void Scheduler::Execute(const std::shared_ptr<SimTask>& t, StartInfo info, Lock* keep) {
  // Only this thread touches the closures of a running task (see CompleteLocked).
  driver::Task& task = t->task;
  Status status;
  if (info.lost) {
    if (task.kind == TaskKind::kExternal) task.external_start = nullptr;
    Finish(t,
           Status(StatusCode::kTaskFailed, "not executed: the device was lost",
                  driver::kDeviceLostCode),
           /*report=*/false);
    return;
  }
  if (info.inject_fault) {
    if (task.kind == TaskKind::kExternal) task.external_start = nullptr;
    if (t->timed_out_ns != 0) {
      status = Err(StatusCode::kTaskFailed,
                   "op execute timeout: the kernel's simulated execution ({} us) exceeds the "
                   "configured timeout ({} us); stopped at the timeout",
                   t->timed_out_ns / 1000, task.exec_timeout_ns / 1000);
    } else {
      status = Err(StatusCode::kTaskFailed, "fault injected (option {}, task {})", t->fault_option,
                   t->id);
    }
  } else {
    switch (task.kind) {
      case TaskKind::kMemcpy:
      case TaskKind::kMemcpy2d:
      case TaskKind::kMemset:
        ExecuteDataTask(task);
        break;
      case TaskKind::kHostFunc:
        if (task.host_fn) status = Guarded("host function", task.host_fn);
        break;
      case TaskKind::kKernel:
        if (task.kernel_fn) {
          status = RunKernelBody(task);
        } else if (task.host_fn) {
          status = Guarded("host function", task.host_fn);
        }
        break;
      case TaskKind::kExternal:
        status = Guarded("external_start", [&] { task.external_start(t->id); });
        task.external_start = nullptr;  // its destructor runs here, without the lock
        // Normally completes later, through CompleteExternal.
        if (status.ok() && !info.external_early) return;
        if (status.ok()) status = t->external_status;
        break;
      case TaskKind::kEventRecord:
      case TaskKind::kEventWait:
      case TaskKind::kEventReset:
      case TaskKind::kSignal:
      case TaskKind::kWaitSignal:
        break;
    }
  }
  Finish(t, std::move(status), /*report=*/true, keep);
}

Status Scheduler::FailureStatus(const SimTask& t, const Status& cause) const {
  const char* label = t.task.label != nullptr ? t.task.label : "";
  const uint32_t code = t.fault_code != 0     ? t.fault_code
                        : cause.detail() != 0 ? cause.detail()
                                              : FailureCode(t.task.kind);
  // The detail carries the task's runtime error code, which the next synchronisation reports.
  return Status(StatusCode::kTaskFailed,
                fmt::format("device {} queue {} task {} ({}{}{}{}) failed: {}", t.dev->id,
                            t.queue_id, t.id, TaskKindName(t.task.kind), *label ? " '" : "", label,
                            *label ? "'" : "", cause.message()),
                code);
}

void Scheduler::Finish(const std::shared_ptr<SimTask>& t, Status status, bool report, Lock* keep) {
  Work work;
  std::function<void(const driver::TaskFailure&)> handler;
  driver::TaskFailure failure;
  bool hook = false;
  if (!status.ok()) {
    Lock lock(mu_);
    if (t->run == RunState::kDone) return;  // aborted meanwhile (device closed)
    if (report) status = FailureStatus(*t, status);
    if (t->queue->error.ok()) t->queue->error = status;
    failure.device_id = t->dev->id;
    failure.queue = t->queue_id;
    failure.task_id = t->id;
    failure.error_code = status.detail();
    failure.message = status.message();
    const char* op = t->task.op_name != nullptr ? t->task.op_name : t->task.label;
    if (op != nullptr) failure.op_name = op;
    if (report) handler = t->dev->failure_handler;
    hook = report && t->task.kind == TaskKind::kKernel && t->task.on_failure;
  }
  if (hook) {
    // The core's hook (exception dump) runs here, like the kernel's body, before the task
    // completes: the kernel's buffers are still the program's.
    Status ignored = Guarded("kernel failure hook", [&] { t->task.on_failure(failure); });
    (void)ignored;
  }
  if (handler) {
    // The handler is the core's; an exception must not take down a worker thread.
    Status ignored = Guarded("failure handler", [&] { handler(failure); });
    (void)ignored;
  }
  Lock lock(mu_);
  if (t->run == RunState::kDone) return;
  if (in_worker_) self_dispatch_ = t->dev;  // WorkerLoop takes the next ready task itself
  CompleteLocked(t, std::move(status), work);
  Pump(work);
  self_dispatch_ = nullptr;
  // A worker's completion moved no closures into `work` (they wait in the graveyard), so it
  // may be destroyed with the lock held.
  if (keep != nullptr && in_worker_ && work.dead_fns.empty() && work.dead_starts.empty() &&
      work.dead_tasks.empty()) {
    *keep = std::move(lock);
  }
}

void Scheduler::CompleteExternal(uint32_t device, uint64_t task_id, Status status) {
  std::shared_ptr<SimTask> t;
  {
    Lock lock(mu_);
    auto dev = devices_.find(device);
    if (dev == devices_.end()) return;
    auto it = dev->second->externals.find(task_id);
    if (it == dev->second->externals.end()) return;  // unknown, already completed or aborted
    t = it->second;
    dev->second->externals.erase(it);
    if (t->run != RunState::kRunning) {
      // Not started yet: it completes as soon as external_start has been called.
      t->external_completed_early = true;
      t->external_status = std::move(status);
      return;
    }
  }
  Finish(t, std::move(status));
  if (inline_mode_) DrainInline();
}

}  // namespace aclsim::sim
