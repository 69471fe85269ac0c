// Device memory: allocation, alignment, OOM, freeing, coalescing and address ranges.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/range_allocator.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

constexpr size_t k4K = 4096;
constexpr size_t k2M = size_t{2} << 20;
constexpr size_t k1G = size_t{1} << 30;

bool AlignedTo(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

TEST(SimMemoryTest, RangeAllocatorCoalescesFreedNeighbours) {
  RangeAllocator alloc(1 << 20);
  auto a = alloc.Allocate(k4K, k4K);
  auto b = alloc.Allocate(k4K, k4K);
  auto c = alloc.Allocate(k4K, k4K);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, 0u);
  EXPECT_EQ(*b, k4K);
  EXPECT_EQ(*c, 2 * k4K);
  EXPECT_EQ(alloc.Release(*b), k4K);
  EXPECT_EQ(alloc.free_range_count(), 2u);  // hole at b, tail after c
  EXPECT_EQ(alloc.Release(*a), k4K);
  EXPECT_EQ(alloc.free_range_count(), 2u);  // a+b merged
  EXPECT_EQ(alloc.Release(*c), k4K);
  EXPECT_EQ(alloc.free_range_count(), 1u);  // everything merged
  EXPECT_EQ(alloc.largest_free_range(), 1u << 20);
  EXPECT_EQ(alloc.Release(*c), 0u);  // double free is refused
}

TEST(SimMemoryTest, RangeAllocatorIsFirstFitAndAligns) {
  RangeAllocator alloc(8 * k2M);
  auto small = alloc.Allocate(k4K, k4K);
  auto big = alloc.Allocate(k2M, k2M);
  ASSERT_TRUE(small && big);
  EXPECT_EQ(*big, k2M);  // aligned past the small one
  auto fill = alloc.Allocate(k4K, k4K);
  ASSERT_TRUE(fill);
  EXPECT_EQ(*fill, k4K);  // first fit reuses the gap in front of `big`
  EXPECT_FALSE(alloc.Allocate(16 * k2M, k4K));
}

class SimMemoryDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    driver_ = MakeBackend("sim", {{"hbm_bytes", std::to_string(64u << 20)}, {"device_count", "2"}});
    ASSERT_NE(driver_, nullptr);
    device_ = Open(*driver_);
    ASSERT_NE(device_, nullptr);
  }
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
};

TEST_F(SimMemoryDeviceTest, AllocationsAreRoundedAndAlignedToTheirPageSize) {
  size_t free0 = 0, total = 0;
  device_->PoolUsage(MemPool::kHbm, &free0, &total);
  EXPECT_EQ(total, 64u << 20);
  EXPECT_EQ(free0, total);

  void* a = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, 100, &a));
  EXPECT_TRUE(AlignedTo(a, k4K));
  void* b = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 3 << 20, &b));
  EXPECT_TRUE(AlignedTo(b, k2M));
  size_t free1 = 0;
  device_->PoolUsage(MemPool::kHbm, &free1, nullptr);
  EXPECT_EQ(free0 - free1, k4K + 2 * k2M);

  std::memset(a, 0x5a, 100);  // usable host memory
  std::memset(b, 0xa5, 3 << 20);
  ASSERT_OK(device_->FreePhysical(a));
  ASSERT_OK(device_->FreePhysical(b));
  device_->PoolUsage(MemPool::kHbm, &free1, nullptr);
  EXPECT_EQ(free1, free0);
}

TEST_F(SimMemoryDeviceTest, FreedMemoryIsCoalescedAndReadsZeroWhenReused) {
  void* p[3] = {};
  for (auto& ptr : p) ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, k2M, &ptr));
  std::memset(p[0], 0xff, k2M);
  for (auto* ptr : p) ASSERT_OK(device_->FreePhysical(ptr));
  // One 6 MiB request fits again at the start only if the three ranges coalesced.
  void* big = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 3 * k2M, &big));
  EXPECT_EQ(big, p[0]);
  EXPECT_EQ(static_cast<unsigned char*>(big)[0], 0);  // MADV_DONTNEED dropped the data
  ASSERT_OK(device_->FreePhysical(big));
}

TEST_F(SimMemoryDeviceTest, FragmentedAddressesDoNotHideFreeMemory) {
  // Fill the pool with 4 MiB blocks, free every other one: 32 MiB free, in 4 MiB holes.
  std::vector<void*> blocks(16);
  for (auto& ptr : blocks)
    ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 4u << 20, &ptr));
  for (size_t i = 0; i < blocks.size(); i += 2) ASSERT_OK(device_->FreePhysical(blocks[i]));
  // As on the device (pages mapped by the MMU), the free bytes make one allocation.
  void* big = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 32u << 20, &big));
  void* more = nullptr;
  EXPECT_EQ(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, 4096, &more).code(),
            StatusCode::kDeviceOom);
  ASSERT_OK(device_->FreePhysical(big));
  for (size_t i = 1; i < blocks.size(); i += 2) ASSERT_OK(device_->FreePhysical(blocks[i]));
}

TEST_F(SimMemoryDeviceTest, ExhaustionIsDeviceOomWithSizes) {
  void* a = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 60u << 20, &a));
  void* b = nullptr;
  Status status = device_->AllocPhysical(MemPool::kHbm, PageSize::k2M, 8u << 20, &b);
  EXPECT_EQ(status.code(), StatusCode::kDeviceOom);
  EXPECT_NE(status.message().find("8388608"), std::string::npos) << status.message();
  EXPECT_EQ(b, nullptr);
  ASSERT_OK(device_->FreePhysical(a));
  EXPECT_EQ(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, 0, &b).code(),
            StatusCode::kInvalidParam);
}

TEST_F(SimMemoryDeviceTest, FreeOfAnUnknownPointerIsMemoryFree) {
  int host = 0;
  EXPECT_EQ(device_->FreePhysical(&host).code(), StatusCode::kMemoryFree);
  void* a = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, 2 * k4K, &a));
  EXPECT_EQ(device_->FreePhysical(static_cast<char*>(a) + k4K).code(), StatusCode::kMemoryFree);
  ASSERT_OK(device_->FreePhysical(a));
  EXPECT_EQ(device_->FreePhysical(a).code(), StatusCode::kMemoryFree);
}

TEST_F(SimMemoryDeviceTest, OwnsRangeCoversTheDeviceRangeOnly) {
  void* a = nullptr;
  ASSERT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, k4K, &a));
  EXPECT_TRUE(device_->OwnsRange(a, k4K));
  EXPECT_TRUE(device_->OwnsRange(static_cast<char*>(a) + 100, 10));
  EXPECT_FALSE(device_->OwnsRange(a, size_t{1} << 40));
  int host = 0;
  EXPECT_FALSE(device_->OwnsRange(&host, sizeof(host)));
  auto other = Open(*driver_, 1);
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(other->OwnsRange(a, 1));  // each device has its own range
  void* b = nullptr;
  ASSERT_OK(other->AllocPhysical(MemPool::kHbm, PageSize::k4K, k4K, &b));
  EXPECT_NE(a, b);
  EXPECT_FALSE(device_->OwnsRange(b, 1));
  ASSERT_OK(device_->FreePhysical(a));
}

TEST_F(SimMemoryDeviceTest, DdrIsUnsupportedWithoutADdrPool) {
  void* a = nullptr;
  EXPECT_EQ(device_->AllocPhysical(MemPool::kDdr, PageSize::k4K, k4K, &a).code(),
            StatusCode::kFeatureUnsupported);
  size_t free = 1, total = 1;
  device_->PoolUsage(MemPool::kDdr, &free, &total);
  EXPECT_EQ(total, 0u);
}

TEST(SimMemoryTest, DdrPoolWorksWhenConfigured) {
  auto driver = MakeBackend("sim", {{"ddr_bytes", std::to_string(16u << 20)}});
  auto device = Open(*driver);
  void* a = nullptr;
  ASSERT_OK(device->AllocPhysical(MemPool::kDdr, PageSize::k2M, k2M, &a));
  EXPECT_TRUE(device->OwnsRange(a, k2M));
  size_t free = 0, total = 0;
  device->PoolUsage(MemPool::kDdr, &free, &total);
  EXPECT_EQ(total, 16u << 20);
  EXPECT_EQ(free, total - k2M);
  ASSERT_OK(device->FreePhysical(a));
}

TEST(SimMemoryTest, OneGigabytePagesAreAlignedToOneGigabyte) {
  auto driver = MakeBackend("sim", {{"hbm_bytes", std::to_string(size_t{3} << 30)}});
  auto device = Open(*driver);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, k4K, &a));
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k1G, 1, &b));
  EXPECT_TRUE(AlignedTo(b, k1G));
  size_t free = 0;
  device->PoolUsage(MemPool::kHbm, &free, nullptr);
  EXPECT_EQ(free, (size_t{3} << 30) - k4K - k1G);
  ASSERT_OK(device->FreePhysical(b));
  ASSERT_OK(device->FreePhysical(a));
}

TEST(SimMemoryTest, EightDefaultDevicesReserveWithoutBacking) {
  // 8 x 64 GiB of HBM: only address space until touched.
  driver::DriverRegistry registry;
  RegisterSimBackends(registry);
  auto created = registry.Create("sim", {});
  ASSERT_TRUE(created.ok());
  std::vector<std::unique_ptr<Device>> devices;
  for (uint32_t i = 0; i < created.value()->DeviceCount(); ++i) {
    devices.push_back(Open(*created.value(), i));
    ASSERT_NE(devices.back(), nullptr);
    size_t total = 0;
    devices.back()->PoolUsage(MemPool::kHbm, nullptr, &total);
    EXPECT_EQ(total, size_t{64} << 30);
  }
  void* p = nullptr;
  ASSERT_OK(devices[7]->AllocPhysical(MemPool::kHbm, PageSize::k1G, size_t{60} << 30, &p));
  static_cast<char*>(p)[0] = 1;  // touch one page only
  ASSERT_OK(devices[7]->FreePhysical(p));
}

TEST(SimMemoryTest, OpeningADeviceTwiceIsRefused) {
  auto driver = MakeBackend("sim");
  auto first = Open(*driver);
  std::unique_ptr<Device> second;
  EXPECT_EQ(driver->OpenDevice(0, &second).code(), StatusCode::kInvalidDevice);
  first.reset();
  EXPECT_OK(driver->OpenDevice(0, &second));  // reopening after close works
  EXPECT_EQ(driver->OpenDevice(99, &second).code(), StatusCode::kInvalidDevice);
}

// huge_page_bytes: 2 MiB and 1 GiB pages (allocations and VMM physical memory) share a
// budget per pool; 4 KiB pages take the rest of the pool.
TEST(SimHugePageBudgetTest, HugePagesStopAtTheBudgetNormalPagesDoNot) {
  auto driver = MakeBackend("sim", {{"hbm_bytes", std::to_string(64u << 20)},
                                    {"huge_page_bytes", std::to_string((8u << 20) + 4096)}});
  ASSERT_NE(driver, nullptr);
  auto device = Open(*driver);
  ASSERT_NE(device, nullptr);
  size_t free_bytes = 0, total = 0;
  device->HugePageUsage(MemPool::kHbm, &free_bytes, &total);
  EXPECT_EQ(total, 8u << 20);  // rounded down to 2 MiB pages
  EXPECT_EQ(free_bytes, 8u << 20);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 3u << 20, &a));  // 4 MiB
  uint64_t phys = 0;
  ASSERT_OK(device->CreatePhysical(MemPool::kHbm, PageSize::k2M, k2M, &phys));
  device->HugePageUsage(MemPool::kHbm, &free_bytes, nullptr);
  EXPECT_EQ(free_bytes, k2M);
  Status full = device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 4u << 20, &b);
  EXPECT_EQ(full.code(), StatusCode::kDeviceOom);
  EXPECT_NE(full.message().find("huge-page budget"), std::string::npos) << full.message();
  EXPECT_EQ(device->CreatePhysical(MemPool::kHbm, PageSize::k2M, 2 * k2M, &phys).code(),
            StatusCode::kDeviceOom);
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 32u << 20, &b));
  device->PoolUsage(MemPool::kHbm, &free_bytes, nullptr);
  EXPECT_EQ(free_bytes, (64u << 20) - (4u << 20) - k2M - (32u << 20));
  ASSERT_OK(device->FreePhysical(a));
  ASSERT_OK(device->DestroyPhysical(phys));
  device->HugePageUsage(MemPool::kHbm, &free_bytes, nullptr);
  EXPECT_EQ(free_bytes, 8u << 20);
  ASSERT_OK(device->FreePhysical(b));
}

TEST(SimHugePageBudgetTest, TheHugeFigureIsThePoolsWhenThePoolIsTighter) {
  auto driver = MakeBackend("sim", {{"hbm_bytes", std::to_string(64u << 20)}});
  ASSERT_NE(driver, nullptr);
  auto device = Open(*driver);
  ASSERT_NE(device, nullptr);
  void* a = nullptr;
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 60u << 20, &a));
  size_t free_bytes = 0, total = 0;
  device->HugePageUsage(MemPool::kHbm, &free_bytes, &total);
  EXPECT_EQ(total, 64u << 20);
  EXPECT_EQ(free_bytes, 4u << 20);
  ASSERT_OK(device->FreePhysical(a));
}

}  // namespace
}  // namespace aclsim::sim

namespace aclsim::sim {
namespace {

class SimVmmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    driver_ = testing::MakeBackend("sim", {{"hbm_bytes", std::to_string(64u << 20)}});
    ASSERT_NE(driver_, nullptr);
    device_ = testing::Open(*driver_);
    ASSERT_NE(device_, nullptr);
  }
  std::unique_ptr<driver::Driver> driver_;
  std::unique_ptr<driver::Device> device_;
};

TEST_F(SimVmmTest, PhysicalMemoryMappedTwiceAliases) {
  constexpr size_t k2M = size_t{2} << 20;
  void* va = nullptr;
  ASSERT_OK(device_->ReserveAddress(4 * k2M, 0, &va));
  uint64_t phys = 0;
  ASSERT_OK(device_->CreatePhysical(driver::MemPool::kHbm, driver::PageSize::k2M, 2 * k2M, &phys));
  size_t free_bytes = 0;
  device_->PoolUsage(driver::MemPool::kHbm, &free_bytes, nullptr);
  EXPECT_EQ(free_bytes, (64u << 20) - 2 * k2M);  // the reservation itself costs nothing
  auto* first = static_cast<unsigned char*>(va);
  unsigned char* second = first + 2 * k2M;
  ASSERT_OK(device_->MapPhysical(first, 2 * k2M, phys, 0));
  ASSERT_OK(device_->MapPhysical(second, 2 * k2M, phys, 0));
  first[12345] = 0x7e;
  EXPECT_EQ(second[12345], 0x7e);
  // Misuse is refused.
  EXPECT_EQ(device_->MapPhysical(first, k2M, phys, 0).code(), StatusCode::kInvalidParam);
  EXPECT_EQ(device_->DestroyPhysical(phys).code(), StatusCode::kInvalidParam);
  EXPECT_EQ(device_->ReleaseAddress(va).code(), StatusCode::kInvalidParam);
  EXPECT_EQ(device_->MapPhysical(first + 100, k2M, phys, 0).code(), StatusCode::kInvalidParam);
  ASSERT_OK(device_->UnmapPhysical(first));
  ASSERT_OK(device_->UnmapPhysical(second));
  EXPECT_EQ(device_->UnmapPhysical(second).code(), StatusCode::kInvalidParam);
  ASSERT_OK(device_->DestroyPhysical(phys));
  ASSERT_OK(device_->ReleaseAddress(va));
  device_->PoolUsage(driver::MemPool::kHbm, &free_bytes, nullptr);
  EXPECT_EQ(free_bytes, 64u << 20);
}

TEST_F(SimVmmTest, PhysicalAllocationsCountAgainstThePool) {
  uint64_t a = 0, b = 0;
  ASSERT_OK(device_->CreatePhysical(driver::MemPool::kHbm, driver::PageSize::k2M, 48u << 20, &a));
  EXPECT_EQ(
      device_->CreatePhysical(driver::MemPool::kHbm, driver::PageSize::k2M, 32u << 20, &b).code(),
      StatusCode::kDeviceOom);
  EXPECT_EQ(device_->CreatePhysical(driver::MemPool::kHbm, driver::PageSize::k2M, 1000, &b).code(),
            StatusCode::kInvalidParam);
  ASSERT_OK(device_->DestroyPhysical(a));
}

}  // namespace
}  // namespace aclsim::sim
