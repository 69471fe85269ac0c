// Scheduler: notify counters, signal tasks (kSignal / kWaitSignal) and waits with a timeout.
#include <algorithm>
#include <utility>

#include "sim/scheduler.h"

namespace aclsim::sim {

using driver::TaskKind;

namespace {

uint64_t Applied(driver::SignalOp op, uint64_t x, uint64_t v) {
  switch (op) {
    case driver::SignalOp::kSet:
      return v;
    case driver::SignalOp::kAdd:
      return x + v;
    case driver::SignalOp::kOr:
      return x | v;
    case driver::SignalOp::kAnd:
      return x & v;
  }
  return v;
}

// Memory cells are read and written with atomics: a wait re-reads its cell when any task
// completes, and a program may write it with a copy as well as with aclrtValueWrite.
uint64_t LoadCell(const void* addr) {
  return __atomic_load_n(static_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE);
}

void StoreCell(void* addr, uint64_t value) {
  __atomic_store_n(static_cast<uint64_t*>(addr), value, __ATOMIC_RELEASE);
}

void EraseWaiter(std::vector<std::shared_ptr<SimTask>>& list, const SimTask* t) {
  auto it = std::find_if(list.begin(), list.end(),
                         [t](const std::shared_ptr<SimTask>& p) { return p.get() == t; });
  if (it != list.end()) list.erase(it);
}

}  // namespace

Status Scheduler::CreateCounter(uint32_t device, driver::CounterId* counter) {
  if (counter == nullptr) return Err(StatusCode::kInvalidParam, "CreateCounter: counter is NULL");
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  if (dev.lost) return LostError(dev);
  if (dev.counters.size() >= dev.props.max_events) {
    return Status(StatusCode::kNoEventResource,
                  fmt::format("device {}: all {} notifies of {} are in use (the simulator's "
                              "per-device limit, the SoC's event limit)",
                              device, dev.props.max_events, dev.props.soc_name),
                  207009);  // ACL_ERROR_RT_NO_NOTIFY_RESOURCE
  }
  const driver::CounterId id = dev.counter_ids.Take();
  dev.counters[id] = std::make_unique<SimCounter>();
  *counter = id;
  return Status::Ok();
}

Status Scheduler::DestroyCounter(uint32_t device, driver::CounterId counter) {
  {
    Work work;
    Lock lock(mu_);
    DeviceSched& dev = Dev(device);
    auto it = dev.counters.find(counter);
    if (it == dev.counters.end()) {
      return Err(StatusCode::kInvalidHandle,
                 "DestroyCounter: notify {} does not exist on device {}", counter, device);
    }
    // Blocked waits would never resolve: release them (as DestroyEvent does).
    for (auto& waiter : it->second->waiters) {
      waiter->wait_registered = false;
      if (waiter->run == RunState::kQueued) work.queues.push_back(waiter->queue);
    }
    std::unique_ptr<SimCounter> gone = std::move(it->second);
    dev.counters.erase(it);
    dev.counter_ids.Give(counter);
    Pump(work);
    lock.unlock();  // the records it holds are released without the lock
  }
  if (inline_mode_) DrainInline();
  return Status::Ok();
}

Status Scheduler::ResetCounter(uint32_t device, driver::CounterId counter) {
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  auto it = dev.counters.find(counter);
  if (it == dev.counters.end()) {
    return Err(StatusCode::kInvalidHandle, "ResetCounter: notify {} does not exist on device {}",
               counter, device);
  }
  it->second->value = 0;
  return Status::Ok();
}

void Scheduler::ApplySignal(const std::shared_ptr<SimTask>& t, Work& work) {
  const driver::Task& task = t->task;
  if (task.dst != nullptr) {
    StoreCell(task.dst, Applied(task.signal_op, LoadCell(task.dst), task.signal_value));
    memory_writers_[reinterpret_cast<uintptr_t>(task.dst)] = t;
    WakeMemoryWaits(work);
    return;
  }
  DeviceSched& dev = *t->dev;
  auto it = dev.counters.find(task.event);
  if (it == dev.counters.end()) return;  // destroyed since the submission: no effect
  SimCounter& counter = *it->second;
  counter.value = Applied(task.signal_op, counter.value, task.signal_value);
  counter.last_writer = t;
  for (auto& waiter : counter.waiters) {
    waiter->wait_registered = false;
    if (waiter->run == RunState::kQueued) work.queues.push_back(waiter->queue);
  }
  counter.waiters.clear();
}

bool Scheduler::ResolveSignalWait(const std::shared_ptr<SimTask>& t) {
  const driver::Task& task = t->task;
  uint64_t value = 0;
  SimCounter* counter = nullptr;
  if (task.dst != nullptr) {
    value = LoadCell(task.dst);
  } else {
    auto it = t->dev->counters.find(task.event);
    if (it == t->dev->counters.end()) {
      t->awaiting_record = false;  // the notify was destroyed: the wait is released
      return true;
    }
    counter = it->second.get();
    value = counter->value;
  }
  if (driver::WaitSatisfied(task.wait_cmp, value, task.signal_value)) {
    if (t->wait_registered) {
      EraseWaiter(counter != nullptr ? counter->waiters : memory_waits_, t.get());
      t->wait_registered = false;
    }
    t->awaiting_record = false;
    if (counter != nullptr) {
      t->record = counter->last_writer;
      if (task.wait_clear) counter->value = 0;
    } else {
      auto writer = memory_writers_.find(reinterpret_cast<uintptr_t>(task.dst));
      if (writer != memory_writers_.end()) t->record = writer->second;
      if (task.wait_clear) StoreCell(task.dst, 0);
    }
    return true;
  }
  if (!t->wait_registered) {
    t->wait_registered = true;
    (counter != nullptr ? counter->waiters : memory_waits_).push_back(t);
  }
  return false;
}

void Scheduler::WakeMemoryWaits(Work& work) {
  for (auto& waiter : memory_waits_) {
    waiter->wait_registered = false;
    if (waiter->run == RunState::kQueued) work.queues.push_back(waiter->queue);
  }
  memory_waits_.clear();
}

void Scheduler::ArmWait(const std::shared_ptr<SimTask>& t) {
  if (t->task.wait_timeout_ms == 0 || t->wait_armed) return;
  t->wait_armed = true;
  const WallClock::time_point deadline =
      WallClock::now() + std::chrono::milliseconds(t->task.wait_timeout_ms);
  const bool earliest = deadlines_.empty() || deadline < deadlines_.begin()->first;
  deadlines_.emplace(deadline, t);
  if (!timer_.joinable()) {
    timer_ = std::thread([this] { TimerLoop(); });
  } else if (earliest) {
    timer_cv_.notify_all();
  }
}

void Scheduler::TimerLoop() {
  Lock lock(mu_);
  while (!timer_stop_) {
    if (deadlines_.empty()) {
      timer_cv_.wait(lock);
      continue;
    }
    const WallClock::time_point first = deadlines_.begin()->first;
    if (WallClock::now() < first) {
      timer_cv_.wait_until(lock, first);
      continue;
    }
    std::vector<std::shared_ptr<SimTask>> expired;
    const WallClock::time_point now = WallClock::now();
    while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
      expired.push_back(std::move(deadlines_.begin()->second));
      deadlines_.erase(deadlines_.begin());
    }
    lock.unlock();
    for (const auto& t : expired) ExpireWait(t);
    expired.clear();  // the last references of completed tasks go without the lock
    lock.lock();
  }
}

void Scheduler::ExpireWait(const std::shared_ptr<SimTask>& t) {
  {
    Lock lock(mu_);
    // Satisfied (or dropped) meanwhile: nothing to do.
    if (t->run != RunState::kQueued || t->dev == nullptr) return;
    t->wait_expired = true;
    t->run = RunState::kRunning;  // claimed: no dispatch, no binding to a later record
    if (t->wait_registered) {
      if (t->task.dst != nullptr) {
        EraseWaiter(memory_waits_, t.get());
      } else if (auto it = t->dev->counters.find(t->task.event); it != t->dev->counters.end()) {
        EraseWaiter(it->second->waiters, t.get());
      }
      t->wait_registered = false;
    }
    if (!t->timed) {
      // Its simulated time no longer depends on what it waited for: it lasted the timeout.
      t->awaiting_record = false;
      t->record.reset();
      const uint64_t timeout_ns = static_cast<uint64_t>(t->task.wait_timeout_ms) * 1'000'000;
      t->cost.fixed_ns += timeout_ns;
      t->cost.duration_ns += timeout_ns;
    }
  }
  const char* what = t->task.kind == TaskKind::kEventWait ? "event wait" : "notify/value wait";
  Finish(t, Status(StatusCode::kTaskFailed,
                   fmt::format("{} timed out: not satisfied within {} ms", what,
                               t->task.wait_timeout_ms),
                   driver::kWaitTimeoutCode));
  if (inline_mode_) DrainInline();
}

}  // namespace aclsim::sim
