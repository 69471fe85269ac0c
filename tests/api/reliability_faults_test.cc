// Reliability, faults as documented: fault_fail_alloc=N fails the program's Nth device
// allocation whatever path it takes (small or large, 4 KiB or 2 MiB pages, served from the
// cache or not, aclrtMallocPhysical), and after a device loss every call but teardown returns
// ACL_ERROR_RT_LOST_HEARTBEAT (507010) until aclrtResetDevice (docs/errors.md).
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::TempFile;

// Each second allocation, by a different path, is the one fault_fail_alloc=2 fails.
TEST_F(AclNoInitTest, AllocationFaultsCountEveryPath) {
  const size_t kHuge = size_t{2} << 20;
  for (int path = 0; path < 4; ++path) {
    SCOPED_TRACE(path);
    TempFile config(AclsimConfig("\"fault_fail_alloc\": \"2\""));
    ASSERT_ACL_OK(aclInit(config.path()));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    void* first = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&first, 4096, ACL_MEM_MALLOC_HUGE_ONLY));
    void* second = nullptr;
    aclrtDrvMemHandle physical = nullptr;
    acltest::ClearRecentErrors();
    aclError got = ACL_SUCCESS;
    switch (path) {
      case 0:  // a small block of the same cached 2 MiB segment
        got = aclrtMalloc(&second, 4096, ACL_MEM_MALLOC_HUGE_ONLY);
        break;
      case 1:  // a small block on 4 KiB pages
        got = aclrtMalloc(&second, 512, ACL_MEM_MALLOC_NORMAL_ONLY);
        break;
      case 2:  // huge-first, large
        got = aclrtMalloc(&second, 3 * kHuge, ACL_MEM_MALLOC_HUGE_FIRST);
        break;
      default: {
        const aclrtPhysicalMemProp prop = acltest::HbmPhysicalProp();
        got = aclrtMallocPhysical(&physical, kHuge, &prop, 0);
        break;
      }
    }
    EXPECT_EQ(got, ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_NE(acltest::TakeRecentErrors().find("fault_fail_alloc"), std::string::npos);
    EXPECT_EQ(second, nullptr);
    // Only the second fails.
    void* third = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&third, 4096, ACL_MEM_MALLOC_HUGE_ONLY));
    EXPECT_ACL_OK(aclrtFree(third));
    EXPECT_ACL_OK(aclrtFree(first));
    acltest::AclTest::Shutdown();
  }
}

TEST_F(AclNoInitTest, AfterADeviceLossEveryCallButTeardownFails) {
  TempFile config(AclsimConfig("\"fault_device_lost\": \"1\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev, 4096, 0, 4096, stream));  // task 1 loses the device
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_LOST_HEARTBEAT);
  const aclError lost = ACL_ERROR_RT_LOST_HEARTBEAT;
  std::vector<uint8_t> host(4096, 1);
  void* more = nullptr;
  EXPECT_ACL_ERR(lost, aclrtMalloc, &more, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(lost, aclrtMalloc, &more, size_t{64} << 20, ACL_MEM_MALLOC_HUGE_ONLY);
  aclrtDrvMemHandle physical = nullptr;
  const aclrtPhysicalMemProp prop = acltest::HbmPhysicalProp();
  EXPECT_ACL_ERR(lost, aclrtMallocPhysical, &physical, size_t{2} << 20, &prop, 0);
  EXPECT_ACL_ERR(lost, aclrtMemcpy, dev, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(lost, aclrtMemset, dev, 4096, 0, 4096);
  EXPECT_ACL_ERR(lost, aclrtMemcpyAsync, dev, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE,
                 stream);
  aclrtStream another = nullptr;
  EXPECT_ACL_ERR(lost, aclrtCreateStream, &another);
  EXPECT_ACL_ERR(lost, aclrtSynchronizeDevice);
  // Teardown still works, and a reset brings the device back.
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtMalloc(&more, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(more));
}

}  // namespace
