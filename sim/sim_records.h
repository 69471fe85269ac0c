// Internal records of the scheduler: tasks, queues, events and per-device state.
//
// Plain data. Every field is guarded by the owning Scheduler's mutex, except a task's
// `task` value: it is written at submission, then read by the thread that executes it (after
// a hand-off through the mutex). Its closures are released when the task completes: by
// CompleteLocked, except a running kExternal's external_start, which the executing thread
// releases after calling it. Either way they are destroyed without the mutex held.
//
// Invariants (see scheduler.h for the rules they implement):
//  * a queue's `pending` holds its not-yet-completed tasks in submission order; only its
//    front is ever dispatched or running;
//  * `untimed` holds, in submission order, the queue's tasks whose simulated times are not yet
//    known; it may still hold tasks that completed (execution does not wait for timing), so
//    a reader of a task's times first times it (Scheduler::TimeThrough);
//  * a wait keeps its `record` until it is both done and timed (its time depends on it);
//  * a task that is not done points at its live queue and device; a done task's pointers are
//    cleared and never followed;
//  * a record's `waiters` are the not-done waits bound to it (cleared when it completes).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "driver/driver.h"
#include "sim/backend_config.h"
#include "sim/cost_model.h"
#include "sim/engine_timeline.h"
#include "sim/hbm_timeline.h"
#include "sim/kernel_cost.h"
#include "sim/soc_profile.h"
#include "sim/task_fifo.h"

namespace aclsim::sim {

struct SimQueue;
struct DeviceSched;

enum class RunState {
  kQueued,   // waiting for its queue predecessor / event dependency / simulated time
  kReady,    // handed to a worker (or the inline ready list), not started
  kRunning,  // executing (or, for kExternal, waiting for CompleteExternal)
  kDone,
};

struct SimTask {
  uint64_t id = 0;
  driver::Task task;
  DeviceSched* dev = nullptr;  // cleared when done
  SimQueue* queue = nullptr;   // cleared when done
  driver::QueueId queue_id = 0;
  TaskCost cost;
  uint64_t slowdown = 1;  // fault injection: duration factor (fault_slow_dma)
  // Fault injection decided at submission: fail instead of executing, with this runtime code
  // (0: the kind's usual code) and the option named in the message.
  const char* fault_option = nullptr;
  uint32_t fault_code = 0;

  // Simulated time.
  uint64_t earliest_ns = 0;  // submitting thread's clock after the submit cost
  bool timed = false;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;

  // kEventWait: the record it is bound to (null if unbound or released). kWaitSignal: once
  // satisfied, the kSignal task that last changed the cell (null if none did), whose end
  // bounds the wait's simulated time.
  std::shared_ptr<SimTask> record;
  // kEventWait: no record submitted yet: waits for the next one. kWaitSignal: not satisfied
  // yet (set from submission until the condition holds). Either way: cannot be timed yet.
  bool awaiting_record = false;
  // Wait tasks with Task::wait_timeout_ms: armed (a deadline registered with the timer) once
  // the task blocked at the head of its queue; expired: failed by the timer.
  bool wait_armed = false;
  bool wait_expired = false;
  bool wait_registered = false;  // kWaitSignal: listed with its blocked cell
  // kKernel over its Task::exec_timeout_ns: its simulated duration alone (it fails instead of
  // running; fault_option / fault_code say so). 0 = no timeout.
  uint64_t timed_out_ns = 0;
  // kEventRecord: waits bound to this record that are not done yet.
  std::vector<std::shared_ptr<SimTask>> waiters;

  // Functional state.
  RunState run = RunState::kQueued;
  uint32_t done_watchers = 0;  // SyncEvent calls waiting for this task to complete
  Status status;
  bool external_completed_early = false;  // CompleteExternal before external_start
  Status external_status;
};

struct SimQueue {
  driver::QueueId id = 0;
  driver::QueueConfig config;
  DeviceSched* dev = nullptr;
  TaskFifo<std::shared_ptr<SimTask>> pending;  // submitted, not completed (submission order)
  std::deque<std::shared_ptr<SimTask>> untimed;
  bool in_timing = false;         // listed in the scheduler's timing window (untimed not empty)
  uint64_t tail_end_ns = 0;       // simulated end of the last timed task
  std::shared_ptr<SimTask> last;  // last submitted task (for SyncQueue)
  Status error;                   // first failure since the last successful sync
  bool closing = false;           // DestroyQueue in progress: no more submissions
  // Task ids that SyncQueue / SyncDevice calls wait through (see DoneThrough): a completion
  // wakes the waiting threads only when the lowest of them is reached or the queue drains.
  std::multiset<uint64_t> sync_watch;
};

// True when every task of `q` with an id <= `id` has completed. (Tasks normally complete in
// queue order, but a forced destroy completes dropped tasks before the running one.)
inline bool DoneThrough(const SimQueue& q, uint64_t id) {
  return q.pending.empty() || q.pending.front()->id > id;
}

struct SimEvent {
  uint32_t flags = 0;
  std::shared_ptr<SimTask> latest_record;  // null: never recorded or reset since
  std::vector<std::shared_ptr<SimTask>> unbound_waiters;
};

// A notify counter (driver.h CreateCounter).
struct SimCounter {
  uint64_t value = 0;
  std::shared_ptr<SimTask> last_writer;           // kSignal that last changed it
  std::vector<std::shared_ptr<SimTask>> waiters;  // blocked kWaitSignal tasks (queue heads)
};

// Lowest-free id allocation (like a hardware id pool).
class IdPool {
 public:
  uint32_t Take() {
    if (!free_.empty()) {
      const uint32_t id = *free_.begin();
      free_.erase(free_.begin());
      return id;
    }
    return next_++;
  }
  void Give(uint32_t id) { free_.insert(id); }

 private:
  std::set<uint32_t> free_;
  uint32_t next_ = 0;
};

struct DeviceSched {
  DeviceSched(uint32_t device_id, const driver::DeviceProps& props, const CostParams& cost)
      : id(device_id), props(props), cost(cost), engines(props, cost), hbm(cost.hbm_bytes_per_s) {}

  const uint32_t id;
  const driver::DeviceProps props;
  const CostParams cost;
  EngineTimeline engines;
  HbmTimeline hbm;
  FaultConfig faults;
  uint64_t next_task_id = 1;
  // Read without the lock (SimDevice::MemoryFence, Counters); written under it. Tasks in
  // flight: last_issued - completed (read `completed` first).
  std::atomic<uint64_t> last_issued{0};    // id of the last submitted task
  std::atomic<uint64_t> latest_end_ns{0};  // latest simulated end of a timed task (Counters)
  uint64_t kernel_count = 0;               // kernels submitted (fault_aicore_exception)
  std::atomic<bool> lost{false};           // fault_device_lost fired (read without the lock)
  TlbCounts tlb;                           // translations of every submitted task
  EstimateMemo estimates;                  // recent kernels' cost estimates

  std::map<driver::QueueId, std::shared_ptr<SimQueue>> queues;
  IdPool queue_ids;                    // hardware stream ids
  std::vector<uint32_t> stream_cache;  // ids held by destroyed persistent queues (LIFO)
  std::map<driver::EventId, std::unique_ptr<SimEvent>> events;
  IdPool event_ids;
  std::map<driver::CounterId, std::unique_ptr<SimCounter>> counters;
  IdPool counter_ids;

  std::deque<std::shared_ptr<SimTask>> ready;  // async mode: tasks for the workers
  std::condition_variable_any work_cv;         // waits on the scheduler mutex
  // Async mode: a worker that leaves the device idle (nothing ready, nothing executing)
  // first spins for a short while (without the mutex) before it sleeps, so that a program
  // enqueueing small tasks back to back does not pay a thread wake-up per task. At most one
  // worker spins; `dispatches` (bumped whenever `ready` grows or the device stops) is what it
  // watches, and a dispatch with a spinner signals no one.
  uint32_t executing = 0;  // tasks the workers are executing
  bool spinning = false;
  // Tasks completed (see last_issued), written by the workers: on a cache line of its own, as
  // the fields above are the submitting thread's.
  alignas(64) std::atomic<uint64_t> completed{0};
  char completed_pad[64 - sizeof(std::atomic<uint64_t>)] = {};
  alignas(64) std::atomic<uint64_t> dispatches{0};
  char dispatches_pad[64 - sizeof(std::atomic<uint64_t>)] = {};  // alone on its cache line
  bool stopping = false;  // workers exit when `ready` is empty
  bool closed = false;    // StopDevice called

  std::unordered_map<uint64_t, std::shared_ptr<SimTask>> externals;  // not-done kExternal
  // Tasks completed by workers, released by the next host call on the device (Submit, Sync*,
  // DestroyQueue) without the lock: their memory goes back to the thread that allocated it.
  std::vector<std::shared_ptr<SimTask>> graveyard;
  std::function<void(const driver::TaskFailure&)> failure_handler;
  std::function<void(const driver::TaskTrace&)> tracer;  // Task::traced tasks, when timed
  uint32_t watchdog_ms = 0;                              // driver.h SetWatchdog; 0 = off
  std::function<void(const std::string&)> watchdog;
};

// The Status of every call on a lost device (driver.h: kDeviceLostCode).
inline Status LostError(const DeviceSched& dev) {
  return Status(StatusCode::kTaskFailed,
                fmt::format("device {} is lost (fault injection: fault_device_lost={}); every "
                            "call fails until the device is reset",
                            dev.id, dev.faults.device_lost),
                driver::kDeviceLostCode);
}

}  // namespace aclsim::sim
