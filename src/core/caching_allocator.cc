#include "core/caching_allocator.h"

#include <algorithm>
#include <utility>

#include "core/size_bins.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

constexpr size_t kBlockChunk = 256;
// Deferred (not yet coalesced) free blocks of a small arena beyond which a free coalesces.
constexpr size_t kMaxDeferred = 4096;
// Quick slots of a small arena: the last block freed per slot (chosen by size), taken back
// by an allocation of exactly its size without a bin search.
constexpr size_t kQuickSlots = 16;

size_t RoundUp(size_t value, size_t to) { return (value + to - 1) / to * to; }

size_t PoolIndex(driver::MemPool pool) { return pool == driver::MemPool::kHbm ? 0 : 1; }

size_t PageIndex(driver::PageSize page) {
  switch (page) {
    case driver::PageSize::k4K:
      return 0;
    case driver::PageSize::k2M:
      return 1;
    case driver::PageSize::k1G:
      return 2;
  }
  return 0;
}

MemRegion RegionOf(driver::MemPool pool) {
  return pool == driver::MemPool::kDdr ? MemRegion::kDdr : MemRegion::kHbm;
}

}  // namespace

struct CachingAllocator::Arena {
  Arena(driver::MemPool p, driver::PageSize pg, bool s) : pool(p), page(pg), small(s) {}
  // Bytes of a new segment for a request of `bytes`.
  size_t SegmentBytes(size_t bytes) const {
    const size_t unit = std::max(kMinSegment, driver::PageBytes(page));
    return small ? unit : RoundUp(bytes, unit);
  }

  const driver::MemPool pool;
  const driver::PageSize page;
  const bool small;
  SizeBins<Block, kGranule> bins;
  Block* deferred = nullptr;  // free blocks not yet coalesced (small arenas)
  size_t deferred_count = 0;
  std::array<Block*, kQuickSlots> quick{};  // State::kQuick blocks (small arenas)
  size_t quick_count = 0;
  Block*& QuickSlot(size_t bytes) { return quick[bytes / kGranule % kQuickSlots]; }
  Segment* spare = nullptr;  // a wholly free segment kept for reuse
};

CachingAllocator::CachingAllocator(SegmentSource* source, int32_t device_id)
    : source_(source), device_id_(device_id) {
  for (driver::MemPool pool : {driver::MemPool::kHbm, driver::MemPool::kDdr}) {
    for (driver::PageSize page :
         {driver::PageSize::k4K, driver::PageSize::k2M, driver::PageSize::k1G}) {
      for (bool small : {false, true})
        arenas_.push_back(std::make_unique<Arena>(pool, page, small));
    }
  }
}

CachingAllocator::~CachingAllocator() {
  // Segments still held are the driver's to reclaim (the owner calls ReleaseAll first).
  for (auto& entry : blocks_) {
    if (entry.second->prev == nullptr) delete entry.second->segment;
  }
}

CachingAllocator::Arena& CachingAllocator::ArenaFor(driver::MemPool pool, driver::PageSize page,
                                                    bool small) {
  return *arenas_[(PoolIndex(pool) * 3 + PageIndex(page)) * 2 + (small ? 1 : 0)];
}

CachingAllocator::Block* CachingAllocator::NewBlock() {
  if (spare_blocks_ == nullptr) {
    auto chunk = std::make_unique<Block[]>(kBlockChunk);
    for (size_t i = 0; i < kBlockChunk; ++i) {
      chunk[i].bin_next = spare_blocks_;
      spare_blocks_ = &chunk[i];
    }
    block_chunks_.push_back(std::move(chunk));
  }
  Block* block = spare_blocks_;
  spare_blocks_ = block->bin_next;
  *block = Block{};
  return block;
}

void CachingAllocator::DeleteBlock(Block* block) {
  if (block->deferred) Undefer(block);
  block->state = State::kDead;
  block->bin_next = spare_blocks_;
  spare_blocks_ = block;
}

// Inline: the fast paths' bodies (no call in TryAllocateCached / TryFree).
inline void* CachingAllocator::CommitLocked(Block* block, driver::MemPool pool,
                                            driver::PageSize page, const Allocation& info) {
  block->state = State::kAllocated;
  block->info = info;
  block->info.base = reinterpret_cast<void*>(block->base);
  block->info.reserved = block->size;
  block->info.region = RegionOf(pool);
  block->info.page_bytes = driver::PageBytes(page);
  allocated_ += block->size;
  peak_allocated_ = std::max(peak_allocated_, allocated_);
  ++live_count_;
  ++allocations_;
  RegionUsage& region = regions_[static_cast<size_t>(RegionOf(pool))];  // not read back
  region.current += block->size;
  region.peak = std::max(region.peak, region.current);
  return block->info.base;
}

inline void CachingAllocator::ReleaseLocked(Block* block, uint64_t fence) {
  allocated_ -= block->size;
  --live_count_;
  regions_[static_cast<size_t>(block->info.region)].current -= block->size;
  if (fence != 0 && fence > reached_fence_) {
    block->state = State::kPending;
    block->fence = fence;
    block->bin_next = nullptr;
    if (pending_tail_ != nullptr) {
      pending_tail_->bin_next = block;
    } else {
      pending_head_ = block;
    }
    pending_tail_ = block;
    pending_ += block->size;
  } else {
    MakeFree(block);
  }
}

inline CachingAllocator::Block* CachingAllocator::TakeQuick(Arena& arena, size_t bytes) {
  Block*& quick = arena.QuickSlot(bytes);
  if (quick == nullptr || quick->size != bytes) return nullptr;
  --arena.quick_count;
  return std::exchange(quick, nullptr);
}

Result<void*> CachingAllocator::Allocate(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                         const Allocation& info) {
  if (bytes == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  if (bytes > (size_t{1} << 62)) {
    return Err(StatusCode::kDeviceOom, "device {}: cannot allocate {} bytes", device_id_, bytes);
  }
  const size_t need = RoundUp(bytes, kGranule);
  std::unique_lock<SpinLock> lock(mu_);
  if (closed_) {
    return Err(StatusCode::kInvalidDevice, "device {} was reset; call aclrtSetDevice({}) again",
               device_id_, device_id_);
  }
  Arena& arena = ArenaFor(pool, page, need <= kSmallLimit);
  // Nothing in flight: every pending block is reusable (no scheduler query needed).
  if (pending_head_ != nullptr && source_->Fence() == 0) MatureLocked(true);
  Block* block = TakeFit(arena, need);
  if (block == nullptr && pending_head_ != nullptr) {
    MatureLocked(false);
    block = TakeFit(arena, need);
  }
  if (block == nullptr && (arena.deferred != nullptr || arena.quick_count != 0)) {
    ConsolidateLocked(arena);
    block = TakeFit(arena, need);
  }
  if (block == nullptr) {
    Status status = AddSegment(arena, need);
    if (status.code() == StatusCode::kDeviceOom && TrimLocked() > 0) {
      status = AddSegment(arena, need);
    }
    if (status.code() == StatusCode::kDeviceOom && pending_head_ != nullptr) {
      // Memory freed while tasks were in flight: wait for them, then retry.
      lock.unlock();
      source_->WaitIdle();
      lock.lock();
      if (closed_) {
        return Err(StatusCode::kInvalidDevice, "device {} was reset during the allocation",
                   device_id_);
      }
      MatureLocked(true);
      ConsolidateLocked(arena);
      block = TakeFit(arena, need);
      if (block == nullptr) {
        TrimLocked();
        status = AddSegment(arena, need);
      }
    }
    if (block == nullptr) {
      if (!status.ok()) {
        if (status.code() != StatusCode::kDeviceOom) return status;
        return Status(StatusCode::kDeviceOom,
                      fmt::format("{} (the caching allocator holds {} bytes in {} segments, {} "
                                  "of them in use)",
                                  status.message(), reserved_, segment_count_, allocated_),
                      status.detail());
      }
      block = TakeFit(arena, need);
      if (block == nullptr) {
        return Err(StatusCode::kInternal, "device {}: new segment does not fit {} bytes",
                   device_id_, need);
      }
    }
  }
  return CommitLocked(block, pool, page, info);
}

void* CachingAllocator::TryAllocateCached(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                          const Allocation& info) {
  if (bytes - 1 >= kSmallLimit) return nullptr;  // 0 or large
  const size_t need = RoundUp(bytes, kGranule);
  std::lock_guard<SpinLock> lock(mu_);
  // Pending blocks: Allocate decides whether they can be reused first.
  if (closed_ || pending_head_ != nullptr) return nullptr;
  Arena& arena = ArenaFor(pool, page, /*small=*/true);
  Block* block = TakeQuick(arena, need);
  if (block == nullptr) block = TakeFit(arena, need);
  return block != nullptr ? CommitLocked(block, pool, page, info) : nullptr;
}

CachingAllocator::Block* CachingAllocator::TakeFit(Arena& arena, size_t bytes) {
  if (arena.small) {
    if (Block* quick = TakeQuick(arena, bytes)) return quick;
  }
  Block* block = arena.bins.FindFit(bytes);
  if (block == nullptr) return nullptr;
  arena.bins.Remove(block);
  if (block->deferred) Undefer(block);
  if (block->segment == arena.spare) arena.spare = nullptr;
  // In a large segment, a tail shorter than a huge page stays with its block: lent to a
  // smaller request it would pin the whole segment after this block is freed.
  const bool keep_tail =
      !arena.small && block->segment->size > kMinSegment && block->size - bytes < kMinSegment;
  if (block->size - bytes >= kGranule && !keep_tail) {
    Block* rest = NewBlock();
    rest->base = block->base + bytes;
    rest->size = block->size - bytes;
    rest->segment = block->segment;
    rest->prev = block;
    rest->next = block->next;
    if (block->next != nullptr) block->next->prev = rest;
    block->next = rest;
    block->size = bytes;
    blocks_.emplace(rest->base, rest);
    rest->state = State::kFree;
    arena.bins.Insert(rest);
  }
  return block;
}

Status CachingAllocator::AddSegment(Arena& arena, size_t bytes) {
  const size_t segment_bytes = arena.SegmentBytes(bytes);
  void* addr = nullptr;
  ACLSIM_RETURN_IF_ERROR(source_->Acquire(arena.pool, arena.page, segment_bytes, &addr));
  auto* segment = new Segment{reinterpret_cast<uintptr_t>(addr), segment_bytes, &arena};
  Block* block = NewBlock();
  block->base = segment->base;
  block->size = segment_bytes;
  block->segment = segment;
  block->state = State::kFree;
  blocks_.emplace(block->base, block);
  arena.bins.Insert(block);
  reserved_ += segment_bytes;
  peak_reserved_ = std::max(peak_reserved_, reserved_);
  region_reserved_[static_cast<size_t>(RegionOf(arena.pool))] += segment_bytes;
  ++segment_count_;
  ++acquires_;
  LogFragmentationLocked("new segment", segment_bytes);
  return Status::Ok();
}

void CachingAllocator::MakeFree(Block* block) {
  Arena& arena = *block->segment->arena;
  if (arena.small) {
    // Into its quick slot; the block there before goes on into the bins.
    Block*& quick = arena.QuickSlot(block->size);
    block->state = State::kQuick;
    std::swap(block, quick);
    if (block == nullptr) {
      ++arena.quick_count;
      return;
    }
  }
  FreeToBins(block);
}

void CachingAllocator::FreeToBins(Block* block) {
  Arena& arena = *block->segment->arena;
  block->state = State::kFree;
  if (arena.small && arena.deferred_count < kMaxDeferred) {
    block->deferred = true;
    block->defer_prev = nullptr;
    block->defer_next = arena.deferred;
    if (arena.deferred != nullptr) arena.deferred->defer_prev = block;
    arena.deferred = block;
    ++arena.deferred_count;
    arena.bins.Insert(block);
    return;
  }
  block = Merge(block);
  arena.bins.Insert(block);
  ReleaseIfEmpty(block);
}

CachingAllocator::Block* CachingAllocator::Merge(Block* block) {
  Arena& arena = *block->segment->arena;
  while (block->prev != nullptr && block->prev->state == State::kFree) {
    Block* prev = block->prev;
    arena.bins.Remove(prev);
    prev->size += block->size;
    prev->next = block->next;
    if (block->next != nullptr) block->next->prev = prev;
    blocks_.erase(block->base);
    DeleteBlock(block);
    block = prev;
    if (block->deferred) Undefer(block);
  }
  while (block->next != nullptr && block->next->state == State::kFree) {
    Block* next = block->next;
    arena.bins.Remove(next);
    block->size += next->size;
    block->next = next->next;
    if (next->next != nullptr) next->next->prev = block;
    blocks_.erase(next->base);
    DeleteBlock(next);
  }
  if (block->deferred) Undefer(block);
  return block;
}

void CachingAllocator::Undefer(Block* block) {
  Arena& arena = *block->segment->arena;
  if (block->defer_prev != nullptr) {
    block->defer_prev->defer_next = block->defer_next;
  } else {
    arena.deferred = block->defer_next;
  }
  if (block->defer_next != nullptr) block->defer_next->defer_prev = block->defer_prev;
  block->defer_prev = block->defer_next = nullptr;
  block->deferred = false;
  --arena.deferred_count;
}

void CachingAllocator::ConsolidateLocked(Arena& arena) {
  for (Block*& quick : arena.quick) {
    if (quick == nullptr) continue;
    FreeToBins(std::exchange(quick, nullptr));
  }
  arena.quick_count = 0;
  while (arena.deferred != nullptr) {
    Block* block = arena.deferred;
    Undefer(block);
    arena.bins.Remove(block);
    block = Merge(block);  // may take other deferred blocks off the list
    arena.bins.Insert(block);
    ReleaseIfEmpty(block);
  }
}

void CachingAllocator::MatureLocked(bool all_reached) {
  while (pending_head_ != nullptr) {
    Block* block = pending_head_;
    if (!all_reached && block->fence > reached_fence_) {
      if (!source_->FenceReached(block->fence)) break;
      reached_fence_ = block->fence;
    }
    pending_head_ = block->bin_next;
    if (pending_head_ == nullptr) pending_tail_ = nullptr;
    block->bin_next = nullptr;
    pending_ -= block->size;
    MakeFree(block);
  }
}

void CachingAllocator::ReleaseIfEmpty(Block* block) {
  if (block->prev != nullptr || block->next != nullptr) return;  // not the whole segment
  Arena& arena = *block->segment->arena;
  if (arena.spare == nullptr && block->size <= kMaxSpare) {
    arena.spare = block->segment;
    return;
  }
  if (arena.spare != block->segment) ReleaseSegment(block);
}

void CachingAllocator::ReleaseSegment(Block* whole) {
  Segment* segment = whole->segment;
  Arena& arena = *segment->arena;
  arena.bins.Remove(whole);
  if (arena.spare == segment) arena.spare = nullptr;
  blocks_.erase(whole->base);
  reserved_ -= segment->size;
  region_reserved_[static_cast<size_t>(RegionOf(arena.pool))] -= segment->size;
  --segment_count_;
  ++releases_;
  source_->Release(reinterpret_cast<void*>(segment->base));
  LogFragmentationLocked("segment returned", segment->size);
  delete segment;
  DeleteBlock(whole);
}

void CachingAllocator::LogFragmentationLocked(const char* what, size_t bytes) const {
  if (!dfx::LogEnabled(dfx::Module::kRuntime, dfx::Level::kDebug)) return;
  const HeapStats stats = StatsLocked();
  const size_t free_bytes = stats.free;
  const size_t largest = stats.largest_free;
  const double fragmentation = stats.fragmentation();
  ACLSIM_LOG_DEBUG(dfx::Module::kRuntime,
                   "device {} memory: {} of {} bytes; reserved {}, in use {}, pending {}, cached "
                   "free {} (largest block {}), fragmentation {:.1f}%",
                   device_id_, what, bytes, reserved_, allocated_, pending_, free_bytes, largest,
                   fragmentation * 100);
}

size_t CachingAllocator::TrimLocked(size_t keep) {
  size_t released = 0;
  for (auto& arena : arenas_) {
    if (reserved_ <= keep) break;
    ConsolidateLocked(*arena);
    arena->spare = nullptr;
    std::vector<Block*> whole;
    arena->bins.ForEach([&whole](Block* block) {
      if (block->prev == nullptr && block->next == nullptr) whole.push_back(block);
    });
    for (Block* block : whole) {
      if (reserved_ <= keep) break;
      released += block->size;
      ReleaseSegment(block);
    }
  }
  return released;
}

size_t CachingAllocator::Trim(size_t keep) {
  std::lock_guard<SpinLock> lock(mu_);
  MatureLocked(false);
  return TrimLocked(keep);
}

size_t CachingAllocator::PeakReservedBytes() const {
  std::lock_guard<SpinLock> lock(mu_);
  return peak_reserved_;
}

size_t CachingAllocator::PeakUsedBytes() const {
  std::lock_guard<SpinLock> lock(mu_);
  return peak_allocated_;
}

void CachingAllocator::ResetPeaks() {
  std::lock_guard<SpinLock> lock(mu_);
  peak_reserved_ = reserved_;
  peak_allocated_ = allocated_;
}

Result<Allocation> CachingAllocator::Free(const void* ptr) {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  // Read before the lock (lock-free in the driver): work enqueued after this call started
  // cannot be using memory the program is freeing.
  const uint64_t fence = source_->Fence();
  std::lock_guard<SpinLock> lock(mu_);
  auto it = blocks_.find(addr);
  if (it == blocks_.end() || it->second->state != State::kAllocated) {
    if (it != blocks_.end()) {
      return Err(StatusCode::kMemoryFree, "{} on device {} was already freed", ptr, device_id_);
    }
    if (auto inside = FindContainingLocked(ptr)) {
      return Err(StatusCode::kMemoryFree,
                 "{} points inside the allocation at {} ({} bytes); free its start address", ptr,
                 inside->base, inside->size);
    }
    return Err(StatusCode::kMemoryFree, "{} is not a live allocation on device {} (already freed?)",
               ptr, device_id_);
  }
  Allocation info = it->second->info;
  ReleaseLocked(it->second, fence);
  return info;
}

bool CachingAllocator::TryFree(const void* ptr) {
  const uint64_t fence = source_->Fence();  // as in Free
  std::lock_guard<SpinLock> lock(mu_);
  auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == blocks_.end() || it->second->state != State::kAllocated) return false;
  ReleaseLocked(it->second, fence);
  return true;
}

const CachingAllocator::Block* CachingAllocator::BlockContaining(uintptr_t addr) const {
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  --it;
  const Block* block = it->second;
  return addr < block->base + block->size ? block : nullptr;
}

std::optional<Allocation> CachingAllocator::FindContainingLocked(const void* ptr) const {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  const Block* block = BlockContaining(addr);
  if (block == nullptr || block->state != State::kAllocated) return std::nullopt;
  if (addr >= block->base + block->info.size) return std::nullopt;
  return block->info;
}

std::optional<Allocation> CachingAllocator::FindContaining(const void* ptr) const {
  std::lock_guard<SpinLock> lock(mu_);
  return FindContainingLocked(ptr);
}

std::optional<Allocation> CachingAllocator::Find(const void* ptr, size_t bytes) const {
  auto allocation = FindContaining(ptr);
  if (!allocation) return std::nullopt;
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  const auto base = reinterpret_cast<uintptr_t>(allocation->base);
  if (bytes > allocation->size || addr - base > allocation->size - bytes) return std::nullopt;
  return allocation;
}

size_t CachingAllocator::FindAll(const void* const* ptrs, const size_t* bytes, size_t n) const {
  if (n == 0) return 0;
  std::lock_guard<SpinLock> lock(mu_);
  for (size_t i = 0; i < n; ++i) {
    auto allocation = FindContainingLocked(ptrs[i]);
    if (!allocation) return i;
    const auto addr = reinterpret_cast<uintptr_t>(ptrs[i]);
    const auto base = reinterpret_cast<uintptr_t>(allocation->base);
    if (bytes[i] > allocation->size || addr - base > allocation->size - bytes[i]) return i;
  }
  return n;
}

size_t CachingAllocator::Count() const {
  std::lock_guard<SpinLock> lock(mu_);
  return live_count_;
}

size_t CachingAllocator::UsedBytes() const {
  std::lock_guard<SpinLock> lock(mu_);
  return allocated_;
}

size_t CachingAllocator::ReservedBytes() const {
  std::lock_guard<SpinLock> lock(mu_);
  return reserved_;
}

RegionUsage CachingAllocator::Usage(MemRegion region) const {
  std::lock_guard<SpinLock> lock(mu_);
  return regions_[static_cast<size_t>(region)];
}

size_t CachingAllocator::CachedBytes(MemRegion region) const {
  std::lock_guard<SpinLock> lock(mu_);
  const auto index = static_cast<size_t>(region);
  return region_reserved_[index] - regions_[index].current;
}

void CachingAllocator::ForEach(const std::function<void(const Allocation&)>& visit) const {
  std::lock_guard<SpinLock> lock(mu_);
  for (const auto& entry : blocks_) {
    if (entry.second->state == State::kAllocated) visit(entry.second->info);
  }
}

std::vector<Allocation> CachingAllocator::ReleaseAll() {
  std::lock_guard<SpinLock> lock(mu_);
  closed_ = true;
  std::vector<Allocation> leaks;
  std::vector<Segment*> segments;
  for (const auto& entry : blocks_) {
    const Block* block = entry.second;
    if (block->state == State::kAllocated) leaks.push_back(block->info);
    if (block->prev == nullptr) segments.push_back(block->segment);
  }
  for (auto& entry : blocks_) DeleteBlock(entry.second);
  blocks_.clear();
  for (Segment* segment : segments) {
    source_->Release(reinterpret_cast<void*>(segment->base));
    ++releases_;
    delete segment;
  }
  for (auto& arena : arenas_) {
    arena->bins = SizeBins<Block, kGranule>();
    arena->deferred = nullptr;
    arena->deferred_count = 0;
    arena->quick.fill(nullptr);
    arena->quick_count = 0;
    arena->spare = nullptr;
  }
  pending_head_ = pending_tail_ = nullptr;
  live_count_ = allocated_ = pending_ = reserved_ = segment_count_ = 0;
  for (RegionUsage& region : regions_) region.current = 0;
  region_reserved_.fill(0);
  return leaks;
}

HeapStats CachingAllocator::Stats() {
  std::lock_guard<SpinLock> lock(mu_);
  MatureLocked(false);
  for (auto& arena : arenas_) ConsolidateLocked(*arena);
  return StatsLocked();
}

HeapStats CachingAllocator::Peek() const {
  std::lock_guard<SpinLock> lock(mu_);
  return StatsLocked();
}

HeapStats CachingAllocator::StatsLocked() const {
  HeapStats stats;
  stats.reserved = reserved_;
  stats.allocated = allocated_;
  stats.pending = pending_;
  stats.free = reserved_ - allocated_ - pending_;
  stats.segments = segment_count_;
  stats.live_blocks = live_count_;
  stats.allocations = allocations_;
  stats.segment_acquires = acquires_;
  stats.segment_releases = releases_;
  for (const auto& arena : arenas_) {
    stats.largest_free = std::max(stats.largest_free, arena->bins.LargestSize());
    for (const Block* quick : arena->quick) {
      if (quick != nullptr) stats.largest_free = std::max(stats.largest_free, quick->size);
    }
  }
  return stats;
}

}  // namespace aclsim::core
