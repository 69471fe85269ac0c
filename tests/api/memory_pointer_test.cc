// Memory: pointer queries (aclrtPointerGetAttributes, aclrtMemGetAddressRange) and the frees
// that wait for the device (aclrtFreeWithDevSync, aclrtFreeHostWithDevSync).
#include <atomic>
#include <chrono>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

TEST_F(AclTest, PointerAttributesTellDeviceHostAndUnknownMemory) {
  void* small = nullptr;
  void* huge = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtMalloc(&huge, size_t{4} << 20, ACL_MEM_MALLOC_HUGE_ONLY));
  aclrtPtrAttributes attrs = {};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(static_cast<char*>(small) + 100, &attrs));
  EXPECT_EQ(attrs.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attrs.location.id, 0u);
  EXPECT_EQ(attrs.pageSize, 4096u);
  ASSERT_ACL_OK(aclrtPointerGetAttributes(huge, &attrs));
  EXPECT_EQ(attrs.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attrs.location.id, 1u);
  EXPECT_EQ(attrs.pageSize, 2u << 20);
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 256));
  ASSERT_ACL_OK(aclrtPointerGetAttributes(host, &attrs));
  EXPECT_EQ(attrs.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  int plain = 0;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(&plain, &attrs));
  EXPECT_EQ(attrs.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  EXPECT_ACL_ERR(kBadParam, aclrtPointerGetAttributes, nullptr, &attrs);
  EXPECT_ACL_ERR(kBadParam, aclrtPointerGetAttributes, host, nullptr);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_OK(aclrtFree(small));
  EXPECT_ACL_OK(aclrtFree(huge));
  ASSERT_ACL_OK(aclrtPointerGetAttributes(small, &attrs));  // freed: unknown again
  EXPECT_EQ(attrs.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST_F(AclTest, AddressRangeIsTheWholeAllocation) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 10000, ACL_MEM_MALLOC_HUGE_FIRST));
  void* base = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char*>(dev) + 9999, &base, &size));
  EXPECT_EQ(base, dev);
  EXPECT_EQ(size, 10000u);
  size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(dev, nullptr, &size));  // either output may be NULL
  EXPECT_EQ(size, 10000u);
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 300));
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char*>(host) + 1, &base, nullptr));
  EXPECT_EQ(base, host);
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAddressRange, dev, nullptr, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAddressRange, static_cast<char*>(dev) + 10000, &base, &size);
  int plain = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAddressRange, &plain, &base, &size);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_OK(aclrtFree(dev));
}

std::atomic<bool> g_callback_ran{false};
void SlowCallback(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  g_callback_ran = true;
}

TEST_F(AclTest, FreesWithDevSyncWaitForQueuedWork) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMallocHost(&host, 4096));
  g_callback_ran = false;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SlowCallback, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXPECT_ACL_OK(aclrtFreeWithDevSync(dev));
  EXPECT_TRUE(g_callback_ran.load());  // the queued work finished before the free
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeWithDevSync, dev);
  g_callback_ran = false;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SlowCallback, nullptr));
  EXPECT_ACL_OK(aclrtFreeHostWithDevSync(host));
  EXPECT_TRUE(g_callback_ran.load());
  EXPECT_ACL_ERR(kBadParam, aclrtFreeWithDevSync, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtFreeHostWithDevSync, nullptr);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

}  // namespace
