// Physical memory: pools, page sizes, ownership, accounting, errors.
#include <cstdlib>

#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class MemoryTest : public DriverTest {};

size_t FreeBytes(Device& device, MemPool pool) {
  size_t free_bytes = 0;
  size_t total = 0;
  device.PoolUsage(pool, &free_bytes, &total);
  return free_bytes;
}

size_t TotalBytes(Device& device, MemPool pool) {
  size_t free_bytes = 0;
  size_t total = 0;
  device.PoolUsage(pool, &free_bytes, &total);
  return total;
}

TEST_P(MemoryTest, HbmPoolMatchesProps) {
  size_t free_bytes = 0;
  size_t total = 0;
  dev().PoolUsage(MemPool::kHbm, &free_bytes, &total);
  EXPECT_EQ(total, dev().props().hbm_bytes);
  EXPECT_EQ(total, 256 * kMiB);  // the hbm_bytes option
  EXPECT_EQ(free_bytes, total);
}

// Allocations of every page size: aligned to the page, rounded up to whole pages (seen in the
// pool's free bytes), inside the device's range, and given back by FreePhysical.
TEST_P(MemoryTest, AllocationsAreAlignedAndRoundedToThePage) {
  auto driver = MakeDriver({{"hbm_bytes", std::to_string(3 * kGiB)}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  const size_t total = TotalBytes(*device, MemPool::kHbm);
  for (PageSize page : {PageSize::k4K, PageSize::k2M, PageSize::k1G}) {
    const size_t page_bytes = PageBytes(page);
    SCOPED_TRACE(testing::Message() << "page " << page_bytes);
    for (size_t bytes : {size_t{1}, page_bytes - 1, page_bytes, page_bytes + 1}) {
      SCOPED_TRACE(testing::Message() << "bytes " << bytes);
      const size_t rounded = (bytes + page_bytes - 1) / page_bytes * page_bytes;
      void* addr = nullptr;
      ACLSIM_ASSERT_OK(device->AllocPhysical(MemPool::kHbm, page, bytes, &addr));
      ASSERT_NE(addr, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(addr) % page_bytes, 0u);
      EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), total - rounded);
      EXPECT_TRUE(device->OwnsRange(addr, rounded));
      ACLSIM_EXPECT_OK(device->FreePhysical(addr));
      EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), total);
    }
  }
}

TEST_P(MemoryTest, AllocationsAreDistinctAndUsable) {
  std::vector<uint8_t*> blocks;
  for (int i = 0; i < 16; ++i) {
    auto* p = static_cast<uint8_t*>(Alloc(dev(), 10000));
    ASSERT_NE(p, nullptr);
    blocks.push_back(p);
  }
  // Device memory is host-addressable; writing one block must not touch another.
  for (size_t i = 0; i < blocks.size(); ++i) std::memset(blocks[i], static_cast<int>(i), 10000);
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (size_t j = 0; j < 10000; j += 997) ASSERT_EQ(blocks[i][j], i);
    ASSERT_EQ(blocks[i][9999], i);
  }
  for (uint8_t* p : blocks) ACLSIM_EXPECT_OK(dev().FreePhysical(p));
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), TotalBytes(dev(), MemPool::kHbm));
}

TEST_P(MemoryTest, PoolUsageTracksLiveAllocations) {
  const size_t total = TotalBytes(dev(), MemPool::kHbm);
  void* a = Alloc(dev(), 3 * kMiB, MemPool::kHbm, PageSize::k2M);  // 4 MiB
  void* b = Alloc(dev(), 5000);                                    // 8 KiB
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), total - 4 * kMiB - 8 * kKiB);
  ACLSIM_EXPECT_OK(dev().FreePhysical(a));
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), total - 8 * kKiB);
  ACLSIM_EXPECT_OK(dev().FreePhysical(b));
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), total);
  // Null outputs are allowed for the value not wanted.
  size_t free_only = 0;
  dev().PoolUsage(MemPool::kHbm, &free_only, nullptr);
  EXPECT_EQ(free_only, total);
}

TEST_P(MemoryTest, OwnsRangeCoversTheDeviceRangeOnly) {
  auto* p = static_cast<uint8_t*>(Alloc(dev(), 64 * kKiB));
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(dev().OwnsRange(p, 64 * kKiB));
  EXPECT_TRUE(dev().OwnsRange(p + 100, 1000));
  EXPECT_TRUE(dev().OwnsRange(p, 0));
  // Host memory is not the device's.
  std::vector<uint8_t> host(4096);
  EXPECT_FALSE(dev().OwnsRange(host.data(), host.size()));
  int on_stack = 0;
  EXPECT_FALSE(dev().OwnsRange(&on_stack, sizeof on_stack));
  EXPECT_FALSE(dev().OwnsRange(nullptr, 1));
  // A range that runs past the end of the address space (or of the device) is not owned.
  EXPECT_FALSE(dev().OwnsRange(p, SIZE_MAX));
  EXPECT_FALSE(dev().OwnsRange(p, dev().props().hbm_bytes + dev().props().ddr_bytes + kGiB * 64));
  // "allocated or not": freeing does not change ownership of the range.
  ACLSIM_ASSERT_OK(dev().FreePhysical(p));
  EXPECT_TRUE(dev().OwnsRange(p, 64 * kKiB));
}

TEST_P(MemoryTest, DevicesHaveDisjointRanges) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  void* a0 = Alloc(dev(), 4096);
  void* a1 = Alloc(*d1, 4096);
  ASSERT_NE(a0, nullptr);
  ASSERT_NE(a1, nullptr);
  EXPECT_TRUE(dev().OwnsRange(a0, 4096));
  EXPECT_FALSE(dev().OwnsRange(a1, 4096));
  EXPECT_TRUE(d1->OwnsRange(a1, 4096));
  EXPECT_FALSE(d1->OwnsRange(a0, 4096));
  // A free on the wrong device is a free of an unknown pointer.
  ACLSIM_EXPECT_CODE(d1->FreePhysical(a0), StatusCode::kMemoryFree);
  ACLSIM_EXPECT_OK(dev().FreePhysical(a0));
  ACLSIM_EXPECT_OK(d1->FreePhysical(a1));
}

TEST_P(MemoryTest, FreeOfUnknownPointerIsMemoryFree) {
  std::vector<uint8_t> host(64);
  ACLSIM_EXPECT_CODE(dev().FreePhysical(host.data()), StatusCode::kMemoryFree);
  ACLSIM_EXPECT_CODE(dev().FreePhysical(nullptr), StatusCode::kMemoryFree);
  auto* p = static_cast<uint8_t*>(Alloc(dev(), 8192));
  ASSERT_NE(p, nullptr);
  // Not the exact pointer returned.
  ACLSIM_EXPECT_CODE(dev().FreePhysical(p + 4096), StatusCode::kMemoryFree);
  ACLSIM_EXPECT_CODE(dev().FreePhysical(p + 1), StatusCode::kMemoryFree);
  ACLSIM_EXPECT_OK(dev().FreePhysical(p));
  // Double free.
  ACLSIM_EXPECT_CODE(dev().FreePhysical(p), StatusCode::kMemoryFree);
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), TotalBytes(dev(), MemPool::kHbm));
}

TEST_P(MemoryTest, ExhaustedPoolIsDeviceOom) {
  auto driver = MakeDriver({{"hbm_bytes", std::to_string(64 * kMiB)}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  void* addr = reinterpret_cast<void*>(0x1);
  ACLSIM_EXPECT_CODE(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 64 * kMiB + 1, &addr),
                     StatusCode::kDeviceOom);
  ACLSIM_EXPECT_CODE(device->AllocPhysical(MemPool::kHbm, PageSize::k1G, 1, &addr),
                     StatusCode::kDeviceOom);
  // The whole pool fits once; then nothing more does.
  void* all = nullptr;
  ACLSIM_ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 64 * kMiB, &all));
  EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), 0u);
  ACLSIM_EXPECT_CODE(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 1, &addr),
                     StatusCode::kDeviceOom);
  // A failed allocation changes nothing; freeing makes room again.
  ACLSIM_ASSERT_OK(device->FreePhysical(all));
  EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), 64 * kMiB);
  void* again = nullptr;
  ACLSIM_ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 64 * kMiB, &again));
  ACLSIM_EXPECT_OK(device->FreePhysical(again));
}

// Requests no pool can hold fail and leave nothing allocated. (driver.h names kDeviceOom for
// an exhausted pool; a size whose page round-up overflows is not named, so only failure is
// checked for SIZE_MAX.)
TEST_P(MemoryTest, HugeRequestsFail) {
  const size_t total = TotalBytes(dev(), MemPool::kHbm);
  void* addr = nullptr;
  ACLSIM_EXPECT_CODE(dev().AllocPhysical(MemPool::kHbm, PageSize::k4K, size_t{1} << 40, &addr),
                     StatusCode::kDeviceOom);
  EXPECT_FALSE(dev().AllocPhysical(MemPool::kHbm, PageSize::k4K, SIZE_MAX, &addr).ok());
  EXPECT_FALSE(dev().AllocPhysical(MemPool::kHbm, PageSize::k1G, SIZE_MAX - kGiB, &addr).ok());
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), total);
}

TEST_P(MemoryTest, FreedMemoryIsReusable) {
  const size_t total = TotalBytes(dev(), MemPool::kHbm);
  for (int round = 0; round < 8; ++round) {
    void* big = nullptr;
    ACLSIM_ASSERT_OK(dev().AllocPhysical(MemPool::kHbm, PageSize::k2M, total, &big));
    ACLSIM_ASSERT_OK(dev().FreePhysical(big));
  }
}

// A SoC without DDR (910B2: props().ddr_bytes == 0) has an empty DDR pool: PoolUsage reports
// 0 of 0 and DDR allocations fail. The interface names no code for a missing pool; it must
// not be success.
TEST_P(MemoryTest, NoDdrPoolWhenPropsSayNone) {
  ASSERT_EQ(dev().props().ddr_bytes, 0u);
  size_t free_bytes = 1;
  size_t total = 1;
  dev().PoolUsage(MemPool::kDdr, &free_bytes, &total);
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(free_bytes, 0u);
  void* addr = nullptr;
  Status status = dev().AllocPhysical(MemPool::kDdr, PageSize::k4K, 4096, &addr);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(addr, nullptr);
  // The HBM pool is untouched.
  EXPECT_EQ(FreeBytes(dev(), MemPool::kHbm), TotalBytes(dev(), MemPool::kHbm));
}

// With a DDR pool (option ddr_bytes): its own capacity and accounting, device-owned
// addresses distinct from HBM, OOM when exhausted.
TEST_P(MemoryTest, DdrPoolIsSeparateFromHbm) {
  auto driver = MakeDriver({{"ddr_bytes", std::to_string(32 * kMiB)}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->props().ddr_bytes, 32 * kMiB);
  EXPECT_EQ(TotalBytes(*device, MemPool::kDdr), 32 * kMiB);
  const size_t hbm_free = FreeBytes(*device, MemPool::kHbm);

  auto* ddr = static_cast<uint8_t*>(Alloc(*device, 5 * kMiB, MemPool::kDdr, PageSize::k2M));
  auto* hbm = static_cast<uint8_t*>(Alloc(*device, 5 * kMiB, MemPool::kHbm, PageSize::k2M));
  ASSERT_NE(ddr, nullptr);
  ASSERT_NE(hbm, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ddr) % (2 * kMiB), 0u);
  EXPECT_EQ(FreeBytes(*device, MemPool::kDdr), 32 * kMiB - 6 * kMiB);
  EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), hbm_free - 6 * kMiB);
  EXPECT_TRUE(device->OwnsRange(ddr, 5 * kMiB));
  EXPECT_TRUE(ddr + 6 * kMiB <= hbm || hbm + 6 * kMiB <= ddr);
  std::memset(ddr, 0xAB, 5 * kMiB);
  std::memset(hbm, 0xCD, 5 * kMiB);
  EXPECT_EQ(ddr[5 * kMiB - 1], 0xAB);

  void* addr = nullptr;
  ACLSIM_EXPECT_CODE(device->AllocPhysical(MemPool::kDdr, PageSize::k4K, 27 * kMiB, &addr),
                     StatusCode::kDeviceOom);
  ACLSIM_EXPECT_OK(device->FreePhysical(ddr));
  ACLSIM_EXPECT_OK(device->FreePhysical(hbm));
  EXPECT_EQ(FreeBytes(*device, MemPool::kDdr), 32 * kMiB);
  EXPECT_EQ(FreeBytes(*device, MemPool::kHbm), hbm_free);
}

ACLSIM_CONFORMANCE_SUITE(MemoryTest);

}  // namespace
}  // namespace aclsim::driver::conformance
