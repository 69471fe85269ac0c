// Scheduler core: submission, simulated-time resolution, dispatch, execution, completion.
// Queue/event management and the Sync* waits are in scheduler_sync.cc.
#include "sim/scheduler.h"

#include <algorithm>
#include <utility>

#include "sim/host_clock.h"
#include "sim/task_exec.h"
#include "sim/task_pool.h"

namespace aclsim::sim {

using driver::TaskKind;

namespace {

// Tasks with nothing to execute: they complete at once when dispatched.
bool IsEventTask(TaskKind kind) {
  return kind == TaskKind::kEventRecord || kind == TaskKind::kEventWait ||
         kind == TaskKind::kEventReset || kind == TaskKind::kSignal ||
         kind == TaskKind::kWaitSignal;
}

bool IsWaitTask(TaskKind kind) {
  return kind == TaskKind::kEventWait || kind == TaskKind::kWaitSignal;
}

// The engine's timeout code for a kernel over the op execute timeout.
uint32_t ExecTimeoutCode(driver::Engine engine) {
  switch (engine) {
    case driver::Engine::kAiVector:
      return 507034;  // ACL_ERROR_RT_VECTOR_CORE_TIMEOUT
    case driver::Engine::kAiCpu:
      return 507017;  // ACL_ERROR_RT_AICPU_TIMEOUT
    case driver::Engine::kAiCore:
      break;
  }
  return 507014;  // ACL_ERROR_RT_AICORE_TIMEOUT
}

void EraseTask(std::deque<std::shared_ptr<SimTask>>& list, const SimTask* t) {
  auto it = std::find_if(list.begin(), list.end(),
                         [t](const std::shared_ptr<SimTask>& p) { return p.get() == t; });
  if (it != list.end()) list.erase(it);
}

}  // namespace

Scheduler::Work::~Work() {
  // Without the lock; the tasks are done, their workers finished with them under it. (A
  // kExternal's external_start stays with its record: Execute may release it itself.)
  for (const auto& t : dead_tasks) {
    t->task.host_fn = nullptr;
    t->task.kernel_fn = nullptr;
  }
}

Scheduler::Scheduler(bool inline_mode)
    : inline_mode_(inline_mode), clock_domain_(HostClocks::NewDomain()) {}

Scheduler::~Scheduler() {
  {
    Lock lock(mu_);
    timer_stop_ = true;
    timer_cv_.notify_all();
  }
  if (timer_.joinable()) timer_.join();
}

DeviceSched& Scheduler::Dev(uint32_t device) { return *devices_.at(device); }

std::shared_ptr<SimQueue> Scheduler::FindQueue(DeviceSched& dev, driver::QueueId queue) {
  auto it = dev.queues.find(queue);
  return it == dev.queues.end() ? nullptr : it->second;
}

Status Scheduler::OpenDevice(uint32_t device, const driver::DeviceProps& props,
                             const CostParams& cost, const FaultConfig& faults) {
  Lock lock(mu_);
  if (devices_.count(device) != 0) {
    return Err(StatusCode::kInvalidDevice, "device {} is already open", device);
  }
  auto dev = std::make_unique<DeviceSched>(device, props, cost);
  dev->faults = faults;
  devices_[device] = std::move(dev);
  return Status::Ok();
}

void Scheduler::StopDevice(uint32_t device) {
  Work work;
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  dev.closed = true;
  for (auto& [id, q] : dev.queues) {
    q->closing = true;
    DropUnstarted(*q, work);
  }
  for (auto& [id, event] : dev.events) ReleaseUnbound(*event, work);
  // Running external tasks would wait for a CompleteExternal that may never come.
  std::vector<std::shared_ptr<SimTask>> running;
  for (auto& [id, t] : dev.externals) {
    if (t->run == RunState::kRunning) running.push_back(t);
  }
  for (auto& t : running) {
    CompleteLocked(
        t, Err(StatusCode::kDeviceTaskAbort, "task {} aborted: device {} closed", t->id, device),
        work);
  }
  Pump(work);
  if (inline_mode_) {
    lock.unlock();
    DrainInline();  // released waits of other devices
    lock.lock();
  }
  auto running_left = [&dev] {
    std::string text;
    for (const auto& [id, q] : dev.queues) {
      if (!q->pending.empty()) text += (text.empty() ? "" : "; ") + DescribeBlocked(*q);
    }
    return text;
  };
  (void)WaitFor(
      lock, -1,
      [&dev] {
        return std::all_of(dev.queues.begin(), dev.queues.end(),
                           [](const auto& entry) { return entry.second->pending.empty(); });
      },
      &dev, "closing the device (its running tasks must finish)", running_left);
  if (dev.tracer) FlushLocked(dev);
  dev.stopping = true;
  dev.dispatches.fetch_add(1, std::memory_order_release);
  dev.work_cv.notify_all();
}

void Scheduler::RemoveDevice(uint32_t device) {
  std::unique_ptr<DeviceSched> dev;
  Lock lock(mu_);
  auto it = devices_.find(device);
  if (it == devices_.end()) return;
  dev = std::move(it->second);
  devices_.erase(it);
  lock.unlock();  // destroy the records without the lock
}

Status Scheduler::Submit(uint32_t device, driver::QueueId queue, driver::Task&& task,
                         const TaskTranslation& translation, uint64_t* task_id) {
  ACLSIM_RETURN_IF_ERROR(ValidateTask(task));
  // Declared before the lock: a refused task's closures are destroyed without it.
  static_assert(sizeof(SimTask) + 64 <= 1024, "a task and its control block fit a TaskPool block");
  auto t = std::allocate_shared<SimTask>(PoolAllocator<SimTask>());
  t->task = std::move(task);
  {
    Work work;
    Lock lock(mu_);
    DeviceSched& dev = Dev(device);
    TakeGraveyard(dev, work);
    std::shared_ptr<SimQueue> q = FindQueue(dev, queue);
    if (q == nullptr || q->closing) {
      return Err(StatusCode::kInvalidHandle, "Submit: queue {} does not exist on device {}", queue,
                 device);
    }
    t->dev = &dev;
    t->queue = q.get();
    t->queue_id = queue;
    if (dev.lost) return LostError(dev);
    t->cost = CostOf(t->task, translation, dev.props, dev.cost, &dev.estimates);
    if (dev.faults.slow_dma_engine != EngineKind::kNone &&
        t->cost.engine == dev.faults.slow_dma_engine) {
      t->slowdown = dev.faults.slow_dma_factor;
    }
    ACLSIM_RETURN_IF_ERROR(BindEvent(dev, t, work));
    t->id = dev.next_task_id++;
    dev.last_issued.store(t->id, std::memory_order_relaxed);
    dev.tlb.Add(t->cost.tlb);
    if (t->id == dev.faults.fail_task) t->fault_option = "fault_fail_task";
    if (t->task.kind == TaskKind::kKernel && ++dev.kernel_count == dev.faults.aicore_exception) {
      t->fault_option = "fault_aicore_exception";
      t->fault_code = 507015;  // ACL_ERROR_RT_AICORE_EXCEPTION
    }
    if (t->task.exec_timeout_ns != 0 && t->task.kind == TaskKind::kKernel &&
        t->cost.duration_ns * t->slowdown > t->task.exec_timeout_ns && t->fault_option == nullptr) {
      // The hardware stops it at the timeout: it lasts exactly that long and fails.
      t->timed_out_ns = t->cost.duration_ns * t->slowdown;
      t->fault_option = "op execute timeout";
      t->fault_code = ExecTimeoutCode(t->task.engine);
      t->slowdown = 1;
      t->cost.fixed_ns = t->cost.duration_ns = t->task.exec_timeout_ns;
      t->cost.core_ns = t->cost.hbm_bytes = t->cost.dma_demand = 0;
      t->cost.hbm_shared = false;
    }
    t->earliest_ns = HostClocks::Advance(clock_domain_, dev.cost.api_submit_cost_ns);
    if (t->task.kind == TaskKind::kExternal) dev.externals[t->id] = t;
    // Only a task that becomes the queue's head can be dispatched now: behind others, the
    // head is unchanged, and whatever changes it (a completion, a record) dispatches it.
    // While the newest task is not done it is pending (tasks leave `pending` only when they
    // complete), so the new one is not the head; that is read instead of the head itself,
    // which a worker has just written.
    const bool head = q->last == nullptr || q->last->run == RunState::kDone;
    q->pending.push_back(t);
    AddUntimed(*q, t);
    q->last = t;
    if (head) work.queues.push_back(q.get());
    Pump(work);
    while (untimed_count_ > kTimingWindow && TimeNext()) {
    }
    if (task_id != nullptr) *task_id = t->id;
  }
  if (inline_mode_) DrainInline();
  return Status::Ok();
}

Status Scheduler::BindEvent(DeviceSched& dev, const std::shared_ptr<SimTask>& t, Work& work) {
  const driver::Task& task = t->task;
  if (task.kind == TaskKind::kSignal || task.kind == TaskKind::kWaitSignal) {
    if (task.dst == nullptr && dev.counters.count(task.event) == 0) {
      return Err(StatusCode::kInvalidHandle, "{}: notify {} does not exist on device {}",
                 TaskKindName(task.kind), task.event, dev.id);
    }
    t->awaiting_record = task.kind == TaskKind::kWaitSignal;  // until satisfied
    return Status::Ok();
  }
  if (task.kind == TaskKind::kEventRecord || task.kind == TaskKind::kEventReset) {
    auto it = dev.events.find(task.event);
    if (it == dev.events.end()) {
      return Err(StatusCode::kInvalidHandle, "{}: event {} does not exist on device {}",
                 TaskKindName(task.kind), task.event, dev.id);
    }
    SimEvent& event = *it->second;
    if (task.kind == TaskKind::kEventReset) {
      event.latest_record.reset();
      return Status::Ok();
    }
    event.latest_record = t;
    for (auto& waiter : event.unbound_waiters) {
      if (waiter->run != RunState::kQueued) continue;  // done, or failed by its timeout
      waiter->record = t;
      waiter->awaiting_record = false;
      t->waiters.push_back(waiter);
      work.queues.push_back(waiter->queue);
    }
    event.unbound_waiters.clear();
    return Status::Ok();
  }
  if (task.kind == TaskKind::kEventWait) {
    auto owner = devices_.find(task.event_device);
    if (owner == devices_.end() || owner->second->closed) {
      return Err(StatusCode::kInvalidDevice, "event-wait: device {} of event {} is not open",
                 task.event_device, task.event);
    }
    auto it = owner->second->events.find(task.event);
    if (it == owner->second->events.end()) {
      return Err(StatusCode::kInvalidHandle, "event-wait: event {} does not exist on device {}",
                 task.event, task.event_device);
    }
    SimEvent& event = *it->second;
    if (event.latest_record != nullptr) {
      t->record = event.latest_record;
      if (t->record->run != RunState::kDone) t->record->waiters.push_back(t);
    } else {
      t->awaiting_record = true;
      event.unbound_waiters.push_back(t);
    }
  }
  return Status::Ok();
}

void Scheduler::Pump(Work& work) {
  for (size_t i = 0; i < work.queues.size(); ++i) TryDispatch(*work.queues[i], work);
  work.queues.clear();
}

void Scheduler::AddUntimed(SimQueue& q, const std::shared_ptr<SimTask>& t) {
  q.untimed.push_back(t);
  ++untimed_count_;
  if (!q.in_timing) {
    q.in_timing = true;
    timing_.push_back(&q);
  }
}

void Scheduler::LeaveTiming(SimQueue& q) {
  if (!q.in_timing) return;
  q.in_timing = false;
  untimed_count_ -= q.untimed.size();
  auto it = std::find(timing_.begin(), timing_.end(), &q);
  *it = timing_.back();
  timing_.pop_back();
}

bool Scheduler::TimeNext() {
  // The candidates: each queue's first untimed task, once its dependencies are timed. The one
  // that can start first is timed; among those that can start at the same instant (they
  // contend for the same engine slots), the queue of higher priority (lower number) first,
  // then the earlier submission. Task ids are unique, so the choice is a total order.
  SimQueue* best = nullptr;
  uint64_t best_start = 0;
  uint64_t best_earliest = 0;
  for (SimQueue* q : timing_) {
    const SimTask& t = *q->untimed.front();
    uint64_t earliest = std::max(t.earliest_ns, q->tail_end_ns);
    if (IsWaitTask(t.task.kind)) {
      if (t.awaiting_record) continue;
      if (t.record != nullptr) {
        if (!t.record->timed) continue;
        earliest = std::max(earliest, t.record->end_ns);
      }
    }
    // With one candidate queue there is no choice to make (the common case).
    const uint64_t start = timing_.size() == 1 ? 0 : q->dev->engines.StartFor(t.cost, earliest);
    if (best != nullptr) {
      const SimTask& b = *best->untimed.front();
      if (start > best_start) continue;
      if (start == best_start) {
        if (q->config.priority > best->config.priority) continue;
        if (q->config.priority == best->config.priority && t.id > b.id) continue;
      }
    }
    best = q;
    best_start = start;
    best_earliest = earliest;
  }
  if (best == nullptr) return false;
  SimQueue& q = *best;
  std::shared_ptr<SimTask> t = std::move(q.untimed.front());
  q.untimed.pop_front();
  --untimed_count_;
  TimeTask(q, *t, best_earliest);
  q.tail_end_ns = t->end_ns;
  if (t->run == RunState::kDone) t->record.reset();  // no longer needed for its time
  if (q.untimed.empty()) LeaveTiming(q);
  return true;
}

void Scheduler::TimeThrough(const SimTask& t) {
  while (!t.timed && TimeNext()) {
  }
}

void Scheduler::TimeTask(SimQueue& q, SimTask& t, uint64_t earliest) {
  DeviceSched& dev = *q.dev;
  const TaskCost& c = t.cost;
  auto duration_at = [&dev, &c, &t](uint64_t start) {
    uint64_t data = c.core_ns;
    if (c.hbm_shared && c.hbm_bytes > 0) {
      data = std::max(data, dev.hbm.ServeNs(start + c.fixed_ns, c.hbm_bytes));
    }
    return (c.fixed_ns + data) * t.slowdown;
  };
  const uint64_t ready = std::max(t.earliest_ns, q.tail_end_ns);
  t.start_ns = dev.engines.Grant(c, earliest, duration_at, &t.end_ns);
  t.timed = true;
  if (t.end_ns > dev.latest_end_ns.load(std::memory_order_relaxed)) {
    dev.latest_end_ns.store(t.end_ns, std::memory_order_relaxed);  // written under the lock
  }
  if (t.task.traced && dev.tracer) {
    driver::TaskTrace trace;
    trace.queue = q.id;
    trace.task_id = t.id;
    trace.task = &t.task;
    trace.ready_ns = std::min(ready, t.start_ns);
    trace.start_ns = t.start_ns;
    trace.end_ns = t.end_ns;
    trace.cube_ns = c.cube_ns * t.slowdown;
    trace.vector_ns = c.vector_ns * t.slowdown;
    dev.tracer(trace);
  }
  // Record this task's HBM demand for the tasks timed after it.
  if (c.hbm_shared && c.hbm_bytes > 0) {
    const uint64_t data_start = std::min(t.end_ns, t.start_ns + c.fixed_ns * t.slowdown);
    if (t.end_ns > data_start) {
      const unsigned __int128 scaled = static_cast<unsigned __int128>(c.hbm_bytes) * 1'000'000'000;
      dev.hbm.Add(data_start, t.end_ns, static_cast<uint64_t>(scaled / (t.end_ns - data_start)));
    }
  } else if (c.dma_demand > 0) {
    const uint64_t transfer = c.core_ns * t.slowdown;
    dev.hbm.Add(t.end_ns - std::min(transfer, t.end_ns - t.start_ns), t.end_ns, c.dma_demand);
  }
}

void Scheduler::TryDispatch(SimQueue& q, Work& work) {
  if (q.pending.empty()) return;
  // Not a copy (no reference count change on a task the submitting thread may be touching)
  // except where the task completes here and leaves `pending`.
  const std::shared_ptr<SimTask>& head = q.pending.front();
  if (head->run != RunState::kQueued) return;
  if (IsEventTask(head->task.kind)) {
    const std::shared_ptr<SimTask> t = head;
    DispatchEvent(q, t, work);
    return;
  }
  MakeReady(q, head);
}

void Scheduler::DispatchEvent(SimQueue& q, const std::shared_ptr<SimTask>& t, Work& work) {
  if (t->task.kind == TaskKind::kEventWait &&
      (t->awaiting_record || (t->record != nullptr && t->record->run != RunState::kDone))) {
    ArmWait(t);
    return;
  }
  if (t->task.kind == TaskKind::kWaitSignal && !ResolveSignalWait(t)) {
    ArmWait(t);
    return;
  }
  if (IsEventTask(t->task.kind) && t->fault_option == nullptr &&
      t->id != q.dev->faults.device_lost) {
    if (t->task.kind == TaskKind::kSignal) ApplySignal(t, work);
    CompleteLocked(t, Status::Ok(), work);  // nothing to execute
    return;
  }
  MakeReady(q, t);
}

void Scheduler::MakeReady(SimQueue& q, const std::shared_ptr<SimTask>& t) {
  t->run = RunState::kReady;
  if (inline_mode_) {
    inline_ready_.push_back(t);
  } else {
    DeviceSched& dev = *q.dev;
    dev.ready.push_back(t);
    dev.dispatches.fetch_add(1, std::memory_order_release);
    if (self_dispatch_ == &dev) {
      self_dispatch_ = nullptr;  // the completing worker takes this one itself
    } else if (!dev.spinning) {
      dev.work_cv.notify_one();
    }
  }
}

void Scheduler::CompleteLocked(const std::shared_ptr<SimTask>& t, Status status, Work& work) {
  SimQueue& q = *t->queue;
  DeviceSched& dev = *t->dev;
  if (in_worker_) {
    // The task (with its closures) goes to the graveyard: the host thread releases it at its
    // next call, so that memory is freed by the thread that allocated it (no cross-thread
    // malloc traffic on the launch path).
    dev.graveyard.push_back(t);
  } else {
    // Release the closures (outside the lock, via `work`). A running external task's
    // external_start may still be executing: Execute releases that one itself.
    if (t->run != RunState::kRunning || t->task.kind != TaskKind::kExternal) {
      if (t->task.external_start) work.dead_starts.push_back(std::move(t->task.external_start));
    }
    if (t->task.host_fn) work.dead_fns.push_back(std::move(t->task.host_fn));
    if (t->task.kernel_fn) {
      work.dead_fns.emplace_back([fn = std::move(t->task.kernel_fn)] { (void)fn; });
    }
  }
  t->run = RunState::kDone;
  t->status = std::move(status);
  dev.completed.store(dev.completed.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  if (!q.pending.empty() && q.pending.front() == t) {
    q.pending.pop_front();
  } else {
    q.pending.EraseFirst([&t](const std::shared_ptr<SimTask>& p) { return p == t; });
  }
  for (auto& waiter : t->waiters) {
    if (waiter->run != RunState::kDone) work.queues.push_back(waiter->queue);
  }
  t->waiters.clear();
  if (t->timed) t->record.reset();  // else TimeNext still needs the record's time
  if (t->task.kind == TaskKind::kExternal) dev.externals.erase(t->id);
  t->queue = nullptr;
  t->dev = nullptr;
  work.queues.push_back(&q);
  // A memory wait's cell may have been written by this task (a copy, a kernel).
  if (!memory_waits_.empty()) WakeMemoryWaits(work);
  // Wake Sync* / destroy waits only when one of them may be satisfied (not per task).
  if (q.pending.empty() || t->done_watchers > 0 ||
      (!q.sync_watch.empty() && DoneThrough(q, *q.sync_watch.begin()))) {
    done_cv_.notify_all();
  }
}

void Scheduler::DropUnstarted(SimQueue& q, Work& work) {
  // Tasks that started (a prefix of `untimed`) are timed as usual; the rest are dropped and
  // get a zero-length, engine-free simulated time so that waits bound to a dropped
  // record can resolve.
  while (!q.untimed.empty() && q.untimed.front()->run != RunState::kQueued &&
         q.untimed.front()->run != RunState::kReady && TimeNext()) {
  }
  ZeroTime(q);
  std::vector<std::shared_ptr<SimTask>> victims;
  for (auto& t : q.pending) {
    if (t->run == RunState::kQueued || t->run == RunState::kReady) victims.push_back(t);
  }
  for (auto& t : victims) {
    if (t->run == RunState::kReady) {
      EraseTask(q.dev->ready, t.get());
      EraseTask(inline_ready_, t.get());
    }
    CompleteLocked(t,
                   Err(StatusCode::kDeviceTaskAbort,
                       "task {} dropped: queue {} of device {} "
                       "destroyed before it started",
                       t->id, q.id, q.dev->id),
                   work);
  }
}

void Scheduler::ZeroTime(SimQueue& q) {
  LeaveTiming(q);
  for (auto& t : q.untimed) {
    t->start_ns = t->end_ns = std::max(t->earliest_ns, q.tail_end_ns);
    t->timed = true;
    if (t->run == RunState::kDone) t->record.reset();
    q.tail_end_ns = t->end_ns;
  }
  q.untimed.clear();
}

void Scheduler::ReleaseUnbound(SimEvent& event, Work& work) {
  for (auto& waiter : event.unbound_waiters) {
    if (waiter->run == RunState::kDone) continue;
    waiter->awaiting_record = false;  // no dependency any more
    work.queues.push_back(waiter->queue);
  }
  event.unbound_waiters.clear();
}

}  // namespace aclsim::sim
