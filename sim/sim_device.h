// SimDevice: one simulated Ascend device (driver::Device).
//
// Owns the device's memory (DeviceMemory: its own reserved address range) and, in async mode,
// its worker threads; queues, events and tasks live in the backend's shared Scheduler, which
// implements the semantics documented in driver.h (see scheduler.h).
//
// Destruction drops every task that has not started (kDeviceTaskAbort), aborts running
// external tasks, waits for running host functions, joins the workers and unmaps the memory.
//
// Fault injection (backend_config.h) of memory: fault_fail_alloc counts CheckAllocation calls
// (one per allocation the program asks for: driver.h) and CreatePhysical calls
// (aclrtMallocPhysical). A lost device fails them, AllocPhysical and every scheduler call;
// FreePhysical, DestroyQueue and DestroyEvent still succeed so that the core can tear the device
// down.
//
// Thread-safety: every method may be called from any thread concurrently (driver.h).
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "driver/driver.h"
#include "sim/backend_config.h"
#include "sim/device_memory.h"
#include "sim/scheduler.h"

namespace aclsim::sim {

class SimDevice final : public driver::Device {
 public:
  // Reserves memory, registers with the scheduler and starts the workers.
  static Status Open(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config,
                     uint32_t device_id, std::unique_ptr<driver::Device>* device);
  ~SimDevice() override;

  const driver::DeviceProps& props() const override { return props_; }
  Status Health() const override;
  driver::DeviceCounters Counters() const override;

  Status CheckAllocation(size_t bytes) override;
  bool AllocationFaultsArmed() const override { return faults_.fail_alloc != 0; }
  Status AllocPhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                       void** addr) override;
  Status FreePhysical(void* addr) override;
  bool OwnsRange(const void* addr, size_t bytes) const override;
  void AddressRange(uintptr_t* begin, uintptr_t* end) const override;
  void PoolUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const override;
  void HugePageUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const override;
  Status ReserveAddress(size_t bytes, size_t alignment, void** addr) override;
  Status ReleaseAddress(void* addr) override;
  Status CreatePhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                        uint64_t* handle) override;
  Status DestroyPhysical(uint64_t handle) override;
  Status MapPhysical(void* addr, size_t bytes, uint64_t handle, size_t offset) override;
  Status UnmapPhysical(void* addr) override;
  int ExportPhysical(uint64_t handle) override;
  Status ShareRange(const void* addr, size_t bytes, int* fd, size_t* offset,
                    size_t* file_bytes) override;
  Status UnshareRange(const void* addr) override;
  Status ImportPhysical(int fd, size_t bytes, driver::PageSize page, uint64_t* handle) override;
  uint64_t MemoryFence() const override;
  bool FenceReached(uint64_t fence) override;
  bool QueueDoneThrough(driver::QueueId queue, uint64_t task_id) override;

  Status CreateQueue(const driver::QueueConfig& config, driver::QueueId* queue) override;
  Status DestroyQueue(driver::QueueId queue, bool force) override;
  Status Submit(driver::QueueId queue, driver::Task&& task, uint64_t* task_id) override;
  Status SyncQueue(driver::QueueId queue, int32_t timeout_ms) override;
  driver::QueueState QueryQueue(driver::QueueId queue) override;
  Status SyncDevice(int32_t timeout_ms) override;
  void CompleteExternal(uint64_t task_id, Status status) override;

  Status CreateEvent(uint32_t flags, driver::EventId* event) override;
  Status DestroyEvent(driver::EventId event) override;
  EventState QueryEvent(driver::EventId event) override;
  Status SyncEvent(driver::EventId event, int32_t timeout_ms) override;
  Status CreateCounter(driver::CounterId* counter) override;
  Status DestroyCounter(driver::CounterId counter) override;
  Status ResetCounter(driver::CounterId counter) override;

  uint64_t HostClockNs() const override;
  void AdvanceHostClock(uint64_t ns) override;

  void SetFailureHandler(std::function<void(const driver::TaskFailure&)> handler) override;
  void SetWatchdog(uint32_t period_ms, std::function<void(const std::string&)> report) override;
  void SetTaskTracer(std::function<void(const driver::TaskTrace&)> tracer) override;
  void FlushTraces() override;

  // Sim-only introspection (tests, tools): TLB translations of every task submitted so far.
  TlbCounts TlbTotals() const;

 private:
  // The device buffers `task` touches, with their page sizes from the page tables.
  // Fills *tr (cleared first) with the device buffers `task` touches.
  void Translate(const driver::Task& task, TaskTranslation* tr) const;

  SimDevice(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config, uint32_t device_id);

  const uint32_t id_;
  const driver::DeviceProps props_;
  std::shared_ptr<Scheduler> scheduler_;
  DeviceMemory memory_;
  bool registered_ = false;
  const DeviceSched* progress_ = nullptr;  // the scheduler's task counters of this device
  const FaultConfig faults_;
  std::atomic<uint64_t> alloc_count_{0};  // CheckAllocation + CreatePhysical (fault_fail_alloc)
  std::vector<std::thread> workers_;
};

}  // namespace aclsim::sim
