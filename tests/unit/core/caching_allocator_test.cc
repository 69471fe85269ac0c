// Unit tests of the caching allocator over a fake segment source (no real memory is touched).
#include "core/caching_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace aclsim::core {
namespace {

using driver::MemPool;
using driver::PageSize;

constexpr size_t kMiB = size_t{1} << 20;

// Hands out address ranges of a pretend pool with a capacity; fences are set by the test.
class FakeSegments final : public SegmentSource {
 public:
  explicit FakeSegments(size_t capacity) : capacity_(capacity) {}

  Status Acquire(MemPool /*pool*/, PageSize page, size_t bytes, void** addr) override {
    ++acquires;
    if (used_ + bytes > capacity_) {
      return Err(StatusCode::kDeviceOom, "fake pool: {} bytes requested, {} free", bytes,
                 capacity_ - used_);
    }
    const size_t align = driver::PageBytes(page);
    next_ = (next_ + align - 1) / align * align;
    *addr = reinterpret_cast<void*>(next_);
    live_[next_] = bytes;
    next_ += bytes;
    used_ += bytes;
    return Status::Ok();
  }
  void Release(void* addr) override {
    auto it = live_.find(reinterpret_cast<uintptr_t>(addr));
    ASSERT_NE(it, live_.end()) << "release of an unknown segment";
    used_ -= it->second;
    live_.erase(it);
    ++releases;
  }
  uint64_t Fence() override { return in_flight ? last_task : 0; }
  bool FenceReached(uint64_t fence) override { return fence <= completed; }
  void WaitIdle() override {
    ++waits;
    completed = last_task;
    in_flight = false;
  }

  size_t used() const { return used_; }
  size_t segments() const { return live_.size(); }

  int acquires = 0;
  int releases = 0;
  int waits = 0;
  bool in_flight = false;
  uint64_t last_task = 0;
  uint64_t completed = 0;

 private:
  size_t capacity_;
  size_t used_ = 0;
  uintptr_t next_ = uintptr_t{1} << 40;
  std::map<uintptr_t, size_t> live_;
};

class CachingAllocatorTest : public ::testing::Test {
 protected:
  void* Alloc(size_t bytes, PageSize page = PageSize::k4K) {
    Allocation info;
    info.size = bytes;
    info.api = "test";
    auto ptr = heap.Allocate(MemPool::kHbm, page, bytes, info);
    EXPECT_TRUE(ptr.ok()) << ptr.status().message();
    return ptr.ok() ? *ptr : nullptr;
  }
  void Free(void* ptr) {
    auto freed = heap.Free(ptr);
    EXPECT_TRUE(freed.ok()) << freed.status().message();
  }

  FakeSegments source{size_t{1} << 30};
  CachingAllocator heap{&source, 0};
};

TEST_F(CachingAllocatorTest, RepeatedSizeIsServedFromTheCache) {
  for (int i = 0; i < 1000; ++i) Free(Alloc(64 * 1024));
  EXPECT_EQ(source.acquires, 1);
  const HeapStats stats = heap.Stats();
  EXPECT_EQ(stats.allocations, 1000u);
  EXPECT_EQ(stats.segment_acquires, 1u);
  EXPECT_EQ(stats.allocated, 0u);
}

TEST_F(CachingAllocatorTest, FastPathsServeCachedBlocksAndLeaveTheRestToTheFullPath) {
  Allocation info;
  info.size = 4000;
  info.api = "fast";
  // Nothing cached yet: the fast path declines (and changes nothing), Allocate serves it.
  EXPECT_EQ(heap.TryAllocateCached(MemPool::kHbm, PageSize::k4K, 4096, info), nullptr);
  EXPECT_EQ(source.acquires, 0);
  void* p = Alloc(4096);
  EXPECT_TRUE(heap.TryFree(p));
  // The same size again comes back from the block just freed (its quick slot).
  void* q = heap.TryAllocateCached(MemPool::kHbm, PageSize::k4K, 4096, info);
  EXPECT_EQ(q, p);
  ASSERT_TRUE(heap.FindContaining(q));
  EXPECT_STREQ(heap.FindContaining(q)->api, "fast");
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).current, 4096u);
  // A smaller size splits the rest of the segment; large requests always take the full path.
  EXPECT_NE(heap.TryAllocateCached(MemPool::kHbm, PageSize::k4K, 512, info), nullptr);
  EXPECT_EQ(heap.TryAllocateCached(MemPool::kHbm, PageSize::k4K, 2 * kMiB, info), nullptr);
  EXPECT_EQ(heap.TryAllocateCached(MemPool::kHbm, PageSize::k4K, 0, info), nullptr);
  // TryFree declines what Free would refuse, and leaves the reason to Free.
  EXPECT_FALSE(heap.TryFree(static_cast<char*>(q) + 512));
  EXPECT_TRUE(heap.TryFree(q));
  EXPECT_FALSE(heap.TryFree(q));
  auto twice = heap.Free(q);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("already freed"), std::string::npos);
  EXPECT_EQ(heap.Stats().allocations, 3u);
}

TEST_F(CachingAllocatorTest, BlocksInQuickSlotsCountAsFreeAndCoalesce) {
  // Sizes that share a quick slot (16 slots by granule count) displace each other.
  void* a = Alloc(512);
  void* b = Alloc(17 * 512);
  void* c = Alloc(1024);
  Free(a);
  Free(b);  // takes a's slot: a goes into the bins
  Free(c);
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).current, 0u);
  EXPECT_EQ(heap.CachedBytes(MemRegion::kHbm), CachingAllocator::kMinSegment);
  // Stats consolidates the quick slots with everything else: one free segment.
  const HeapStats stats = heap.Stats();
  EXPECT_EQ(stats.free, CachingAllocator::kMinSegment);
  EXPECT_EQ(stats.largest_free, CachingAllocator::kMinSegment);
  EXPECT_EQ(heap.Trim(), CachingAllocator::kMinSegment);
  EXPECT_EQ(source.used(), 0u);
  // A request that needs the merged space after plain frees (no Stats) still fits: the
  // allocator consolidates the quick slots before asking the driver for more.
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(Alloc(512 * 1024 - 64));  // the whole segment
  EXPECT_EQ(source.acquires, 2);
  Free(blocks[1]);
  EXPECT_EQ(heap.Peek().largest_free, 512u * 1024);  // the block in its quick slot
  for (void* p : {blocks[0], blocks[2], blocks[3]}) Free(p);
  Free(Alloc(kMiB));
  EXPECT_EQ(source.acquires, 2);
}

TEST_F(CachingAllocatorTest, BlocksAreAlignedAndNeverOverlap) {
  std::mt19937 rng(7);
  std::map<uintptr_t, size_t> live;
  for (int step = 0; step < 5000; ++step) {
    if (live.empty() || rng() % 2 != 0) {
      const size_t bytes = 1 + rng() % (3 * kMiB);
      void* p = Alloc(bytes);
      const auto addr = reinterpret_cast<uintptr_t>(p);
      ASSERT_EQ(addr % CachingAllocator::kGranule, 0u);
      auto next = live.lower_bound(addr);
      if (next != live.end()) {
        ASSERT_LE(addr + bytes, next->first);
      }
      if (next != live.begin()) {
        auto prev = std::prev(next);
        ASSERT_LE(prev->first + prev->second, addr);
      }
      live[addr] = bytes;
    } else {
      auto it = live.begin();
      std::advance(it, rng() % live.size());
      Free(reinterpret_cast<void*>(it->first));
      live.erase(it);
    }
  }
  EXPECT_EQ(heap.Count(), live.size());
}

TEST_F(CachingAllocatorTest, FreedNeighboursCoalesceIntoTheWholeSegment) {
  void* a = Alloc(100 * 1024);
  void* b = Alloc(200 * 1024);
  void* c = Alloc(300 * 1024);
  EXPECT_EQ(source.acquires, 1);  // one small segment
  Free(a);
  Free(c);
  Free(b);
  const HeapStats stats = heap.Stats();
  EXPECT_EQ(stats.segments, 1u);  // kept as the arena's spare
  EXPECT_EQ(stats.free, CachingAllocator::kMinSegment);
  EXPECT_EQ(stats.largest_free, CachingAllocator::kMinSegment);
  EXPECT_EQ(stats.fragmentation(), 0.0);
}

TEST_F(CachingAllocatorTest, WhollyFreeSegmentsGoBackToTheDriverButOneSpare) {
  const size_t kBlock = 3 * kMiB / 2;  // each needs a 2 MiB segment of its own
  void* a = Alloc(kBlock);
  void* b = Alloc(kBlock);
  EXPECT_EQ(source.segments(), 2u);
  Free(a);
  Free(b);
  EXPECT_EQ(source.segments(), 1u);  // the spare
  EXPECT_EQ(source.releases, 1);
  void* c = Alloc(kBlock);  // from the spare
  EXPECT_EQ(source.acquires, 2);
  Free(c);
  EXPECT_EQ(heap.Trim(), CachingAllocator::kMinSegment);
  EXPECT_EQ(source.used(), 0u);
  // A bigger segment is never kept: it goes back as soon as it is wholly free.
  Free(Alloc(8 * kMiB));
  EXPECT_EQ(source.used(), 0u);
}

TEST_F(CachingAllocatorTest, SmallRequestsDoNotSplitLargeSegments) {
  void* big = Alloc(3 * kMiB);  // segment of 4 MiB: 1 MiB left over
  void* small = Alloc(4096);
  EXPECT_EQ(source.acquires, 2);
  EXPECT_EQ(heap.FindContaining(small)->base, small);
  Free(big);
  Free(small);
}

TEST_F(CachingAllocatorTest, HugeBlockKeepsItsTailSoItsSegmentFreesWithIt) {
  void* a = Alloc(5 * kMiB, PageSize::k2M);  // three huge pages
  EXPECT_EQ(heap.FindContaining(a)->reserved, 6 * kMiB);
  void* b = Alloc(3 * kMiB / 2, PageSize::k2M);  // does not borrow a's tail
  EXPECT_EQ(source.acquires, 2);
  Free(a);
  EXPECT_EQ(source.releases, 1);  // a's segment went back whole
  Free(b);
}

TEST_F(CachingAllocatorTest, PageSizesHaveTheirOwnSegments) {
  void* normal = Alloc(4 * kMiB, PageSize::k4K);
  void* huge = Alloc(4 * kMiB, PageSize::k2M);
  EXPECT_EQ(source.acquires, 2);
  EXPECT_EQ(heap.FindContaining(huge)->page_bytes, 2 * kMiB);
  EXPECT_EQ(heap.FindContaining(normal)->page_bytes, 4096u);
  Free(normal);
  Free(huge);
}

TEST_F(CachingAllocatorTest, BlockFreedDuringInFlightWorkWaitsForItsFence) {
  void* first = Alloc(64 * 1024);
  source.in_flight = true;
  source.last_task = 10;
  Free(first);  // tasks up to 10 may still use it
  void* second = Alloc(64 * 1024);
  EXPECT_NE(second, first);
  EXPECT_EQ(heap.Stats().pending, 64 * 1024u);
  source.completed = 10;
  source.in_flight = false;
  void* third = Alloc(64 * 1024);
  EXPECT_EQ(third, first);  // reusable now
  Free(second);
  Free(third);
}

TEST_F(CachingAllocatorTest, OutOfMemoryWaitsForPendingFrees) {
  FakeSegments small_pool(8 * kMiB);
  CachingAllocator tight(&small_pool, 0);
  Allocation info;
  auto a = tight.Allocate(MemPool::kHbm, PageSize::k2M, 8 * kMiB, info);
  ASSERT_TRUE(a.ok());
  small_pool.in_flight = true;
  small_pool.last_task = 3;
  ASSERT_TRUE(tight.Free(*a).ok());
  auto b = tight.Allocate(MemPool::kHbm, PageSize::k2M, 8 * kMiB, info);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(small_pool.waits, 1);
  tight.ReleaseAll();
}

TEST_F(CachingAllocatorTest, OutOfMemoryReturnsCachedSegmentsAndRetries) {
  FakeSegments small_pool(4 * kMiB);
  CachingAllocator tight(&small_pool, 0);
  Allocation info;
  auto big = tight.Allocate(MemPool::kHbm, PageSize::k4K, 4 * kMiB, info);
  ASSERT_TRUE(big.ok());
  ASSERT_TRUE(tight.Free(*big).ok());  // kept as a spare: the pool is full
  auto small = tight.Allocate(MemPool::kHbm, PageSize::k4K, 4096, info);
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(small_pool.releases, 1);
  auto too_big = tight.Allocate(MemPool::kHbm, PageSize::k4K, 4 * kMiB, info);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), StatusCode::kDeviceOom);
  EXPECT_NE(too_big.status().message().find("caching allocator"), std::string::npos);
  tight.ReleaseAll();
}

TEST_F(CachingAllocatorTest, RandomTraceThenFreeAllLeavesNothingBehind) {
  std::mt19937 rng(11);
  std::vector<void*> live;
  for (int step = 0; step < 20000; ++step) {
    if (live.empty() || rng() % 2 == 0) {
      const size_t bytes = rng() % 4 == 0 ? 1 + rng() % (16 * kMiB) : 1 + rng() % 65536;
      live.push_back(Alloc(bytes, rng() % 3 == 0 ? PageSize::k2M : PageSize::k4K));
    } else {
      const size_t i = rng() % live.size();
      Free(live[i]);
      live[i] = live.back();
      live.pop_back();
    }
  }
  for (void* p : live) Free(p);
  HeapStats stats = heap.Stats();
  EXPECT_EQ(stats.allocated, 0u);
  EXPECT_EQ(stats.fragmentation() > 0.0, stats.segments > 1);  // at most one spare per arena
  heap.Trim();
  stats = heap.Stats();
  EXPECT_EQ(stats.reserved, 0u);
  EXPECT_EQ(source.used(), 0u);
}

TEST_F(CachingAllocatorTest, BadFreesAreRefusedWithTheReason) {
  void* p = Alloc(4096);
  auto inside = heap.Free(static_cast<char*>(p) + 16);
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(inside.status().code(), StatusCode::kMemoryFree);
  EXPECT_NE(inside.status().message().find("inside the allocation"), std::string::npos);
  Free(p);
  auto twice = heap.Free(p);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("already freed"), std::string::npos);
  auto stranger = heap.Free(reinterpret_cast<void*>(uintptr_t{64}));
  ASSERT_FALSE(stranger.ok());
  EXPECT_NE(stranger.status().message().find("not a live allocation"), std::string::npos);
}

TEST_F(CachingAllocatorTest, LookupsSeeOnlyTheRequestedBytesOfLiveBlocks) {
  char* p = static_cast<char*>(Alloc(1000));
  EXPECT_TRUE(heap.Find(p, 1000));
  EXPECT_TRUE(heap.Find(p + 999, 1));
  EXPECT_FALSE(heap.Find(p, 1001));
  EXPECT_FALSE(heap.FindContaining(p + 1000));  // the padding is not the user's
  const void* ptrs[] = {p, p + 10, p + 2000};
  const size_t sizes[] = {10, 10, 1};
  EXPECT_EQ(heap.FindAll(ptrs, sizes, 3), 2u);
  Free(p);
  EXPECT_FALSE(heap.FindContaining(p));
}

TEST_F(CachingAllocatorTest, ReleaseAllReportsLeaksAndReturnsEverySegment) {
  Alloc(4096);
  void* b = Alloc(5 * kMiB);
  Alloc(100);
  Free(b);
  const std::vector<Allocation> leaks = heap.ReleaseAll();
  EXPECT_EQ(leaks.size(), 2u);
  EXPECT_EQ(source.used(), 0u);
  EXPECT_EQ(heap.Count(), 0u);
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).current, 0u);
}

TEST_F(CachingAllocatorTest, UsageCountsBlocksInUseAndTheirPeak) {
  void* a = Alloc(1000);  // 1000 bytes -> one 1024-byte block
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).current, 1024u);
  Free(a);
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).current, 0u);
  EXPECT_EQ(heap.Usage(MemRegion::kHbm).peak, 1024u);
  EXPECT_EQ(heap.CachedBytes(MemRegion::kHbm), CachingAllocator::kMinSegment);
}

}  // namespace
}  // namespace aclsim::core
