// CachingAllocator: device memory (aclrtMalloc and friends) cached over the driver's physical
// page pools, and the table of the device's live allocations.
//
// Segments and arenas. Memory comes from the driver in segments (AllocPhysical). Segments
// are grouped in arenas, one per (pool HBM/DDR, page size 4K/2M/1G, small/large):
//  * small arenas serve requests of at most kSmallLimit (1 MiB) from segments of
//    max(2 MiB, page size);
//  * large arenas serve bigger requests from segments of the request rounded up to
//    max(2 MiB, page size), so a large request never splits a small segment and the other way
//    round (fewer slivers).
// Blocks are multiples of kGranule (512 bytes), so every address handed out is at least
// 512-byte aligned (CANN documents 64).
//
// Fitting, splitting, coalescing. Free blocks sit in size classes (SizeBins: best fit within
// 1/8 of a size). A block larger than the request is split; the rest stays free. Freed
// neighbours are coalesced: at once in large arenas; in small arenas lazily (like dlmalloc's
// fast bins), when a request finds no fit, so a free/malloc pair of one size costs no merge
// and no split. In front of that, a small arena keeps the last block freed of each of 16 size
// slots aside (a quick slot, like glibc's tcache): an allocation of exactly its size takes it
// back without a bin search; the block it displaces, and every quick block when the arena is
// consolidated, goes on into the bins. A segment whose blocks are all free again (a free run
// of at least 2 MiB) goes back to the driver's pool, where huge-page and other allocations can
// take it -- except the last 2 MiB segment freed per arena, kept as a spare so that alloc/free
// loops of small blocks do not call the driver each time. When the driver runs out, every
// cached free segment is returned and the request retried.
//
// Stream-ordered reuse. aclrtFree does not synchronise. A block freed while tasks of the
// device are in flight (SegmentSource::Fence() != 0) is "pending": it is reused only after
// every task submitted before the free has completed (FenceReached). If memory runs out with
// blocks pending, the allocator waits for the device's work (WaitIdle) and retries.
//
// Statistics: reserved (segments), allocated (blocks in use), pending, cached free bytes,
// the largest free block and the fragmentation figure 1 - largest free block / free bytes
// (Stats(), and a DEBUG log line of module RUNTIME whenever a segment comes or goes).
//
// Thread-safety: all methods may be called concurrently (one lock, a SpinLock: the hot
// sections are short). SegmentSource calls are made with the lock held, except WaitIdle and
// Free's Fence (which must therefore be thread-safe).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "common/spin_lock.h"
#include "common/status.h"
#include "core/memory_table.h"
#include "driver/driver.h"

namespace aclsim::core {

// What the allocator needs from its device.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  virtual Status Acquire(driver::MemPool pool, driver::PageSize page, size_t bytes,
                         void** addr) = 0;
  virtual void Release(void* addr) = 0;
  // A fence for memory freed now: 0 if no task is in flight, else a value FenceReached
  // accepts once every task submitted so far has completed. May be called concurrently.
  virtual uint64_t Fence() = 0;
  virtual bool FenceReached(uint64_t fence) = 0;
  // Blocks until every submitted task has completed (or failed).
  virtual void WaitIdle() = 0;
};

struct HeapStats {
  size_t reserved = 0;      // bytes of segments held from the driver
  size_t allocated = 0;     // bytes of blocks in use
  size_t pending = 0;       // bytes freed but waiting for in-flight tasks
  size_t free = 0;          // reserved - allocated - pending
  size_t largest_free = 0;  // the largest free block
  size_t segments = 0;
  size_t live_blocks = 0;
  uint64_t allocations = 0;       // successful Allocate calls
  uint64_t segment_acquires = 0;  // driver allocations (allocations - these: served from cache)
  uint64_t segment_releases = 0;
  // 1 - largest_free / free (0 when nothing is free).
  double fragmentation() const {
    return free == 0 ? 0.0 : 1.0 - static_cast<double>(largest_free) / static_cast<double>(free);
  }
};

class CachingAllocator {
 public:
  static constexpr size_t kGranule = 512;
  static constexpr size_t kSmallLimit = size_t{1} << 20;
  static constexpr size_t kMinSegment = size_t{2} << 20;
  // Largest wholly free segment kept as an arena's spare (bigger ones go back at once).
  static constexpr size_t kMaxSpare = kMinSegment;

  // `source` must outlive the allocator; `device_id` names the device in messages.
  CachingAllocator(SegmentSource* source, int32_t device_id);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // Allocates at least `bytes` usable bytes (> 0) from `pool` with `page` pages and records
  // `info` (its base, reserved, region and page_bytes are filled in). Errors: kDeviceOom
  // (message from the driver, plus the allocator's cached bytes), the driver's other errors.
  Result<void*> Allocate(driver::MemPool pool, driver::PageSize page, size_t bytes,
                         const Allocation& info);
  // Allocate's fast path (aclrtMalloc's): serves a request of at most kSmallLimit bytes from
  // a cached free block, or returns nullptr, having changed nothing, when that needs more (a
  // new segment, pending blocks, coalescing, a reset device, a large request): the caller
  // then calls Allocate.
  // Why both exist: one mechanism serves the block -- both take it with TakeFit and record it
  // with CommitLocked, so a block is chosen and accounted identically -- but Allocate must also
  // wait for the scheduler's fence, coalesce, grow the arena and format errors, which costs the
  // ~30 ns aclrtMalloc budget even when none of it is needed. The fast path is the subset that
  // cannot fail, and it hands back to Allocate rather than duplicate any of the rest.
  void* TryAllocateCached(driver::MemPool pool, driver::PageSize page, size_t bytes,
                          const Allocation& info);
  // Frees the allocation starting exactly at `ptr`; kMemoryFree (with the reason) if there
  // is none.
  Result<Allocation> Free(const void* ptr);
  // Free's fast path: true if `ptr` was the start of a live allocation (now freed); false,
  // having changed nothing, otherwise (Free then says why). Both release through
  // ReleaseLocked; Free alone looks up why a pointer is not freeable and returns its record.
  bool TryFree(const void* ptr);

  // Queries over live allocations (as MemoryTable).
  std::optional<Allocation> Find(const void* ptr, size_t bytes) const;
  size_t FindAll(const void* const* ptrs, const size_t* bytes, size_t n) const;
  std::optional<Allocation> FindContaining(const void* ptr) const;
  size_t Count() const;
  size_t UsedBytes() const;      // bytes of the blocks in use
  size_t ReservedBytes() const;  // bytes of the segments held from the driver
  RegionUsage Usage(MemRegion region) const;
  // Bytes of `region` held from the driver but not in use (free or pending): aclrtMalloc can
  // serve them without the driver, so aclrtGetMemInfo counts them as free.
  size_t CachedBytes(MemRegion region) const;
  void ForEach(const std::function<void(const Allocation&)>& visit) const;

  // Coalesces everything and returns wholly free segments to the driver (spares too) until
  // at most `keep` bytes stay reserved (or none is left to return); returns the bytes
  // released.
  size_t Trim(size_t keep = 0);
  // Highest reserved and in-use bytes since creation or the last ResetPeaks.
  size_t PeakReservedBytes() const;
  size_t PeakUsedBytes() const;
  void ResetPeaks();
  // Releases every segment; returns the allocations that were still live (leaks), by address.
  // Later allocations fail with kInvalidDevice (the device was reset).
  std::vector<Allocation> ReleaseAll();
  // Statistics (coalesces the small arenas first, so the figures describe merged blocks).
  HeapStats Stats();
  // The same figures as they stand, without coalescing (cheap: for profiler samples; free
  // neighbours not merged yet count as separate blocks, so fragmentation reads higher).
  HeapStats Peek() const;

 private:
  struct Segment;
  // kQuick: free, held in its small arena's quick slot (in no bin, merged with nothing until
  // the arena is consolidated).
  enum class State : uint8_t { kFree, kAllocated, kPending, kQuick, kDead };
  struct Block {
    uintptr_t base = 0;
    size_t size = 0;
    Block* prev = nullptr;  // address neighbours in the segment
    Block* next = nullptr;
    Block* bin_prev = nullptr;  // size-class list (free) / block pool / pending list
    Block* bin_next = nullptr;
    Segment* segment = nullptr;
    uint64_t fence = 0;  // kPending: reusable once reached
    uint16_t bin = 0;
    State state = State::kFree;
    bool deferred = false;  // free in a small arena, not yet coalesced (in its defer list)
    Block* defer_prev = nullptr;
    Block* defer_next = nullptr;
    Allocation info;  // kAllocated
  };
  struct Arena;  // defined in the .cc (holds the SizeBins)
  struct Segment {
    uintptr_t base = 0;
    size_t size = 0;
    Arena* arena = nullptr;
  };

  Arena& ArenaFor(driver::MemPool pool, driver::PageSize page, bool small);
  Block* NewBlock();
  void DeleteBlock(Block* block);
  Block* TakeFit(Arena& arena, size_t bytes);
  Block* TakeQuick(Arena& arena, size_t bytes);  // a small arena's quick block of exactly `bytes`
  Status AddSegment(Arena& arena, size_t bytes);
  Block* Carve(Arena& arena, Block* block, size_t bytes);
  // Marks a block taken from a bin as in use, with its record and the statistics.
  void* CommitLocked(Block* block, driver::MemPool pool, driver::PageSize page,
                     const Allocation& info);
  // Takes an allocated block out of use: pending until `fence` is reached, else free.
  void ReleaseLocked(Block* block, uint64_t fence);
  // Puts a block that is no longer used into its arena: a small arena's quick slot, else a
  // bin (merging in large arenas).
  void MakeFree(Block* block);
  void FreeToBins(Block* block);  // MakeFree past the quick slot
  // Merges a free block (not in a bin) with its free neighbours; returns the survivor.
  Block* Merge(Block* block);
  void ConsolidateLocked(Arena& arena);
  void Undefer(Block* block);  // takes a deferred block off its arena's defer list
  void MatureLocked(bool all_reached);
  void ReleaseIfEmpty(Block* block);
  void ReleaseSegment(Block* whole);
  size_t TrimLocked(size_t keep = 0);
  HeapStats StatsLocked() const;
  // DEBUG log line with the figures (fragmentation = 1 - largest free block / free bytes).
  void LogFragmentationLocked(const char* what, size_t bytes) const;
  const Block* BlockContaining(uintptr_t addr) const;
  std::optional<Allocation> FindContainingLocked(const void* ptr) const;

  SegmentSource* const source_;
  const int32_t device_id_;
  mutable SpinLock mu_;
  std::vector<std::unique_ptr<Arena>> arenas_;
  std::map<uintptr_t, Block*> blocks_;  // every block of every segment, by address
  std::vector<std::unique_ptr<Block[]>> block_chunks_;
  Block* spare_blocks_ = nullptr;
  Block* pending_head_ = nullptr;  // FIFO of pending blocks (fences nondecreasing)
  Block* pending_tail_ = nullptr;
  bool closed_ = false;         // ReleaseAll was called
  uint64_t reached_fence_ = 0;  // every fence <= this is known reached
  size_t live_count_ = 0;
  size_t allocated_ = 0;
  size_t pending_ = 0;
  size_t reserved_ = 0;
  size_t segment_count_ = 0;
  size_t peak_reserved_ = 0;
  size_t peak_allocated_ = 0;
  uint64_t allocations_ = 0;
  uint64_t acquires_ = 0;
  uint64_t releases_ = 0;
  std::array<RegionUsage, static_cast<size_t>(MemRegion::kCount)> regions_{};  // blocks in use
  std::array<size_t, static_cast<size_t>(MemRegion::kCount)> region_reserved_{};
};

}  // namespace aclsim::core
