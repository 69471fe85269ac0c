#include "feature/mem_pool.h"

#include <map>
#include <mutex>

#include "core/memory_checker.h"
#include "core/objects.h"
#include "feature/vmm.h"

namespace aclsim::feature {

// The device's page pools, capped at the pool's maxSize.
class MemPool::Source final : public core::SegmentSource {
 public:
  Source(core::SegmentSource& device, size_t max_size) : device_(device), max_size_(max_size) {}
  Status Acquire(driver::MemPool pool, driver::PageSize page, size_t bytes, void** addr) override {
    if (max_size_ != 0 && bytes > max_size_ - std::min(max_size_, held_)) {
      return Err(StatusCode::kDeviceOom,
                 "memory pool full: {} more bytes would exceed its maxSize of {} ({} held)", bytes,
                 max_size_, held_);
    }
    ACLSIM_RETURN_IF_ERROR(device_.Acquire(pool, page, bytes, addr));
    held_ += bytes;
    sizes_[*addr] = bytes;
    return Status::Ok();
  }
  void Release(void* addr) override {
    auto it = sizes_.find(addr);
    if (it != sizes_.end()) {
      held_ -= it->second;
      sizes_.erase(it);
    }
    device_.Release(addr);
  }
  uint64_t Fence() override { return device_.Fence(); }
  bool FenceReached(uint64_t fence) override { return device_.FenceReached(fence); }
  void WaitIdle() override { device_.WaitIdle(); }

 private:
  // Called by the allocator under its lock only: no lock of its own.
  core::SegmentSource& device_;
  const size_t max_size_;
  size_t held_ = 0;
  std::map<void*, size_t> sizes_;
};

MemPool::MemPool(std::shared_ptr<core::Device> device, size_t max_size)
    : device_(std::move(device)),
      max_size_(max_size),
      source_(std::make_unique<Source>(device_->segments(), max_size)),
      heap_(std::make_shared<core::CachingAllocator>(source_.get(), device_->id())) {}

MemPool::~MemPool() = default;

namespace {

Result<std::shared_ptr<MemPool>> PoolOf(void* handle) {
  return core::LookupHandle<MemPool>(handle, "memPool");
}

// A device's live pools by their heap (FreeAsync finds the heap through the device): a device
// attachment (core/attachments.h), so a reset forgets them.
struct Pools {
  std::mutex mu;
  std::map<const core::CachingAllocator*, std::weak_ptr<MemPool>> by_heap;
};

}  // namespace

Result<void*> CreatePool(core::Runtime& runtime, uint32_t alloc_type, uint32_t handle_type,
                         uint32_t location_type, uint32_t location_id, size_t max_size) {
  if (alloc_type != kAllocationPinned) {
    return Err(StatusCode::kInvalidParam,
               "poolProps->allocType {} is not supported (ACL_MEM_ALLOCATION_TYPE_PINNED only)",
               alloc_type);
  }
  if (handle_type != 0) {
    return Err(StatusCode::kInvalidParam,
               "poolProps->handleType {} is not supported (ACL_MEM_HANDLE_TYPE_NONE only)",
               handle_type);
  }
  if (location_type != kLocationDevice) {
    return Err(StatusCode::kInvalidParam,
               "poolProps->location.type {} is not supported (ACL_MEM_LOCATION_TYPE_DEVICE only)",
               location_type);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto device, runtime.OpenedDevice(static_cast<int32_t>(location_id)));
  auto pool = core::MakeHandleObject<MemPool>(device, max_size);
  device->AttachHeap(pool->heap_ptr());
  {
    auto pools = device->attachments().Get<Pools>();
    std::lock_guard<std::mutex> lock(pools->mu);
    pools->by_heap[&pool->heap()] = pool;
  }
  return core::PublishHandle(pool);
}

Status DestroyPool(void* handle) {
  ACLSIM_ASSIGN_OR_RETURN(auto pool, PoolOf(handle));
  const size_t live = pool->heap().Count();
  if (live > 0) {
    return Err(StatusCode::kInvalidParam,
               "memPool {} still has {} allocation(s): free them with aclrtMemPoolFreeAsync "
               "first",
               handle, live);
  }
  ACLSIM_RETURN_IF_ERROR(core::RetireHandle<MemPool>(handle, "memPool").status());
  if (pool->heap().Stats().pending > 0) pool->device()->segments().WaitIdle();
  pool->device()->DetachHeap(&pool->heap());
  if (auto pools = pool->device()->attachments().Find<Pools>()) {
    std::lock_guard<std::mutex> lock(pools->mu);
    pools->by_heap.erase(&pool->heap());
  }
  (void)pool->heap().ReleaseAll();
  return Status::Ok();
}

Status SetPoolAttr(void* handle, PoolAttr attr, const void* value) {
  ACLSIM_ASSIGN_OR_RETURN(auto pool, PoolOf(handle));
  switch (attr) {
    case PoolAttr::kReuseFollowEventDependencies:
      pool->reuse_follow_events = *static_cast<const int*>(value) != 0 ? 1 : 0;
      return Status::Ok();
    case PoolAttr::kReuseAllowOpportunistic:
      pool->reuse_opportunistic = *static_cast<const int*>(value) != 0 ? 1 : 0;
      return Status::Ok();
    case PoolAttr::kReuseAllowInternalDependencies:
      pool->reuse_internal = *static_cast<const int*>(value) != 0 ? 1 : 0;
      return Status::Ok();
    case PoolAttr::kReleaseThreshold:
      pool->release_threshold = *static_cast<const uint64_t*>(value);
      return Status::Ok();
    case PoolAttr::kReservedHigh:
    case PoolAttr::kUsedHigh:
      if (*static_cast<const uint64_t*>(value) != 0) {
        return Err(StatusCode::kInvalidParam,
                   "a high-water attribute can only be reset (set to 0), not to {}",
                   *static_cast<const uint64_t*>(value));
      }
      pool->heap().ResetPeaks();
      return Status::Ok();
    case PoolAttr::kReservedCurrent:
    case PoolAttr::kUsedCurrent:
      return Err(StatusCode::kInvalidParam, "attribute {} is read-only", static_cast<int>(attr));
  }
  return Err(StatusCode::kInvalidParam, "attr {} is not an aclrtMemPoolAttr",
             static_cast<int>(attr));
}

Status GetPoolAttr(void* handle, PoolAttr attr, void* value) {
  ACLSIM_ASSIGN_OR_RETURN(auto pool, PoolOf(handle));
  core::CachingAllocator& heap = pool->heap();
  switch (attr) {
    case PoolAttr::kReuseFollowEventDependencies:
      *static_cast<int*>(value) = pool->reuse_follow_events;
      return Status::Ok();
    case PoolAttr::kReuseAllowOpportunistic:
      *static_cast<int*>(value) = pool->reuse_opportunistic;
      return Status::Ok();
    case PoolAttr::kReuseAllowInternalDependencies:
      *static_cast<int*>(value) = pool->reuse_internal;
      return Status::Ok();
    case PoolAttr::kReleaseThreshold:
      *static_cast<uint64_t*>(value) = pool->release_threshold;
      return Status::Ok();
    case PoolAttr::kReservedCurrent:
      *static_cast<uint64_t*>(value) = heap.ReservedBytes();
      return Status::Ok();
    case PoolAttr::kReservedHigh:
      *static_cast<uint64_t*>(value) = heap.PeakReservedBytes();
      return Status::Ok();
    case PoolAttr::kUsedCurrent:
      *static_cast<uint64_t*>(value) = heap.UsedBytes();
      return Status::Ok();
    case PoolAttr::kUsedHigh:
      *static_cast<uint64_t*>(value) = heap.PeakUsedBytes();
      return Status::Ok();
  }
  return Err(StatusCode::kInvalidParam, "attr {} is not an aclrtMemPoolAttr",
             static_cast<int>(attr));
}

Result<void*> PoolMallocAsync(core::Runtime& runtime, size_t size, void* handle,
                              const void* stream) {
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  ACLSIM_ASSIGN_OR_RETURN(auto pool, PoolOf(handle));
  if (pool->device()->released()) {
    return Err(StatusCode::kInvalidDevice,
               "memPool {}: its device {} was reset; create a new pool after aclrtSetDevice",
               handle, pool->device()->id());
  }
  ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime.ResolveStream(stream, "stream"));
  if (resolved->device() != pool->device()) {
    return Err(StatusCode::kInvalidParam, "stream is on device {} but memPool on device {}",
               resolved->device()->id(), pool->device()->id());
  }
  core::Allocation info;
  info.size = size;
  info.api = "aclrtMemPoolMallocAsync";
  return pool->heap().Allocate(
      driver::MemPool::kHbm,
      size > core::CachingAllocator::kSmallLimit ? driver::PageSize::k2M : driver::PageSize::k4K,
      size, info);
}

Status PoolFreeAsync(core::Runtime& runtime, void* ptr, const void* stream) {
  ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime.ResolveStream(stream, "stream"));
  auto device = runtime.DeviceOfAddress(ptr, 1);
  std::shared_ptr<core::CachingAllocator> heap = device ? device->HeapOf(ptr) : nullptr;
  if (heap == nullptr) {
    return Err(StatusCode::kMemoryFree,
               "devPtr {} is not a live allocation of a memory pool (aclrtMemPoolMallocAsync)",
               ptr);
  }
  ACLSIM_ASSIGN_OR_RETURN(core::Allocation freed, heap->Free(ptr));
  core::MemoryChecker& checker = core::MemoryChecker::Instance();
  if (checker.enabled()) {
    // Freed in stream order: tasks enqueued on `stream` before the free are fine.
    auto [violation, last] = checker.OnFree(*device, freed);
    if (!violation.empty() && last != resolved) {
      ACLSIM_RETURN_IF_ERROR(core::MemoryChecker::Report(last, violation));
    }
  }
  std::shared_ptr<MemPool> pool;
  if (auto pools = device->attachments().Find<Pools>()) {
    std::lock_guard<std::mutex> lock(pools->mu);
    auto it = pools->by_heap.find(heap.get());
    if (it != pools->by_heap.end()) pool = it->second.lock();
  }
  // A release threshold set by the user: wholly free segments beyond it go back at once.
  const uint64_t threshold = pool ? pool->release_threshold.load() : 0;
  if (threshold > 0 && heap->ReservedBytes() > threshold) (void)heap->Trim(threshold);
  return Status::Ok();
}

Status PoolTrimTo(void* handle, size_t keep) {
  ACLSIM_ASSIGN_OR_RETURN(auto pool, PoolOf(handle));
  (void)pool->heap().Trim(keep);
  return Status::Ok();
}

}  // namespace aclsim::feature
