// The caching allocator behind aclrtMalloc, seen through the public API: reuse, coalescing,
// stream-ordered reuse of blocks freed while work is in flight, reclamation at reset.
#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclTest;

using acltest::FreeHbm;
using acltest::TotalHbm;

TEST_F(AclTest, FreedBlockIsReusedForTheSameSize) {
  void* first = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&first, 100000, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(first));
  void* second = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&second, 100000, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(second, first);
  EXPECT_ACL_OK(aclrtFree(second));
}

// aclrtMalloc / aclrtFree of small blocks take a fast path; threads that allocate and free
// each other's blocks at once must still see distinct blocks and leave the statistics exact.
TEST_F(AclTest, ThreadsAllocatingAndFreeingEachOthersBlocksKeepTheBooks) {
  const size_t free0 = FreeHbm();
  constexpr int kThreads = 4;
  constexpr int kRounds = 200;
  constexpr int kBlocks = 16;
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  // Round r: thread t allocates kBlocks blocks into slot (t, r % 2) and frees the blocks its
  // neighbour allocated one round earlier.
  std::vector<void*> slots[kThreads][2];
  std::atomic<int> arrived{0};
  std::atomic<int> failures{0};
  auto barrier = [&](int generation) {
    arrived.fetch_add(1);
    while (arrived.load() < generation * kThreads) std::this_thread::yield();
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++failures;
      std::mt19937 rng(t);
      for (int r = 0; r < kRounds; ++r) {
        std::vector<void*>& mine = slots[t][r % 2];
        for (int i = 0; i < kBlocks; ++i) {
          void* dev = nullptr;
          const size_t size = 64 + rng() % 8192;
          if (aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) ++failures;
          mine.push_back(dev);
        }
        barrier(2 * r + 1);  // every thread has allocated this round
        std::vector<void*>& theirs = slots[(t + 1) % kThreads][(r + 1) % 2];
        for (void* dev : theirs) {
          if (aclrtFree(dev) != ACL_SUCCESS) ++failures;
        }
        theirs.clear();
        barrier(2 * r + 2);  // every block of the last round is freed
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0) << acltest::TakeRecentErrors();
  // The blocks of the last round, all distinct, are still live.
  std::vector<void*> live;
  for (auto& thread_slots : slots) {
    for (auto& slot : thread_slots) live.insert(live.end(), slot.begin(), slot.end());
  }
  ASSERT_EQ(live.size(), static_cast<size_t>(kThreads * kBlocks));
  std::sort(live.begin(), live.end());
  EXPECT_EQ(std::adjacent_find(live.begin(), live.end()), live.end());
  for (void* dev : live) EXPECT_ACL_OK(aclrtFree(dev));
  for (void* dev : live) EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, dev);  // once only
  EXPECT_EQ(FreeHbm(), free0);
}

TEST_F(AclTest, AddressesAreSixtyFourByteAlignedForEverySize) {
  std::vector<void*> blocks;
  for (size_t size : {1, 31, 33, 64, 1000, 4097, 65535, 1 << 20, (1 << 20) + 1}) {
    void* dev = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 64, 0u) << size;
    blocks.push_back(dev);
  }
  for (void* dev : blocks) EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, AfterARandomTraceNinetyPercentOfTheDeviceAllocatesInOneBlock) {
  const size_t free0 = FreeHbm();
  std::mt19937 rng(2026);
  std::vector<void*> live;
  const aclrtMemMallocPolicy policies[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
                                           ACL_MEM_MALLOC_NORMAL_ONLY};
  for (int step = 0; step < 4000; ++step) {
    if (live.empty() || rng() % 5 < 3) {
      const size_t size = rng() % 8 == 0 ? 1 + rng() % (64 << 20) : 1 + rng() % (256 << 10);
      void* dev = nullptr;
      ASSERT_ACL_OK(aclrtMalloc(&dev, size, policies[rng() % 3]));
      live.push_back(dev);
    } else {
      const size_t i = rng() % live.size();
      ASSERT_ACL_OK(aclrtFree(live[i]));
      live[i] = live.back();
      live.pop_back();
    }
  }
  for (void* dev : live) ASSERT_ACL_OK(aclrtFree(dev));
  EXPECT_EQ(FreeHbm(), free0);  // cached memory counts as free
  const size_t big = TotalHbm() / 10 * 9;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, big, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, BlockFreedWhileAStreamMayUseItIsNotHandedOutUntilTheStreamIsDone) {
  const size_t kBytes = 256 << 10;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 5);
  acltest::PinnedHost pinned_in(in);
  acltest::HeldStream held;
  void* a = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(a, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, held.stream()));
  ASSERT_ACL_OK(aclrtFree(a));  // the copy into `a` has not run yet

  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_NE(b, a);
  ASSERT_ACL_OK(aclrtMemset(b, kBytes, 0x5A, kBytes));
  held.Open();  // the copy runs now, into the freed block, not into `b`
  if (acltest::MemcheckFromEnvironment()) {
    // The memory checker reports the free above (a use after free) on the held stream.
    EXPECT_ACL_ERR(ACL_ERROR_RT_DEVICE_MEM_ERROR, aclrtSynchronizeStream, held.stream());
  } else {
    EXPECT_ACL_OK(aclrtSynchronizeStream(held.stream()));
  }
  std::vector<uint8_t> out(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::count(out.begin(), out.end(), 0x5A), static_cast<long>(kBytes));

  void* c = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&c, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(c, a);  // the work is done: the block is reused
  EXPECT_ACL_OK(aclrtFree(b));
  EXPECT_ACL_OK(aclrtFree(c));
}

TEST_F(AclTest, ResetReclaimsLeakedAndCachedMemory) {
  const size_t free0 = FreeHbm();
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, size_t{1} << 30, ACL_MEM_MALLOC_HUGE_ONLY));
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_LT(FreeHbm(), free0);
  ASSERT_ACL_OK(aclrtResetDevice(0));  // both leaked: released, with a warning each
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(FreeHbm(), free0);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, dev);
}

}  // namespace
