// Device: one opened device of the runtime (between aclrtSetDevice and aclrtResetDevice).
//
// Owns the backend device, the device's default context and stream, an internal queue for
// synchronous copies, the caching allocator (with the table of live allocations), peer-access
// state, and the set of
// streams/events/contexts created on it (so a reset can release them all).
//
// Reference counting follows CANN: every aclrtSetDevice and every explicit context adds a
// reference; aclrtResetDevice / aclrtDestroyContext drop one; the device is released at zero.
// aclrtResetDeviceForce releases it regardless.
//
// Thread-safety: all methods may be called concurrently. After Release(), driver() returns
// nullptr and every operation fails with kInvalidDevice ("device was reset").
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "common/spin_lock.h"
#include "common/status.h"
#include "core/attachments.h"
#include "core/caching_allocator.h"
#include "core/ipc_shares.h"
#include "core/objects.h"
#include "driver/driver.h"

namespace aclsim::core {

class DeviceMonitor;  // core/device_monitor.h

class Device : public std::enable_shared_from_this<Device> {
 public:
  // `id` is the user-visible device id; `physical_id` the backend's.
  Device(int32_t id, uint32_t physical_id, std::unique_ptr<driver::Device> backend);
  ~Device();

  // Creates the default context and stream and the internal copy queue.
  Status Initialize();

  int32_t id() const { return id_; }
  uint32_t physical_id() const { return physical_id_; }
  const driver::DeviceProps& props() const { return props_; }
  // The backend device, or an error once the device has been released. Callers hold the
  // shared_ptr for the duration of one operation, so a concurrent reset cannot free it
  // under them.
  Result<std::shared_ptr<driver::Device>> backend() const;
  bool released() const;
  // True while the device is open and [ptr, ptr+bytes) lies in its address range (allocated
  // or not). Lock-free: the range is fixed when the device opens.
  bool Covers(const void* ptr, size_t bytes) const {
    const auto addr = reinterpret_cast<uintptr_t>(ptr);
    return !closed_.load(std::memory_order_acquire) && addr >= range_begin_ && addr < range_end_ &&
           bytes <= range_end_ - addr;
  }

  std::shared_ptr<Context> default_context() const;
  // The op execute timeout given to every kernel submitted on this device
  // (driver::Task::exec_timeout_ns; 0 = none); set by the runtime (aclrtSetOpExecuteTimeOut*).
  uint64_t op_execute_timeout_ns() const {
    return op_execute_timeout_ns_.load(std::memory_order_relaxed);
  }
  void set_op_execute_timeout_ns(uint64_t ns) {
    op_execute_timeout_ns_.store(ns, std::memory_order_relaxed);
  }
  driver::QueueId copy_queue() const { return copy_queue_; }
  // Serialises submissions to the internal copy queue.
  std::mutex& copy_mutex() { return copy_mu_; }
  // The device's memory: caching allocator and table of live allocations.
  CachingAllocator& memory() { return memory_; }
  // Ranges mapped by aclrtMapMem (virtual memory management, src/feature/vmm.h).
  MemoryTable& mapped() { return mapped_; }
  // True while an allocation must go through the backend's CheckAllocation (fault injection
  // armed, or the device was lost): aclrtMalloc's fast path then steps aside. Set by the runtime.
  bool allocations_checked() const {
    return allocations_checked_ != nullptr && allocations_checked_->load(std::memory_order_relaxed);
  }
  void set_allocations_checked(std::shared_ptr<const std::atomic<bool>> flag) {
    allocations_checked_ = std::move(flag);
  }
  // Allocations exported by IPC and the retired ones (core/ipc_shares.h).
  IpcShares& ipc_shares() { return ipc_shares_; }
  // The backend's page pools and task fences, for further allocators on this device.
  SegmentSource& segments() { return *segments_; }
  // Further allocators of this device (memory pools): their allocations are live device
  // memory too, and the device releases them (logging leaks) when it is reset.
  void AttachHeap(std::shared_ptr<CachingAllocator> heap);
  void DetachHeap(const CachingAllocator* heap);
  // The attached heap with a live allocation starting exactly at `ptr`, or null.
  std::shared_ptr<CachingAllocator> HeapOf(const void* ptr);
  // Live device memory of either kind (an allocation or a mapping), as MemoryTable's Find,
  // FindContaining and FindAll.
  std::optional<Allocation> FindLive(const void* ptr, size_t bytes);
  std::optional<Allocation> FindContainingLive(const void* ptr);
  size_t FindAllLive(const void* const* ptrs, const size_t* bytes, size_t n);

  // References (aclrtSetDevice / explicit contexts).
  void AddRef();
  // Drops one reference; returns true when it was the last one.
  bool DropRef();
  int ref_count() const;

  // Children, for release at reset.
  void TrackStream(const std::shared_ptr<Stream>& stream);
  void UntrackStream(const Stream* stream);
  void TrackEvent(const std::shared_ptr<Event>& event);
  void UntrackEvent(const Event* event);
  void TrackContext(const std::shared_ptr<Context>& context);
  void UntrackContext(const Context* context);
  size_t stream_count() const;
  size_t event_count() const;

  // The device's log and status (set once, right after construction; told of the close by
  // Release, with the backend's counters, before the backend device is closed).
  void set_monitor(std::shared_ptr<DeviceMonitor> monitor) { monitor_ = std::move(monitor); }

  // Peer access (aclrtDeviceEnablePeerAccess from this device to `peer`).
  void SetPeerAccess(int32_t peer, bool enabled);
  bool PeerAccessEnabled(int32_t peer) const;

  // State of the layers above the core kept per device (memory pools, VMM access flags,
  // managed-memory advice: core/attachments.h); cleared by Release.
  Attachments& attachments() { return attachments_; }

  // Releases everything: waits for queued work (or drops it if `force`), destroys streams,
  // events and contexts, frees all memory (logging each leaked allocation), clears the
  // attachments, closes the backend device. Idempotent.
  void Release(bool force);

 private:
  std::atomic<uint64_t> op_execute_timeout_ns_{0};
  const int32_t id_;
  const uint32_t physical_id_;
  const driver::DeviceProps props_;
  mutable SpinLock mu_;  // short sections only (backend() is on every task submission)
  std::shared_ptr<driver::Device> backend_;
  uintptr_t range_begin_ = 0;  // the backend's address range
  uintptr_t range_end_ = 0;
  std::atomic<bool> closed_{false};  // set when Release starts
  std::shared_ptr<Context> default_context_;
  driver::QueueId copy_queue_ = 0;
  std::mutex copy_mu_;
  std::unique_ptr<SegmentSource> segments_;  // the backend's page pools and task fences
  CachingAllocator memory_;
  MemoryTable mapped_;
  IpcShares ipc_shares_;
  std::shared_ptr<const std::atomic<bool>> allocations_checked_;
  std::mutex heaps_mu_;
  std::vector<std::shared_ptr<CachingAllocator>> heaps_;
  int refs_ = 0;
  bool releasing_ = false;
  std::set<int32_t> peers_;
  std::vector<std::weak_ptr<Stream>> streams_;
  std::vector<std::weak_ptr<Event>> events_;
  std::vector<std::weak_ptr<Context>> contexts_;
  std::shared_ptr<DeviceMonitor> monitor_;
  Attachments attachments_;
};

}  // namespace aclsim::core
