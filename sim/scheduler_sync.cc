// Scheduler: queue and event management, queries and the Sync* waits.
#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "sim/host_clock.h"
#include "sim/scheduler.h"

namespace aclsim::sim {
namespace {

// Registers a wait through task `id` of `q` for the lifetime of the object (mutex held; the
// object must be destroyed before the lock is released).
class WatchThrough {
 public:
  WatchThrough(SimQueue& q, uint64_t id) : q_(q), it_(q.sync_watch.insert(id)) {}
  ~WatchThrough() { q_.sync_watch.erase(it_); }
  WatchThrough(const WatchThrough&) = delete;
  WatchThrough& operator=(const WatchThrough&) = delete;

 private:
  SimQueue& q_;
  std::multiset<uint64_t>::iterator it_;
};

// Counts a SyncEvent wait on a record for the lifetime of the object (mutex held).
class WatchDone {
 public:
  explicit WatchDone(SimTask& t) : t_(t) { ++t_.done_watchers; }
  ~WatchDone() { --t_.done_watchers; }
  WatchDone(const WatchDone&) = delete;
  WatchDone& operator=(const WatchDone&) = delete;

 private:
  SimTask& t_;
};

}  // namespace

bool Scheduler::WaitFor(Lock& lock, int32_t timeout_ms, const std::function<bool()>& done,
                        DeviceSched* dev, const char* what,
                        const std::function<std::string()>& blocked) {
  const uint32_t period_ms = dev != nullptr && dev->watchdog ? dev->watchdog_ms : 0;
  if (period_ms == 0) {
    if (driver::WaitsForever(timeout_ms)) {
      done_cv_.wait(lock, done);
      return true;
    }
    return done_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const bool forever = driver::WaitsForever(timeout_ms);
  const Clock::time_point deadline = start + std::chrono::milliseconds(forever ? 0 : timeout_ms);
  Clock::time_point next_report = start + std::chrono::milliseconds(period_ms);
  for (int reports = 1;; ++reports) {
    const Clock::time_point wake = forever ? next_report : std::min(next_report, deadline);
    if (done_cv_.wait_until(lock, wake, done)) return true;
    if (!forever && Clock::now() >= deadline) return false;
    if (Clock::now() < next_report) continue;
    const std::string report =
        fmt::format("{} has waited {} ms and is still blocked: {}", what,
                    static_cast<uint64_t>(period_ms) * static_cast<uint64_t>(reports),
                    blocked ? blocked() : std::string("(no detail)"));
    std::function<void(const std::string&)> handler = dev->watchdog;
    lock.unlock();
    handler(report);
    lock.lock();
    next_report += std::chrono::milliseconds(period_ms);
  }
}

std::string Scheduler::DescribeBlocked(const SimQueue& q, int depth) {
  if (q.pending.empty()) return fmt::format("stream {} has no pending task", q.id);
  const SimTask& t = *q.pending.front();
  std::string text =
      fmt::format("stream {} task {} ({})", q.id, t.id,
                  t.task.label != nullptr && *t.task.label != '\0' ? t.task.label : "unnamed task");
  switch (t.run) {
    case RunState::kRunning:
      if (t.task.kind == driver::TaskKind::kHostFunc) {
        return text + " is running a host function or callback that has not returned";
      }
      if (t.task.kind == driver::TaskKind::kExternal) {
        return text + " is waiting for its external completion";
      }
      return text + " is running";
    case RunState::kReady:
      return text + " is ready and waiting for a worker thread";
    case RunState::kDone:
      return text + " has completed";
    case RunState::kQueued:
      break;
  }
  if (t.task.kind == driver::TaskKind::kWaitSignal) {
    if (t.task.dst != nullptr) {
      return text +
             fmt::format(" waits for the value at {} to satisfy its condition (aclrtValueWait)",
                         t.task.dst);
    }
    return text + fmt::format(" waits for notify {} of device {}", t.task.event, q.dev->id);
  }
  if (t.task.kind != driver::TaskKind::kEventWait) return text + " has not started";
  const std::shared_ptr<SimTask>& record = t.record;
  if (record == nullptr) {
    return text + fmt::format(
                      " waits for event {} of device {}, which has not been recorded (no "
                      "aclrtRecordEvent submitted since its creation or last reset)",
                      t.task.event, t.task.event_device);
  }
  if (record->run == RunState::kDone || record->queue == nullptr) {
    return text + fmt::format(" waits for event {}, whose record (task {}) has completed",
                              t.task.event, record->id);
  }
  text += fmt::format(" waits for event {}, recorded by task {} of stream {}", t.task.event,
                      record->id, record->queue_id);
  constexpr int kMaxDepth = 4;
  if (depth < kMaxDepth && record->queue != &q) {
    text += "; " + DescribeBlocked(*record->queue, depth + 1);
  }
  return text;
}

Status Scheduler::CreateQueue(uint32_t device, const driver::QueueConfig& config,
                              driver::QueueId* queue) {
  if (queue == nullptr) return Err(StatusCode::kInvalidParam, "CreateQueue: queue is NULL");
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  if (dev.lost) return LostError(dev);
  const bool persistent = (config.flags & driver::kQueueFlagPersistent) != 0;
  uint32_t id = 0;
  uint64_t cost_ns = dev.cost.stream_create_cost_ns;
  if (persistent && !dev.stream_cache.empty()) {
    id = dev.stream_cache.back();  // reuse a cached persistent stream's resources
    dev.stream_cache.pop_back();
    cost_ns = dev.cost.stream_reuse_cost_ns;
  } else if (dev.queues.size() + dev.stream_cache.size() < dev.props.max_streams) {
    id = dev.queue_ids.Take();
  } else if (!dev.stream_cache.empty()) {
    id = dev.stream_cache.back();  // reclaim a cached stream id: full creation cost
    dev.stream_cache.pop_back();
  } else {
    return Err(StatusCode::kNoStreamResource,
               "device {}: all {} streams of {} are in use (the SoC's per-device limit)", device,
               dev.props.max_streams, dev.props.soc_name);
  }
  auto q = std::make_shared<SimQueue>();
  q->id = id;
  q->config = config;
  q->dev = &dev;
  dev.queues[q->id] = q;
  *queue = q->id;
  HostClocks::Advance(clock_domain_, cost_ns);
  return Status::Ok();
}

Status Scheduler::DestroyQueue(uint32_t device, driver::QueueId queue, bool force) {
  if (inline_mode_) DrainInline();
  Work work;
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  std::shared_ptr<SimQueue> q = FindQueue(dev, queue);
  if (q == nullptr || q->closing) {
    return Err(StatusCode::kInvalidHandle, "DestroyQueue: queue {} does not exist on device {}",
               queue, device);
  }
  q->closing = true;
  if (force) {
    DropUnstarted(*q, work);
    Pump(work);
    if (inline_mode_) {
      lock.unlock();
      DrainInline();  // waits released by dropped records
      lock.lock();
    }
  }
  (void)WaitFor(
      lock, -1, [&q] { return q->pending.empty(); }, &dev, "destroying a stream",
      [&q] { return DescribeBlocked(*q); });
  TakeGraveyard(dev, work);
  if (q->last != nullptr) TimeThrough(*q->last);
  ZeroTime(*q);  // leaves the timing window (nothing is left to time)
  dev.queues.erase(q->id);
  if ((q->config.flags & driver::kQueueFlagPersistent) != 0) {
    dev.stream_cache.push_back(q->id);  // resources stay allocated for reuse
    HostClocks::Advance(clock_domain_, dev.cost.stream_recycle_cost_ns);
  } else {
    dev.queue_ids.Give(q->id);
    HostClocks::Advance(clock_domain_, dev.cost.stream_destroy_cost_ns);
  }
  return Status::Ok();
}

Status Scheduler::SyncQueue(uint32_t device, driver::QueueId queue, int32_t timeout_ms) {
  if (inline_mode_) DrainInline();
  Work work;  // the graveyard, released after the lock
  Lock lock(mu_);
  // A lost device still drains (its tasks complete without running) before the sync fails,
  // so the failure of the task that lost it has been reported by then.
  std::shared_ptr<SimQueue> q = FindQueue(Dev(device), queue);
  if (q == nullptr) {
    if (Dev(device).lost) return LostError(Dev(device));
    return Err(StatusCode::kInvalidHandle, "SyncQueue: queue {} does not exist on device {}", queue,
               device);
  }
  std::shared_ptr<SimTask> last = q->last;
  if (last == nullptr) return Dev(device).lost ? LostError(Dev(device)) : Status::Ok();
  const WatchThrough watch(*q, last->id);
  auto blocked = [&q] { return DescribeBlocked(*q); };
  if (!WaitFor(
          lock, timeout_ms, [&] { return DoneThrough(*q, last->id); }, &Dev(device),
          "a stream synchronisation", blocked)) {
    return Err(StatusCode::kStreamSyncTimeout,
               "SyncQueue: queue {} of device {} did not complete within {} ms (task {} still "
               "pending; {})",
               queue, device, timeout_ms, last->id, blocked());
  }
  TakeGraveyard(Dev(device), work);
  if (Dev(device).lost) return LostError(Dev(device));
  TimeThrough(*last);
  HostClocks::AdvanceTo(clock_domain_, last->end_ns);
  if (last->status.code() == StatusCode::kDeviceTaskAbort) return last->status;
  Status error = std::move(q->error);
  q->error = Status::Ok();
  return error;
}

driver::QueueState Scheduler::QueryQueue(uint32_t device, driver::QueueId queue) {
  Lock lock(mu_);
  driver::QueueState state;
  std::shared_ptr<SimQueue> q = FindQueue(Dev(device), queue);
  if (q == nullptr) return state;
  state.idle = q->pending.empty();
  state.last_task_id = q->last != nullptr ? q->last->id : 0;
  state.error = q->error;
  return state;
}

Status Scheduler::SyncDevice(uint32_t device, int32_t timeout_ms) {
  if (inline_mode_) DrainInline();
  Work work;  // the graveyard, released after the lock
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  std::vector<std::pair<std::shared_ptr<SimQueue>, std::shared_ptr<SimTask>>> lasts;
  for (auto& [id, q] : dev.queues) {
    if (q->last != nullptr) lasts.emplace_back(q, q->last);
  }
  std::vector<std::unique_ptr<WatchThrough>> watches;
  watches.reserve(lasts.size());
  for (auto& [q, last] : lasts) watches.push_back(std::make_unique<WatchThrough>(*q, last->id));
  auto all_done = [&lasts] {
    return std::all_of(lasts.begin(), lasts.end(), [](const auto& entry) {
      return DoneThrough(*entry.first, entry.second->id);
    });
  };
  auto blocked = [&lasts] {
    std::string text;
    for (const auto& [q, last] : lasts) {
      if (DoneThrough(*q, last->id)) continue;
      text += (text.empty() ? "" : "; ") + DescribeBlocked(*q);
    }
    return text;
  };
  if (!WaitFor(lock, timeout_ms, all_done, &dev, "a device synchronisation", blocked)) {
    return Err(StatusCode::kStreamSyncTimeout,
               "SyncDevice: device {} did not complete within {} ms ({})", device, timeout_ms,
               blocked());
  }
  TakeGraveyard(dev, work);
  if (dev.lost) return LostError(dev);  // after draining, as SyncQueue
  uint64_t end = 0;
  for (const auto& entry : lasts) {
    TimeThrough(*entry.second);
    end = std::max(end, entry.second->end_ns);
  }
  HostClocks::AdvanceTo(clock_domain_, end);
  // Report the first failure (lowest queue id) once; a failure is reported by one sync only.
  Status error;
  for (auto& [id, q] : dev.queues) {
    if (error.ok() && !q->error.ok()) error = q->error;
    q->error = Status::Ok();
  }
  return error;
}

Status Scheduler::CreateEvent(uint32_t device, uint32_t flags, driver::EventId* event) {
  if (event == nullptr) return Err(StatusCode::kInvalidParam, "CreateEvent: event is NULL");
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  if (dev.lost) return LostError(dev);
  if (dev.events.size() >= dev.props.max_events) {
    return Err(StatusCode::kNoEventResource,
               "device {}: all {} events of {} are in use (the SoC's per-device limit)", device,
               dev.props.max_events, dev.props.soc_name);
  }
  const driver::EventId id = dev.event_ids.Take();
  auto record = std::make_unique<SimEvent>();
  record->flags = flags;
  dev.events[id] = std::move(record);
  *event = id;
  return Status::Ok();
}

Status Scheduler::DestroyEvent(uint32_t device, driver::EventId event) {
  {
    Work work;
    Lock lock(mu_);
    DeviceSched& dev = Dev(device);
    auto it = dev.events.find(event);
    if (it == dev.events.end()) {
      return Err(StatusCode::kInvalidHandle, "DestroyEvent: event {} does not exist on device {}",
                 event, device);
    }
    // Waits still waiting for a first record would never resolve: release them.
    ReleaseUnbound(*it->second, work);
    Pump(work);
    dev.events.erase(it);
    dev.event_ids.Give(event);
  }
  if (inline_mode_) DrainInline();
  return Status::Ok();
}

driver::Device::EventState Scheduler::QueryEvent(uint32_t device, driver::EventId event) {
  Lock lock(mu_);
  driver::Device::EventState state;
  DeviceSched& dev = Dev(device);
  auto it = dev.events.find(event);
  if (it == dev.events.end() || it->second->latest_record == nullptr) return state;
  const SimTask& record = *it->second->latest_record;
  // Timed whether or not it completed: when timing happens must not depend on wall-clock time.
  TimeThrough(record);
  state.recorded = true;
  state.complete = record.run == RunState::kDone;
  state.timestamp_ns = state.complete ? record.end_ns : 0;
  return state;
}

Status Scheduler::SyncEvent(uint32_t device, driver::EventId event, int32_t timeout_ms) {
  if (inline_mode_) DrainInline();
  Work work;  // the graveyard, released after the lock
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  auto it = dev.events.find(event);
  if (it == dev.events.end()) {
    if (dev.lost) return LostError(dev);
    return Err(StatusCode::kInvalidHandle, "SyncEvent: event {} does not exist on device {}", event,
               device);
  }
  std::shared_ptr<SimTask> record = it->second->latest_record;
  if (record == nullptr) return dev.lost ? LostError(dev) : Status::Ok();
  const WatchDone watch(*record);
  auto blocked = [&record] {
    return record->queue != nullptr ? DescribeBlocked(*record->queue) : std::string("completed");
  };
  if (!WaitFor(
          lock, timeout_ms, [&record] { return record->run == RunState::kDone; }, &dev,
          "an event synchronisation", blocked)) {
    return Err(StatusCode::kEventSyncTimeout,
               "SyncEvent: event {} of device {} was not reached within {} ms (record task {} "
               "pending; {})",
               event, device, timeout_ms, record->id, blocked());
  }
  TakeGraveyard(dev, work);
  if (dev.lost) return LostError(dev);  // after the record completed, as SyncQueue
  TimeThrough(*record);
  HostClocks::AdvanceTo(clock_domain_, record->end_ns);
  if (record->status.code() == StatusCode::kDeviceTaskAbort) return record->status;
  return Status::Ok();
}

Status Scheduler::LostStatus(uint32_t device) {
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  return dev.lost ? LostError(dev) : Status::Ok();
}

TlbCounts Scheduler::TlbTotals(uint32_t device) {
  Lock lock(mu_);
  return Dev(device).tlb;
}

const DeviceSched* Scheduler::Progress(uint32_t device) {
  Lock lock(mu_);
  return &Dev(device);
}

bool Scheduler::FenceReached(uint32_t device, uint64_t fence) {
  Lock lock(mu_);
  auto it = devices_.find(device);
  if (it == devices_.end()) return true;
  for (const auto& entry : it->second->queues) {
    if (!DoneThrough(*entry.second, fence)) return false;
  }
  return true;
}

bool Scheduler::QueueDoneThrough(uint32_t device, driver::QueueId queue, uint64_t task_id) {
  Lock lock(mu_);
  auto it = devices_.find(device);
  if (it == devices_.end()) return true;
  auto q = it->second->queues.find(queue);
  return q == it->second->queues.end() || DoneThrough(*q->second, task_id);
}

void Scheduler::SetWatchdog(uint32_t device, uint32_t period_ms,
                            std::function<void(const std::string&)> report) {
  Lock lock(mu_);
  DeviceSched& dev = Dev(device);
  dev.watchdog_ms = period_ms;
  std::swap(dev.watchdog, report);
  lock.unlock();  // the old handler is destroyed without the lock
}

void Scheduler::SetTaskTracer(uint32_t device,
                              std::function<void(const driver::TaskTrace&)> tracer) {
  Lock lock(mu_);
  std::swap(Dev(device).tracer, tracer);
  lock.unlock();  // the old tracer is destroyed without the lock
}

void Scheduler::FlushTraces(uint32_t device) {
  Lock lock(mu_);
  FlushLocked(Dev(device));
}

void Scheduler::FlushLocked(DeviceSched& dev) {
  for (auto& [id, q] : dev.queues) {
    // Time the queue's tasks up to the first that cannot be timed yet (a wait for a record
    // not submitted); TimeNext times other queues' tasks as their order requires.
    while (!q->untimed.empty() && !q->untimed.front()->awaiting_record) {
      const std::shared_ptr<SimTask> next = q->untimed.front();
      TimeThrough(*next);
      if (!next->timed) break;
    }
  }
}

void Scheduler::SetFailureHandler(uint32_t device,
                                  std::function<void(const driver::TaskFailure&)> handler) {
  Lock lock(mu_);
  std::swap(Dev(device).failure_handler, handler);
  lock.unlock();  // the old handler is destroyed without the lock
}

}  // namespace aclsim::sim
