// The memory hierarchy: page tables per allocation and the TLB model, in simulated time.
#include <gtest/gtest.h>

#include <vector>

#include "ops/work_builders.h"
#include "sim/device_memory.h"
#include "sim/sim_device.h"
#include "sim/soc_profile.h"
#include "sim/tlb_model.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

double MissesPer1000(const TlbCounts& c, PageSize page) {
  const auto i = static_cast<size_t>(page);
  return 1000.0 * static_cast<double>(c.misses[i]) / static_cast<double>(c.accesses[i]);
}

TEST(SimTlbTest, StreamingMissRatesByPageSize) {
  constexpr uint64_t kBytes = 64ull << 20;
  const double m4k =
      MissesPer1000(StreamingTlb({{kBytes, PageSize::k4K}}, kBytes, Cost()), PageSize::k4K);
  const double m2m =
      MissesPer1000(StreamingTlb({{kBytes, PageSize::k2M}}, kBytes, Cost()), PageSize::k2M);
  EXPECT_NEAR(m4k, 15.6, 1.0);  // "on the order of 15 per 1000"
  EXPECT_NEAR(m2m, 2.0, 0.5);   // "on the order of 2"
}

TEST(SimTlbTest, RereadsMissAgainOnlyBeyondTheTlbReach) {
  const uint64_t reach_4k = Cost().tlb_entries_4k * 4096;
  const TlbCounts small = StreamingTlb({{reach_4k, PageSize::k4K}}, 4 * reach_4k, Cost());
  EXPECT_EQ(small.total_misses(), reach_4k / 4096);  // first pass only
  const TlbCounts big = StreamingTlb({{2 * reach_4k, PageSize::k4K}}, 8 * reach_4k, Cost());
  EXPECT_EQ(big.total_misses(), 8 * reach_4k / 4096);  // every pass
}

TEST(SimTlbTest, PageTablesRecordEachAllocationsPageSize) {
  DeviceMemory memory(0, 4ull << 30, 0);
  ASSERT_OK(memory.status());
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_OK(memory.Allocate(MemPool::kHbm, PageSize::k4K, 10000, &a));
  ASSERT_OK(memory.Allocate(MemPool::kHbm, PageSize::k1G, 1, &b));
  EXPECT_EQ(memory.PageOf(static_cast<char*>(a) + 9999), PageSize::k4K);
  EXPECT_EQ(memory.PageOf(static_cast<char*>(b) + (1 << 29)), PageSize::k1G);
  EXPECT_EQ(memory.PageOf(static_cast<char*>(a) + 3 * 4096), std::nullopt);  // past a's pages
  ASSERT_OK(memory.Free(a));
  EXPECT_EQ(memory.PageOf(a), std::nullopt);
}

// PagesOf remembers recent lookups per thread: a change of the page tables (here the same
// address freed and allocated again on other pages) and another memory's tables must not see
// a stale answer.
TEST(SimTlbTest, PageLookupsFollowFreesAndReallocations) {
  DeviceMemory memory(0, 4ull << 30, 0);
  DeviceMemory other(1, 4ull << 30, 0);
  ASSERT_OK(memory.status());
  ASSERT_OK(other.status());
  void* a = nullptr;
  ASSERT_OK(memory.Allocate(MemPool::kHbm, PageSize::k2M, 4096, &a));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(memory.PageOf(a), PageSize::k2M);
  EXPECT_EQ(other.PageOf(a), std::nullopt);  // not other's allocation
  ASSERT_OK(memory.Free(a));
  EXPECT_EQ(memory.PageOf(a), std::nullopt);
  void* b = nullptr;
  ASSERT_OK(memory.Allocate(MemPool::kHbm, PageSize::k4K, 4096, &b));
  ASSERT_EQ(b, a);  // first fit: the same address, now on 4 KiB pages
  EXPECT_EQ(memory.PageOf(b), PageSize::k4K);
  const void* both[2] = {b, static_cast<char*>(b) + 4096};
  std::optional<PageSize> pages[2];
  memory.PagesOf(both, 2, pages);
  EXPECT_EQ(pages[0], PageSize::k4K);
  EXPECT_EQ(pages[1], std::nullopt);  // past b's page
}

// Simulated time of a streaming elementwise kernel over buffers mapped with `page`, and the
// device's TLB counters afterwards.
std::pair<uint64_t, TlbCounts> StreamKernel(PageSize page) {
  auto driver = MakeBackend("sim", {{"hbm_bytes", std::to_string(4ull << 30)}});
  auto device = Open(*driver);
  constexpr uint64_t kBytes = 16ull << 20;
  std::vector<void*> buffers(3);
  driver::KernelWork work =
      ops::ElementwiseWork(kBytes / 2, 2, driver::DtypeClass::kFp16, 48, device->props().ub_bytes);
  for (auto& b : buffers) {
    EXPECT_OK(device->AllocPhysical(MemPool::kHbm, page, kBytes, &b));
    work.buffers.push_back({b, kBytes});
  }
  QueueId q = NewQueue(*device);
  Task add = Kernel(48, 0, 0, {}, "add");
  add.engine = driver::Engine::kAiVector;
  add.work = work;
  const uint64_t t0 = device->HostClockNs();
  SubmitOk(*device, q, std::move(add));
  EXPECT_OK(device->SyncQueue(q, -1));
  return {device->HostClockNs() - t0, static_cast<SimDevice&>(*device).TlbTotals()};
}

TEST(SimTlbTest, SmallPagesCostVisibleSimulatedTime) {
  const auto [t4k, c4k] = StreamKernel(PageSize::k4K);
  const auto [t2m, c2m] = StreamKernel(PageSize::k2M);
  const auto [t1g, c1g] = StreamKernel(PageSize::k1G);
  EXPECT_NEAR(MissesPer1000(c4k, PageSize::k4K), 15.6, 1.0);
  EXPECT_NEAR(MissesPer1000(c2m, PageSize::k2M), 2.0, 0.5);
  EXPECT_GT(t4k, t2m + t2m / 50);  // at least 2% slower
  EXPECT_GE(t2m, t1g);
}

TEST(SimTlbTest, CopiesIntoSmallPagesTakeLonger) {
  auto run = [](PageSize page) {
    auto driver = MakeBackend("sim");
    auto device = Open(*driver);
    constexpr size_t kBytes = 8u << 20;
    void* d = nullptr;
    EXPECT_OK(device->AllocPhysical(MemPool::kHbm, page, kBytes, &d));
    std::vector<uint8_t> host(kBytes);
    QueueId q = NewQueue(*device);
    const uint64_t t0 = device->HostClockNs();
    SubmitOk(*device, q, Copy(d, host.data(), kBytes, CopyDir::kHostToDevice));
    EXPECT_OK(device->SyncQueue(q, -1));
    return device->HostClockNs() - t0;
  };
  EXPECT_GT(run(PageSize::k4K), run(PageSize::k2M));
}

}  // namespace
}  // namespace aclsim::sim
