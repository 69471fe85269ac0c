// The driver interface: what the runtime core needs from a device backend.
//
// The core (src/core) talks only to this interface; backends (sim/ by default, a `null`
// backend for tests) implement it and register in the DriverRegistry. Nothing above
// this header knows whether the device is simulated.
//
// Model of a device, as seen from here:
//  * memory: physical allocations from a pool (HBM or DDR) with a page size; the address
//    returned is directly usable by host code (device memory is host virtual memory in the
//    simulator) for copies performed by tasks;
//  * hardware queues: ordered task queues (one per runtime stream). Tasks are plain values
//    (driver/task.h). Submission returns at once; tasks run asynchronously in queue order,
//    and across queues as dependencies (event waits) and engines allow;
//  * events: device-side event slots recorded/waited/reset by tasks, with simulated
//    timestamps;
//  * a simulated clock: every task gets a simulated start and end time (ns) that depends
//    only on the sequence of submissions (never on wall-clock progress). Each host thread
//    carries its own simulated clock; submissions advance it by an API cost and waits
//    advance it to the completion time waited for.
//
// Semantics every backend keeps (the conformance suite in tests/driver checks them):
//  * an event reset takes effect when it is submitted (later waits wait for a new record);
//  * DestroyEvent releases waits that are still waiting for a first record;
//  * SyncDevice reports the first queue failure and clears the failures of all queues, so
//    each failure is reported once; a sync on dropped (forced) work returns kDeviceTaskAbort;
//  * a peer copy uses the DMA engine of the submitting queue's device;
//  * a failed task's Status carries the runtime error code in Status::detail();
//  * creating and destroying a queue are host work: they advance the calling thread's
//    simulated clock by a backend cost (sim: the profile's stream_* costs), which is much
//    smaller for a queue created with kQueueFlagPersistent when a cached one is available;
//  * a lost device (sim: fault injection) fails every later call with a Status whose
//    detail() is kDeviceLostCode, and reports the task that was running through the failure
//    handler -- except FreePhysical, DestroyQueue and DestroyEvent, which still succeed so
//    the core can tear the device down.
//
// Thread-safety: every method of Device may be called from any thread concurrently.
// Submissions to one queue from several threads are ordered by the caller (the core holds
// the stream's lock while submitting).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "driver/device_props.h"
#include "driver/task.h"

namespace aclsim::driver {

using QueueId = uint32_t;
using EventId = uint32_t;

// Physical memory pools and page sizes.
enum class MemPool { kHbm, kDdr };
enum class PageSize { k4K, k2M, k1G };

size_t PageBytes(PageSize page);

struct QueueConfig {
  int32_t priority = 0;  // 0 = highest (CANN convention); see DeviceProps::stream_priority_*
  uint32_t flags = 0;    // ACL_STREAM_* bits, passed through by the core (see below)
};

// QueueConfig::flags bit a backend acts on: ACL_STREAM_PERSISTENT. Destroying such a queue
// returns its hardware resources (stream id, submission/completion rings) to a per-device
// cache instead of releasing them; creating a persistent queue reuses a cached one when there
// is one. Both are then much cheaper in simulated host time. Cached resources still hold
// their stream id (they count toward max_streams until a non-persistent create reclaims one).
inline constexpr uint32_t kQueueFlagPersistent = 0x4;

// Runtime error code (Status::detail()) of every call on a lost device:
// ACL_ERROR_RT_LOST_HEARTBEAT.
inline constexpr uint32_t kDeviceLostCode = 507010;

// Runtime error code (Status::detail()) of a wait task (kEventWait / kWaitSignal) whose
// Task::wait_timeout_ms expired: ACL_ERROR_RT_WAIT_TIMEOUT.
inline constexpr uint32_t kWaitTimeoutCode = 107019;

using CounterId = uint32_t;

// Completion state of a queue or event.
struct QueueState {
  bool idle = true;           // every submitted task has completed
  uint64_t last_task_id = 0;  // id of the last submitted task (0 = none)
  Status error;               // first task failure since the last wait/clear
};

// A task failure reported by the backend (feeds aclrtExceptionInfo).
struct TaskFailure {
  uint32_t device_id = 0;
  QueueId queue = 0;
  uint64_t task_id = 0;
  uint32_t error_code = 0;  // aclError-compatible runtime code (e.g. 507015)
  std::string message;
  std::string op_name;  // the task's label (kernel: its op type), "" if it has none
};

// What a device did since it was opened (Device::Counters), for its status file.
//  tasks_finished: tasks that completed, failed or were dropped;
//  sim_time_ns: the simulated end time of the latest task that was timed (0: none yet).
struct DeviceCounters {
  uint64_t tasks_submitted = 0;
  uint64_t tasks_finished = 0;
  uint64_t sim_time_ns = 0;
};

// The simulated times of one traced task (Task::traced), for profiling.
//  ready: when its queue reached it (its predecessor ended and it had been submitted);
//  start - ready: time spent waiting (for an event record, or for a busy engine);
//  cube_ns / vector_ns: kernels: the cube / vector units' busy time (at the cores used).
struct TaskTrace {
  QueueId queue = 0;
  uint64_t task_id = 0;
  const Task* task = nullptr;  // valid during the call only
  uint64_t ready_ns = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t cube_ns = 0;
  uint64_t vector_ns = 0;
};

// One device of a backend. Created by Driver::OpenDevice, destroyed by the core at reset.
class Device {
 public:
  virtual ~Device() = default;

  virtual const DeviceProps& props() const = 0;
  // OK while the device works; once it is lost, the Status every later call fails with
  // (detail kDeviceLostCode). aclrtQueryDeviceStatus reports ABNORMAL then.
  virtual Status Health() const { return Status::Ok(); }
  // Task counters and simulated time so far (lock-free; backends without them return zeros).
  virtual DeviceCounters Counters() const { return {}; }

  // --- memory -----------------------------------------------------------------------
  // Called once per allocation the program asks for (every aclrtMalloc* path, the runtime's own
  // model and pool buffers, aclrtMallocPhysical) before any memory is taken: a backend's fault
  // injection fails the Nth with kDeviceOom; a lost device fails them all.
  virtual Status CheckAllocation(size_t bytes) { return Health(); }
  // True if CheckAllocation may fail for a reason other than a device loss (fault injection
  // armed): then every allocation must reach it (no fast path around it).
  virtual bool AllocationFaultsArmed() const { return false; }
  // Allocates `bytes` (rounded up to the page size) from `pool`; *addr receives an address
  // aligned to at least the page size. Fails with kDeviceOom when the pool is exhausted.
  virtual Status AllocPhysical(MemPool pool, PageSize page, size_t bytes, void** addr) = 0;
  // Frees an address returned by AllocPhysical (exact pointer). The backing pages are
  // released to the host.
  virtual Status FreePhysical(void* addr) = 0;
  // True if [addr, addr+bytes) lies inside this device's address range (allocated or not).
  virtual bool OwnsRange(const void* addr, size_t bytes) const = 0;
  // The device's address range [*begin, *end): fixed for the device's lifetime (both 0 if it
  // has none).
  virtual void AddressRange(uintptr_t* begin, uintptr_t* end) const = 0;
  // Total and free bytes of a pool.
  virtual void PoolUsage(MemPool pool, size_t* free_bytes, size_t* total_bytes) const = 0;
  // Total and free bytes a pool can give in huge pages (2 MiB, 1 GiB): the pool's own
  // figures unless the backend gives huge pages a budget of their own.
  virtual void HugePageUsage(MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
    PoolUsage(pool, free_bytes, total_bytes);
  }
  // Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem):
  //  * ReserveAddress takes `bytes` of the device's address space, aligned to `alignment`
  //    (a power of two; 0: the 2 MiB granularity), without memory behind it;
  //    ReleaseAddress gives it back (kInvalidParam while anything is mapped in it);
  //  * CreatePhysical allocates physical memory (counted against the pool, kDeviceOom beyond)
  //    that is not mapped anywhere; DestroyPhysical frees it (kInvalidParam while mapped);
  //  * MapPhysical maps [offset, offset+bytes) of a physical allocation at `addr`, which must
  //    lie in a reservation, page aligned, over nothing else mapped; the same physical
  //    memory may be mapped at several addresses (they alias). UnmapPhysical takes the
  //    mapping starting at `addr` away again;
  //  * ExportPhysical gives a file descriptor another process can map (owned by the
  //    device; -1 if the backend cannot share), ImportPhysical wraps such a descriptor
  //    (the caller's: the device dups it) as a physical allocation of this device.
  // Backends without virtual memory return kFeatureUnsupported.
  virtual Status ReserveAddress(size_t bytes, size_t alignment, void** addr) = 0;
  virtual Status ReleaseAddress(void* addr) = 0;
  virtual Status CreatePhysical(MemPool pool, PageSize page, size_t bytes, uint64_t* handle) = 0;
  virtual Status DestroyPhysical(uint64_t handle) = 0;
  virtual Status MapPhysical(void* addr, size_t bytes, uint64_t handle, size_t offset) = 0;
  virtual Status UnmapPhysical(void* addr) = 0;
  virtual int ExportPhysical(uint64_t handle) = 0;
  // IPC (aclrtIpcMemGetExportKey): makes the allocation (AllocPhysical) holding
  // [addr, addr+bytes) shareable with other processes, in place -- same addresses, same
  // contents -- and returns a file descriptor of it (owned by the device) with the range's
  // offset in it and the file's size. Idempotent; freeing the allocation ends the sharing.
  virtual Status ShareRange(const void* addr, size_t bytes, int* fd, size_t* offset,
                            size_t* file_bytes) = 0;
  // Ends the sharing of the allocation holding `addr` while it stays allocated: its addresses
  // get private pages with the same contents, and importers keep the shared pages they mapped,
  // so they never see what the addresses hold next. No-op if it is not shared. The caller
  // makes sure no task touches the allocation meanwhile.
  virtual Status UnshareRange(const void* addr) = 0;
  virtual Status ImportPhysical(int fd, size_t bytes, PageSize page, uint64_t* handle) = 0;
  // Fences for reusing memory freed while tasks run (the core's caching allocator). A fence
  // taken now is 0 if no task of the device is in flight, else the id of the last task
  // submitted; FenceReached(f) is true once every task of the device with an id <= f has
  // completed (or was dropped). MemoryFence must be cheap (no lock in sim).
  virtual uint64_t MemoryFence() const = 0;
  virtual bool FenceReached(uint64_t fence) = 0;
  // True once every task of `queue` with an id <= `task_id` has completed (or the queue is
  // gone): whether one task has finished, whatever other queues do.
  virtual bool QueueDoneThrough(QueueId queue, uint64_t task_id) = 0;

  // --- queues -------------------------------------------------------------------------
  // Creates a hardware queue (takes a hardware stream id). Fails with kNoStreamResource past
  // props().max_streams. Advances the calling thread's simulated clock by the creation cost.
  virtual Status CreateQueue(const QueueConfig& config, QueueId* queue) = 0;
  // Destroys a queue. If `force`, queued tasks that have not started are dropped
  // (completed with kDeviceTaskAbort); otherwise waits until the queue is idle first.
  // Advances the calling thread's simulated clock by the destruction cost.
  virtual Status DestroyQueue(QueueId queue, bool force) = 0;
  // Enqueues a task; returns at once with its id (ids are unique per device, start at 1).
  virtual Status Submit(QueueId queue, Task&& task, uint64_t* task_id) = 0;
  // Blocks until every task submitted to `queue` before this call has completed, or until
  // timeout_ms (< 0 or 0: forever ... see TimeoutMs) passes (kStreamSyncTimeout). On success
  // advances the calling thread's simulated clock to the queue's completion time and returns
  // the first task failure of the queue since the last successful wait, if any (kTaskFailed).
  virtual Status SyncQueue(QueueId queue, int32_t timeout_ms) = 0;
  // Non-blocking: completion state of a queue.
  virtual QueueState QueryQueue(QueueId queue) = 0;
  // Blocks until every queue of the device is idle (aclrtSynchronizeDevice[WithTimeout]).
  virtual Status SyncDevice(int32_t timeout_ms) = 0;
  // Completes a task of kind kExternal (see task.h); `status` non-OK marks it failed.
  virtual void CompleteExternal(uint64_t task_id, Status status) = 0;

  // --- events -------------------------------------------------------------------------
  // Allocates an event slot. Fails with kNoEventResource past props().max_events.
  virtual Status CreateEvent(uint32_t flags, EventId* event) = 0;
  virtual Status DestroyEvent(EventId event) = 0;
  // Event state as seen by the host.
  //  recorded: a record task has been submitted since creation / the last reset;
  //  complete: the latest submitted record has executed (true if never recorded);
  //  timestamp_ns: simulated time at which the latest record executed (valid if complete
  //  and recorded).
  struct EventState {
    bool recorded = false;
    bool complete = true;
    uint64_t timestamp_ns = 0;
  };
  virtual EventState QueryEvent(EventId event) = 0;
  // Blocks until the latest record submitted before this call has executed (returns at once
  // if none); kEventSyncTimeout after timeout_ms (see TimeoutMs). Advances the calling
  // thread's simulated clock to the record's timestamp.
  virtual Status SyncEvent(EventId event, int32_t timeout_ms) = 0;

  // --- counters (notifies) -------------------------------------------------------------
  // A counter is a 64-bit cell on the device, initially 0, changed by kSignal tasks and
  // waited on by kWaitSignal tasks (Task::event names it). CreateCounter fails with
  // kNoEventResource (detail 207009, ACL_ERROR_RT_NO_NOTIFY_RESOURCE) past props().max_events
  // counters. DestroyCounter releases the waits still blocked on the counter (as DestroyEvent
  // does), so they cannot hang. ResetCounter sets the
  // cell to 0 at once (host side, not stream ordered). Backends without counters return
  // kFeatureUnsupported.
  virtual Status CreateCounter(CounterId* counter) {
    return Status(StatusCode::kFeatureUnsupported, "this backend has no notify counters");
  }
  virtual Status DestroyCounter(CounterId counter) {
    return Status(StatusCode::kFeatureUnsupported, "this backend has no notify counters");
  }
  virtual Status ResetCounter(CounterId counter) {
    return Status(StatusCode::kFeatureUnsupported, "this backend has no notify counters");
  }

  // --- simulated clock ----------------------------------------------------------------
  // The calling host thread's simulated clock (ns). Shared by all devices of a backend.
  virtual uint64_t HostClockNs() const = 0;
  // Adds an API cost (ns) to the calling thread's clock.
  virtual void AdvanceHostClock(uint64_t ns) = 0;

  // --- failures -----------------------------------------------------------------------
  // Called (from a backend thread) once per failed task, after the failure is recorded and
  // before waiters are woken. Set once by the core before any submission.
  virtual void SetFailureHandler(std::function<void(const TaskFailure&)> handler) = 0;

  // --- profiling ----------------------------------------------------------------------
  // Task tracing: once set (non-null), `tracer` is called once for every task submitted with
  // Task::traced when its simulated times are known (from a backend thread or a syncing
  // thread, with backend locks held: it must only record and return). FlushTraces times
  // every submitted task whose time can be known now (not a wait for a record yet to be
  // submitted), so the tracer has seen them when it returns; closing the device flushes too.
  // Set null to stop. Backends without simulated times ignore both.
  // NOLINTNEXTLINE(performance-unnecessary-value-param): overrides take ownership
  virtual void SetTaskTracer(std::function<void(const TaskTrace&)> tracer) {}
  virtual void FlushTraces() {}

  // --- watchdog -----------------------------------------------------------------------
  // Hang reports: while a Sync*, a waiting DestroyQueue or the drain of a device reset has
  // waited `period_ms` (> 0) without completing, `report` is called (from the waiting thread,
  // without backend locks held) with a description of the tasks it is blocked on (queue and
  // task ids, what each waits for), then again after every further period; the wait itself
  // goes on unchanged. period_ms == 0 turns it off (the default). Set by the core before any
  // submission. Backends without the facility ignore it.
  // NOLINTNEXTLINE(performance-unnecessary-value-param): overrides take ownership
  virtual void SetWatchdog(uint32_t period_ms, std::function<void(const std::string&)> report) {}
};

// A backend: enumerates and opens devices.
class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string name() const = 0;
  // Number of physical devices the backend exposes (before ASCEND_RT_VISIBLE_DEVICES).
  virtual uint32_t DeviceCount() const = 0;
  virtual Result<DeviceProps> Props(uint32_t physical_id) const = 0;
  virtual Status OpenDevice(uint32_t physical_id, std::unique_ptr<Device>* device) = 0;
};

// Timeout convention shared by every Sync*: timeout_ms < 0 or == 0 waits forever
// (CANN: -1 = forever); > 0 waits at most that many wall-clock milliseconds.
inline bool WaitsForever(int32_t timeout_ms) { return timeout_ms <= 0; }

}  // namespace aclsim::driver
