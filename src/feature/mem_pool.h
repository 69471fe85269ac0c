// Stream-ordered memory pools (acl_rt_memory_soma.h: aclrtMemPoolCreate, MallocAsync,
// FreeAsync, attributes, TrimTo), on the core's caching allocator.
//
// A pool is a CachingAllocator of its own over the device's page pools, capped at the pool's
// maxSize (0: the device's memory), attached to the device so that its allocations are live
// device memory. MallocAsync hands out a block at once: it is usable by work enqueued after
// the call on any stream. FreeAsync gives a block back in stream order: the block is reused
// only after every task the device had been given before the free has completed (the
// allocator's fences; conservative -- all streams, not just `stream`). Freed memory stays
// cached in the pool; once the user sets a release threshold (> 0), a free returns wholly
// free segments beyond it to the device; aclrtMemPoolTrimTo and destruction return them too.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/status.h"
#include "core/caching_allocator.h"
#include "core/device.h"
#include "core/handle_table.h"
#include "core/runtime.h"

namespace aclsim::feature {

// aclrtMemPoolAttr values.
enum class PoolAttr : int {
  kReuseFollowEventDependencies = 1,
  kReuseAllowOpportunistic = 2,
  kReuseAllowInternalDependencies = 3,
  kReleaseThreshold = 4,
  kReservedCurrent = 5,
  kReservedHigh = 6,
  kUsedCurrent = 7,
  kUsedHigh = 8,
};

class MemPool {
 public:
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kMemPool;
  MemPool(std::shared_ptr<core::Device> device, size_t max_size);
  ~MemPool();

  const std::shared_ptr<core::Device>& device() const { return device_; }
  core::CachingAllocator& heap() { return *heap_; }
  const std::shared_ptr<core::CachingAllocator>& heap_ptr() const { return heap_; }
  size_t max_size() const { return max_size_; }

  std::atomic<int> reuse_follow_events{1};
  std::atomic<int> reuse_opportunistic{1};
  std::atomic<int> reuse_internal{1};
  std::atomic<uint64_t> release_threshold{0};

 private:
  class Source;
  const std::shared_ptr<core::Device> device_;
  const size_t max_size_;
  std::unique_ptr<Source> source_;
  std::shared_ptr<core::CachingAllocator> heap_;
};

// `location_type` / `location_id`: aclrtMemLocation (a device); `alloc_type`, `handle_type`
// as aclrtMemPoolProps. Returns the new aclrtMemPool.
Result<void*> CreatePool(core::Runtime& runtime, uint32_t alloc_type, uint32_t handle_type,
                         uint32_t location_type, uint32_t location_id, size_t max_size);
// Refuses a pool with live allocations; waits for its pending frees.
Status DestroyPool(void* pool);
Status SetPoolAttr(void* pool, PoolAttr attr, const void* value);
Status GetPoolAttr(void* pool, PoolAttr attr, void* value);
Result<void*> PoolMallocAsync(core::Runtime& runtime, size_t size, void* pool, const void* stream);
Status PoolFreeAsync(core::Runtime& runtime, void* ptr, const void* stream);
Status PoolTrimTo(void* pool, size_t keep);

}  // namespace aclsim::feature
