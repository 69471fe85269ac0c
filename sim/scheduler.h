// Scheduler: the task scheduler of one backend instance, shared by all its devices.
//
// Two independent halves, both driven by the submission sequence:
//
// Simulated time (deterministic). A task's earliest start is the maximum of
//  * the submitting thread's simulated clock right after Submit added the API submit cost,
//  * the simulated end of its queue predecessor,
//  * for kEventWait, the timestamp (simulated end) of the record it is bound to.
// A wait binds to the latest record of the event submitted before it; if there is none (never
// recorded, or reset since), it binds to the next record submitted. Tasks are not timed when
// they are submitted but kept in a timing window (all queues of all devices), as a hardware
// task scheduler sees the queued tasks of every stream: when a task is timed, the candidates
// are each queue's first untimed task whose dependencies are timed, and the one that can start
// first on its engine slots (EngineTimeline) wins; when several can start at the same instant
// (they contend for the same slots), the stream of higher priority (lower number) wins, then
// the earlier submission. So a high-priority stream's kernels overtake the queued kernels of
// a low-priority stream, but never preempt a started one. Tasks are timed when their time is
// needed (Sync*, QueryEvent, DestroyQueue) and whenever the window holds more than
// kTimingWindow tasks; all of these happen in host calls, never in the workers, so the
// schedule is a deterministic function of the program's sequence of calls. Wall-clock
// progress never enters.
//
// Functional execution (eager). A task is ready when its queue predecessor has completed and,
// for kEventWait, its bound record has completed; it need not be timed. Event tasks complete at
// once; the others run on the device's worker threads ("sim") or in the thread that made them
// ready, inside Submit / CompleteExternal / Sync* ("sim-inline"). No worker ever blocks on a
// dependency.
//
// HBM sharing: when a task is timed, its HBM-bound phase is served by the device's
// HbmTimeline (hbm_timeline.h) given the demand of the tasks timed before it, and its own
// demand is recorded there. Stream resources: CreateQueue/DestroyQueue take/give hardware
// stream ids and charge the calling thread's clock (persistent queues use a cache; driver.h).
//
// Watchdog (driver.h SetWatchdog): the Sync* waits, DestroyQueue and SyncDevice report what
// they are blocked on after every watchdog period; timeout messages name it too.
//
// Waits with a timeout (Task::wait_timeout_ms; scheduler_waits.cc): a wait that blocks at the
// head of its queue is armed with a wall-clock deadline; a timer thread (started with the first
// such wait) fails it with kWaitTimeoutCode when the deadline passes first. Wall-clock, not
// simulated, time: what it waits for is recorded by the host program, which may not have
// submitted it yet. A wait that expired before it was timed gets the timeout as its simulated
// duration. Signal waits (kWaitSignal) are evaluated when they reach the head of their queue
// and again whenever their cell may have changed (a kSignal on it; for memory cells any task
// completion); until satisfied they cannot be timed, and once satisfied their simulated time
// follows the kSignal that last changed the cell.
//
// Op execute timeout (Task::exec_timeout_ns): decided at submission from the kernel's
// simulated duration alone on its engine, so deterministic; such a kernel fails with its
// engine's timeout code without running its body, and lasts exactly the timeout.
//
// Failures: a task fails if its host function throws, if CompleteExternal reports an error,
// or if fault injection selects it (backend_config.h: fault_fail_task,
// fault_aicore_exception, fault_device_lost; decided at submission or start). The failure is
// recorded on the queue (first one since the last successful sync), the failure handler is
// called without the lock held, then the task completes and the queue continues.
//
// Thread-safety: every public method may be called from any thread. One mutex guards all
// scheduling state of all devices (so cross-device waits need no lock ordering); it is never
// held while user code (host functions, external_start, the failure handler) runs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/inline_vector.h"
#include "common/status.h"
#include "driver/driver.h"
#include "sim/adaptive_mutex.h"
#include "sim/sim_records.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

class Scheduler {
 public:
  // `inline_mode`: execute ready tasks in the calling thread (sim-inline) instead of workers.
  explicit Scheduler(bool inline_mode);
  ~Scheduler();

  bool inline_mode() const { return inline_mode_; }
  // The clock domain of this backend instance (see HostClocks).
  uint64_t clock_domain() const { return clock_domain_; }

  // --- device lifetime -------------------------------------------------------------------
  // kInvalidDevice if `device` is already open.
  Status OpenDevice(uint32_t device, const driver::DeviceProps& props, const CostParams& cost,
                    const FaultConfig& faults);
  // Drops every task that has not started (kDeviceTaskAbort), aborts running kExternal tasks,
  // releases waits (on any device) blocked on this device's events, waits for running tasks
  // and tells the device's workers to exit. Cross-device references to the device fail after.
  void StopDevice(uint32_t device);
  // Forgets the device; call after its workers have been joined.
  void RemoveDevice(uint32_t device);
  // Body of one worker thread of `device` (async mode); returns after StopDevice.
  void WorkerLoop(uint32_t device);

  // --- driver::Device operations (see driver.h for the contracts) ------------------------
  Status CreateQueue(uint32_t device, const driver::QueueConfig& config, driver::QueueId* queue);
  Status DestroyQueue(uint32_t device, driver::QueueId queue, bool force);
  // `translation`: the device buffers the task touches with their page sizes (TLB model).
  Status Submit(uint32_t device, driver::QueueId queue, driver::Task&& task,
                const TaskTranslation& translation, uint64_t* task_id);
  Status SyncQueue(uint32_t device, driver::QueueId queue, int32_t timeout_ms);
  driver::QueueState QueryQueue(uint32_t device, driver::QueueId queue);
  Status SyncDevice(uint32_t device, int32_t timeout_ms);
  void CompleteExternal(uint32_t device, uint64_t task_id, Status status);
  Status CreateEvent(uint32_t device, uint32_t flags, driver::EventId* event);
  Status DestroyEvent(uint32_t device, driver::EventId event);
  driver::Device::EventState QueryEvent(uint32_t device, driver::EventId event);
  Status SyncEvent(uint32_t device, driver::EventId event, int32_t timeout_ms);
  Status CreateCounter(uint32_t device, driver::CounterId* counter);
  Status DestroyCounter(uint32_t device, driver::CounterId counter);
  Status ResetCounter(uint32_t device, driver::CounterId counter);
  void SetFailureHandler(uint32_t device, std::function<void(const driver::TaskFailure&)> h);
  void SetTaskTracer(uint32_t device, std::function<void(const driver::TaskTrace&)> tracer);
  void FlushTraces(uint32_t device);
  void SetWatchdog(uint32_t device, uint32_t period_ms, std::function<void(const std::string&)> r);

  // OK, or the device-lost Status (detail kDeviceLostCode) once fault_device_lost fired.
  Status LostStatus(uint32_t device);
  // TLB translations of every task submitted to the device so far.
  TlbCounts TlbTotals(uint32_t device);
  // Memory fences (driver.h): the device's task counters, readable without the lock and
  // valid until RemoveDevice; and whether every task with an id <= `fence` has completed.
  const DeviceSched* Progress(uint32_t device);
  bool FenceReached(uint32_t device, uint64_t fence);
  bool QueueDoneThrough(uint32_t device, driver::QueueId queue, uint64_t task_id);

 private:
  using Lock = std::unique_lock<AdaptiveMutex>;
  // What a locked operation leaves to do. Declare it before taking the lock: the closures of
  // completed tasks are moved into it and destroyed after the lock is released, because
  // their destructors are user code that may call back into the driver.
  struct Work {
    Work() = default;
    Work(const Work&) = delete;
    Work& operator=(const Work&) = delete;
    // Releases the graveyard's closures first: a task record may outlive its closures (the
    // queue's `last`, an event's latest record), and their destructors must run now.
    ~Work();
    InlineVector<SimQueue*, 8> queues;  // to re-examine (FIFO: part of the deterministic order)
    std::vector<std::function<void()>> dead_fns;
    std::vector<std::function<void(uint64_t)>> dead_starts;
    std::vector<std::shared_ptr<SimTask>> dead_tasks;  // a device's graveyard
  };
  // Moves the device's graveyard (tasks completed by workers) into `work`, leaving the
  // workers room for the next tasks (allocated here, by the host thread, so a worker's
  // completion does not allocate). mu_ held. Measured on the 2-core VM, per aclopExecuteV2
  // with the synchronisations: 1.59 us without the room, 1.24 us with it. (Taking it in
  // batches instead made the call cheaper, 0.97 us, but the device slower: 1.52 us.)
  static void TakeGraveyard(DeviceSched& dev, Work& work) {
    if (dev.graveyard.empty()) return;
    work.dead_tasks.swap(dev.graveyard);
    dev.graveyard.reserve(2);
  }

  DeviceSched& Dev(uint32_t device);  // an open (or stopping) device
  std::shared_ptr<SimQueue> FindQueue(DeviceSched& dev, driver::QueueId queue);

  // All of these require mu_ held.
  Status BindEvent(DeviceSched& dev, const std::shared_ptr<SimTask>& t, Work& work);
  void Pump(Work& work);
  // The timing window (see the class comment).
  void AddUntimed(SimQueue& q, const std::shared_ptr<SimTask>& t);
  void LeaveTiming(SimQueue& q);
  // Times the winning candidate; false if there is none.
  bool TimeNext();
  // Times tasks until `t` is timed (or nothing more can be timed).
  void TimeThrough(const SimTask& t);
  // Times every task of `dev` that can be timed now (FlushTraces).
  void FlushLocked(DeviceSched& dev);
  // Gives q's untimed tasks zero-length, engine-free times (dropped tasks).
  void ZeroTime(SimQueue& q);
  // Dispatches q's head if it can run: marks it ready for a worker (MakeReady), or, for the
  // event kinds (DispatchEvent), completes it at once or arms its wait.
  void TryDispatch(SimQueue& q, Work& work);
  void DispatchEvent(SimQueue& q, const std::shared_ptr<SimTask>& t, Work& work);
  void MakeReady(SimQueue& q, const std::shared_ptr<SimTask>& t);
  // The caller must hold its own reference to `t` (it leaves the queue here).
  void CompleteLocked(const std::shared_ptr<SimTask>& t, Status status, Work& work);
  void DropUnstarted(SimQueue& q, Work& work);
  void ReleaseUnbound(SimEvent& event, Work& work);
  // Waits on done_cv_ until done() (true) or timeout_ms passes (false; < 0: forever). With
  // `dev`'s watchdog on, reports `what` and blocked() (see DescribeBlocked) after every
  // watchdog period, releasing the lock for the report.
  bool WaitFor(Lock& lock, int32_t timeout_ms, const std::function<bool()>& done,
               DeviceSched* dev = nullptr, const char* what = "",
               const std::function<std::string()>& blocked = {});
  // What keeps q's oldest pending task from completing: its id, label and state, and for an
  // event wait the record it waits for (following that record's queue a few levels).
  static std::string DescribeBlocked(const SimQueue& q, int depth = 0);

  // What a worker must do with a task it picks (decided under mu_).
  struct StartInfo {
    bool inject_fault = false;
    bool lost = false;            // the device was lost before this task started: complete quietly
    bool external_early = false;  // kExternal already completed: finish after starting it
  };
  StartInfo StartLocked(SimTask& t);

  // Without mu_ held. `keep` (a worker's lock, not held): Finish may hand mu_ back in it, held,
  // so that the worker takes its next task without locking again.
  void Execute(const std::shared_ptr<SimTask>& t, StartInfo info, Lock* keep = nullptr);
  // `report`: call the failure handler for a failure. `keep`: as for Execute; only when the
  // completion leaves nothing to release without the lock (a worker's: its tasks go to the
  // graveyard).
  void Finish(const std::shared_ptr<SimTask>& t, Status status, bool report = true,
              Lock* keep = nullptr);
  // Times the task at the front of q.untimed (HBM sharing, engine grant). mu_ held.
  void TimeTask(SimQueue& q, SimTask& t, uint64_t earliest);
  void DrainInline();
  Status FailureStatus(const SimTask& t, const Status& cause) const;

  // Signal tasks and waits with a timeout (scheduler_waits.cc). mu_ held unless noted.
  // Applies a kSignal to its cell and wakes the waits blocked on it.
  void ApplySignal(const std::shared_ptr<SimTask>& t, Work& work);
  // Evaluates a kWaitSignal at the head of its queue: true (and clears the cell if asked)
  // when satisfied; otherwise registers it with its cell.
  bool ResolveSignalWait(const std::shared_ptr<SimTask>& t);
  // Pushes the queues of blocked memory waits to `work` (their cells may have changed).
  void WakeMemoryWaits(Work& work);
  // Registers a blocked wait's deadline (once) if it has a timeout.
  void ArmWait(const std::shared_ptr<SimTask>& t);
  // The timer thread; ExpireWait (without mu_) fails a wait whose deadline passed.
  void TimerLoop();
  void ExpireWait(const std::shared_ptr<SimTask>& t);

  // Set by a worker while it completes a task of this device (mu_ held): the first task the
  // completion makes ready is left for the worker itself (no other worker is woken for it).
  static thread_local DeviceSched* self_dispatch_;
  static thread_local bool in_worker_;  // this thread runs WorkerLoop

  const bool inline_mode_;
  const uint64_t clock_domain_;
  AdaptiveMutex mu_;
  std::condition_variable_any done_cv_;  // any task completed or queue removed
  std::map<uint32_t, std::unique_ptr<DeviceSched>> devices_;
  std::deque<std::shared_ptr<SimTask>> inline_ready_;
  // Tasks wait at most this many to be timed (the window of TimeNext).
  static constexpr size_t kTimingWindow = 1024;
  std::vector<SimQueue*> timing_;  // queues with untimed tasks, any device
  size_t untimed_count_ = 0;       // their untimed tasks

  // Memory signal cells (aclrtValueWrite / aclrtValueWait), any device: the blocked waits
  // and the kSignal that last wrote each address.
  std::vector<std::shared_ptr<SimTask>> memory_waits_;
  std::unordered_map<uintptr_t, std::shared_ptr<SimTask>> memory_writers_;
  // Wait deadlines (wall clock) and the timer thread that enforces them.
  using WallClock = std::chrono::steady_clock;
  std::multimap<WallClock::time_point, std::shared_ptr<SimTask>> deadlines_;
  std::condition_variable_any timer_cv_;
  bool timer_stop_ = false;
  std::thread timer_;
};

}  // namespace aclsim::sim
