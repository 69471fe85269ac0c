// Memory: the allocation variants (aclrtMallocWithCfg, aclrtMallocCached,
// aclrtMallocForTaskScheduler, aclrtMallocHostWithCfg), aclrtMemFlush / aclrtMemInvalidate and
// aclrtGetMemUsageInfo.
#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::RoundTrip;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

using acltest::FreeHbm;

TEST_F(AclTest, MallocWithCfgBehavesAsMallocWithoutAttributes) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMallocWithCfg(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  EXPECT_TRUE(RoundTrip(dev, 4096, 1));
  EXPECT_ACL_OK(aclrtFree(dev));
  aclrtMallocAttribute attrs[2] = {};
  attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attrs[0].value.moduleId = 7;
  attrs[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
  attrs[1].value.vaFlag = 0;
  aclrtMallocConfig cfg = {attrs, 2};
  ASSERT_ACL_OK(aclrtMallocWithCfg(&dev, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg));
  EXPECT_TRUE(RoundTrip(dev, 1 << 20, 2));
  EXPECT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtMallocForTaskScheduler(&dev, 512, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  EXPECT_TRUE(RoundTrip(dev, 512, 3));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, MallocWithCfgDeviceIdAllocatesOnThatDevice) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  const size_t free1 = FreeHbm();
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const size_t free0 = FreeHbm();
  aclrtMallocAttribute attr = {};
  attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  attr.value.deviceId = 1;
  aclrtMallocConfig cfg = {&attr, 1};
  const size_t kBytes = size_t{64} << 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMallocWithCfg(&dev, kBytes, ACL_MEM_MALLOC_HUGE_ONLY, &cfg));
  EXPECT_EQ(FreeHbm(), free0);  // the current device is untouched
  ASSERT_ACL_OK(aclrtSetDevice(1));
  // CANN pads aclrtMalloc sizes by 32 bytes, and huge pages round up to 2 MiB.
  EXPECT_EQ(FreeHbm(), free1 - kBytes - (size_t{2} << 20));
  EXPECT_TRUE(RoundTrip(dev, 4096, 4));
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_EQ(FreeHbm(), free1);

  attr.value.deviceId = 5;  // exists, but not set in this process
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMallocWithCfg, &dev, 64,
                 ACL_MEM_MALLOC_HUGE_FIRST, &cfg);
  attr.value.deviceId = 1000;
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMallocWithCfg, &dev, 64,
                 ACL_MEM_MALLOC_HUGE_FIRST, &cfg);
}

TEST_F(AclTest, MallocWithCfgRefusesBadConfigs) {
  void* dev = nullptr;
  aclrtMallocConfig no_attrs = {nullptr, 1};
  EXPECT_ACL_ERR(kBadParam, aclrtMallocWithCfg, &dev, 64, ACL_MEM_MALLOC_HUGE_FIRST, &no_attrs);
  aclrtMallocAttribute attr = {};
  attr.attr = static_cast<aclrtMallocAttrType>(99);
  aclrtMallocConfig unknown = {&attr, 1};
  EXPECT_ACL_ERR(kBadParam, aclrtMallocWithCfg, &dev, 64, ACL_MEM_MALLOC_HUGE_FIRST, &unknown);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocWithCfg, nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocWithCfg, &dev, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocWithCfg, &dev, 64, static_cast<aclrtMemMallocPolicy>(0xff),
                 nullptr);
  aclrtMallocConfig empty = {nullptr, 0};  // no attributes: fine
  ASSERT_ACL_OK(aclrtMallocWithCfg(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST, &empty));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, CachedMemoryFlushesAndInvalidates) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMallocCached(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_TRUE(RoundTrip(dev, 8192, 5));
  EXPECT_ACL_OK(aclrtMemFlush(dev, 8192));
  EXPECT_ACL_OK(aclrtMemInvalidate(static_cast<char*>(dev) + 4096, 4096));
  EXPECT_TRUE(RoundTrip(dev, 8192, 6));
  EXPECT_ACL_ERR(kBadParam, aclrtMemFlush, dev, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMemFlush, nullptr, 64);
  EXPECT_ACL_ERR(kBadParam, aclrtMemInvalidate, dev, 8193);  // past the allocation
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERR(kBadParam, aclrtMemFlush, host.data(), 64);
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_ERR(kBadParam, aclrtMemInvalidate, dev, 64);  // freed
  EXPECT_ACL_ERR(kBadParam, aclrtMallocCached, nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
}

TEST_F(AclTest, MallocHostWithCfgIsPinnedHostMemory) {
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&host, 1000, nullptr));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  std::memset(host, 0x3C, 1000);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  aclrtMallocAttribute attr = {};
  attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
  aclrtMallocConfig cfg = {&attr, 1};
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&host, 64, &cfg));
  EXPECT_ACL_OK(aclrtFreeHost(host));
  attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;  // a device does not apply to host memory
  EXPECT_ACL_ERR(kBadParam, aclrtMallocHostWithCfg, &host, 64, &cfg);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocHostWithCfg, nullptr, 64, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocHostWithCfg, &host, 0, nullptr);
}

TEST_F(AclTest, MemUsageInfoReportsCurrentAndPeakPerRegion) {
  aclrtMemUsageInfo info[4] = {};
  size_t count = 99;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &count));
  ASSERT_GE(count, 1u);
  EXPECT_STREQ(info[0].name, "HBM");
  const uint64_t base = info[0].curMemSize;
  void* dev = nullptr;
  // In use: 3 MiB on huge pages takes two of them.
  const uint64_t block = uint64_t{4} << 20;
  ASSERT_ACL_OK(aclrtMalloc(&dev, size_t{3} << 20, ACL_MEM_MALLOC_HUGE_ONLY));
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &count));
  EXPECT_EQ(info[0].curMemSize, base + block);
  EXPECT_GE(info[0].memPeakSize, info[0].curMemSize);
  ASSERT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &count));
  EXPECT_EQ(info[0].curMemSize, base);
  EXPECT_GE(info[0].memPeakSize, base + block);  // the peak stays

  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, nullptr, 0, &count));  // room for nothing
  EXPECT_EQ(count, 0u);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo, 0, info, 4, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo, 0, nullptr, 4, &count);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo, 3, info, 4, &count);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo, -1, info, 4, &count);
}

}  // namespace
