// Fault injection through the public API: each simulator fault reaches the program as an
// error code (at the call or the next synchronisation), a recent-error message and, for
// device faults, the exception callback.
#include <mutex>
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::TempFile;

struct Exceptions {
  std::mutex mu;
  int calls = 0;
  uint32_t code = 0;
};
Exceptions g_exceptions;

void OnException(aclrtExceptionInfo* info) {
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  ++g_exceptions.calls;
  g_exceptions.code = aclrtGetErrorCodeFromExceptionInfo(info);
}

// Simulated milliseconds of one H2D copy of `bytes` on a fresh stream of device 0.
float TimedUpload(size_t bytes) {
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, stop = nullptr;
  void* dev = nullptr;
  std::vector<uint8_t> host(bytes, 7);
  acltest::PinnedHost pinned(host);
  float ms = -1.0f;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&stop), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(stop, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, stop), ACL_SUCCESS);
  aclrtFree(dev);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclrtDestroyStream(stream);
  return ms;
}

TEST_F(AclNoInitTest, FailedAllocationIsADeviceMemoryErrorWithAMessage) {
  TempFile config(AclsimConfig("\"fault_fail_alloc\": \"2\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* first = nullptr;
  void* second = nullptr;
  // The fault counts driver allocations: 4 MiB requests each need a new segment from the
  // driver (smaller ones would share the caching allocator's first segment).
  const size_t kBytes = size_t{4} << 20;
  ASSERT_ACL_OK(aclrtMalloc(&first, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &second, kBytes,
                 ACL_MEM_MALLOC_NORMAL_ONLY);
  EXPECT_EQ(second, nullptr);
  void* third = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&third, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));  // only the 2nd fails
  EXPECT_ACL_OK(aclrtFree(first));
  EXPECT_ACL_OK(aclrtFree(third));
}

TEST_F(AclNoInitTest, SlowDmaEngineStretchesTheCopysSimulatedTime) {
  const size_t kBytes = 8u << 20;
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const float normal = TimedUpload(kBytes);
  acltest::AclTest::Shutdown();
  TempFile config(AclsimConfig("\"fault_slow_dma\": \"h2d:4\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const float slowed = TimedUpload(kBytes);
  EXPECT_GT(normal, 0.0f);
  EXPECT_GT(slowed, 3.0f * normal) << "normal " << normal << " ms, slowed " << slowed << " ms";
}

TEST_F(AclNoInitTest, LostDeviceFailsTheNextSyncAndCallsTheExceptionCallback) {
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    g_exceptions.calls = 0;
    g_exceptions.code = 0;
  }
  TempFile config(AclsimConfig("\"fault_device_lost\": \"3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const size_t kBytes = 4096;
  std::vector<uint8_t> host(kBytes, 3);
  acltest::PinnedHost pinned(host);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(0, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  for (int task = 1; task <= 3; ++task) {  // the device is lost when task 3 starts
    (void)aclrtMemcpyAsync(dev, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  }
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_LOST_HEARTBEAT);
  EXPECT_TRUE(acltest::RecentErrorNames("aclrtSynchronizeStream"));
  EXPECT_NE(aclrtMemcpyAsync(dev, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(0, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_ABNORMAL);
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(1, &status));  // other devices are not affected
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_GE(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(ACL_ERROR_RT_LOST_HEARTBEAT));
  }
  // The device can be reset and used again.
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(0, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_ACL_OK(aclrtMemcpy(again, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtFree(again));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

TEST_F(AclNoInitTest, AiCoreExceptionOnAnOpReachesTheSyncAndTheExceptionCallback) {
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    g_exceptions.calls = 0;
    g_exceptions.code = 0;
  }
  TempFile config(AclsimConfig("\"fault_aicore_exception\": \"2\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const int64_t dims[1] = {256};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&dev[i], 1024, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT_ACL_OK(aclrtMemset(dev[i], 1024, 0, 1024));
    buffers[i] = aclCreateDataBuffer(dev[i], 1024);
  }
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  // The first op runs; the second kernel raises the injected AI Core exception.
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclopExecuteV2("Mul", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_TRUE(acltest::RecentErrorNames("aclrtSynchronizeStream"));
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_EQ(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
  }
  // The stream goes on: the next op runs.
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

}  // namespace
