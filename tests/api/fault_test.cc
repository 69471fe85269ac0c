// Fault injection through the public API: each simulator fault reaches the program as an
// error code (at the call or the next synchronisation), a recent-error message and, for
// device faults, the exception callback.
#include <mutex>
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::g_exceptions;
using acltest::OnException;
using acltest::ResetExceptions;
using acltest::TempFile;

int32_t StreamId(aclrtStream stream) {
  int32_t id = -1;
  EXPECT_EQ(aclrtStreamGetId(stream, &id), ACL_SUCCESS);
  return id;
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
  const std::vector<uint8_t> pattern = acltest::Pattern(kBytes, 31);
  ASSERT_ACL_OK(aclrtMemcpy(first, kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &second, kBytes,
                 ACL_MEM_MALLOC_NORMAL_ONLY);
  EXPECT_EQ(second, nullptr);
  void* third = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&third, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));  // only the 2nd fails
  // The failure took nothing from the live buffer.
  EXPECT_EQ(acltest::FirstMismatch(pattern.data(), acltest::Download(first, kBytes).data(), kBytes),
            -1);
  EXPECT_TRUE(acltest::RoundTrip(third, kBytes, 32));
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
  void* dev = nullptr;  // slow, but every byte arrives
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_TRUE(acltest::RoundTrip(dev, 1 << 20, 33));
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_GT(normal, 0.0f);
  EXPECT_GT(slowed, 3.0f * normal) << "normal " << normal << " ms, slowed " << slowed << " ms";
}

TEST_F(AclNoInitTest, LostDeviceFailsTheNextSyncAndCallsTheExceptionCallback) {
  ResetExceptions();
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
    EXPECT_EQ(g_exceptions.task, 3u);  // the task that lost the device
    EXPECT_EQ(g_exceptions.stream, static_cast<uint32_t>(StreamId(stream)));
    EXPECT_EQ(g_exceptions.device, 0u);
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
  ResetExceptions();
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
  const int32_t stream_id = StreamId(stream);
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
    EXPECT_EQ(g_exceptions.stream, static_cast<uint32_t>(stream_id));
    EXPECT_EQ(g_exceptions.device, 0u);
    EXPECT_NE(g_exceptions.task, 0u);
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

// An AI Core exception on one stream while another stream copies data: the other stream's
// syncs succeed and every byte of its data arrives; only the failing stream's sync reports
// the exception, with its own ids; and the device is reset and used again.
TEST_F(AclNoInitTest, AiCoreExceptionOnOneStreamLosesNoDataOfAnother) {
  ResetExceptions();
  TempFile config(AclsimConfig("\"fault_aicore_exception\": \"1\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream failing = nullptr, copying = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&failing));
  ASSERT_ACL_OK(aclrtCreateStream(&copying));
  const int64_t dims[1] = {256};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&dev[i], 1024, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT_ACL_OK(aclrtMemset(dev[i], 1024, 0, 1024));
    buffers[i] = aclCreateDataBuffer(dev[i], 1024);
  }
  constexpr size_t kBytes = 64 << 10;
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  for (int round = 0; round < 4; ++round) {
    const std::vector<uint8_t> data = acltest::Pattern(kBytes, 40 + round);
    std::vector<uint8_t> back(kBytes, 0);
    acltest::PinnedHost pinned_data(data), pinned_back(back);
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(a, kBytes, data.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, copying));
    // The first kernel of the device raises the exception (round 0); the others run.
    ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, failing));
    ASSERT_ACL_OK(aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, copying));
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(back.data(), kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, copying));
    EXPECT_ACL_OK(aclrtSynchronizeStream(copying));
    EXPECT_EQ(acltest::FirstMismatch(data.data(), back.data(), kBytes), -1) << "round " << round;
    const aclError synced = aclrtSynchronizeStream(failing);
    EXPECT_EQ(synced, round == 0 ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS)
        << "round " << round;
  }
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_EQ(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
    EXPECT_EQ(g_exceptions.stream, static_cast<uint32_t>(StreamId(failing)));
    EXPECT_EQ(g_exceptions.device, 0u);
  }
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    EXPECT_ACL_OK(aclrtFree(dev[i]));
  }
  aclDestroyTensorDesc(desc);
  EXPECT_ACL_OK(aclrtFree(a));
  EXPECT_ACL_OK(aclrtFree(b));
  // Reset (plain: nothing is in flight) and use the device again.
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_TRUE(acltest::RoundTrip(again, kBytes, 49));
  EXPECT_ACL_OK(aclrtFree(again));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

// A failed task on one stream does not leak into the sync of another stream of the device,
// and that stream's data arrives whole.
TEST_F(AclNoInitTest, FailedTaskOnOneStreamLeavesAnotherStreamsDataAndSync) {
  ResetExceptions();
  TempFile config(AclsimConfig("\"fault_fail_task\": \"2\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream failing = nullptr, healthy = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&failing));
  ASSERT_ACL_OK(aclrtCreateStream(&healthy));
  constexpr size_t kBytes = 16 << 10;
  const std::vector<uint8_t> data = acltest::Pattern(kBytes, 50);
  std::vector<uint8_t> back(kBytes, 0);
  acltest::PinnedHost pinned_data(data), pinned_back(back);
  void* scratch = nullptr;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&scratch, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(  // task 1
      aclrtMemcpyAsync(dev, kBytes, data.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, healthy));
  ASSERT_ACL_OK(aclrtMemsetAsync(scratch, kBytes, 1, kBytes, failing));  // task 2 fails
  ASSERT_ACL_OK(                                                         // task 3
      aclrtMemcpyAsync(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, healthy));
  EXPECT_ACL_OK(aclrtSynchronizeStream(healthy));
  EXPECT_EQ(acltest::FirstMismatch(data.data(), back.data(), kBytes), -1);
  EXPECT_NE(aclrtSynchronizeStream(failing), ACL_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_EQ(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.task, 2u);
    EXPECT_EQ(g_exceptions.stream, static_cast<uint32_t>(StreamId(failing)));
    EXPECT_EQ(g_exceptions.device, 0u);
  }
  EXPECT_ACL_OK(aclrtSynchronizeStream(failing));  // reported once
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtFree(scratch));
  EXPECT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

// A lost device does not take another device's data with it: device 1's buffer, written
// before device 0 is lost, reads back whole after.
TEST_F(AclNoInitTest, LostDeviceLeavesAnotherDevicesData) {
  TempFile config(AclsimConfig("\"fault_device_lost\": \"3\""));  // each device's task 3
  ASSERT_ACL_OK(aclInit(config.path()));
  constexpr size_t kBytes = 32 << 10;
  const std::vector<uint8_t> data = acltest::Pattern(kBytes, 60);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* kept = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&kept, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMemcpy(kept, kBytes, data.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  void* lost = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMalloc(&lost, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  for (int task = 1; task <= 3; ++task) {  // task 3 loses the device
    (void)aclrtMemsetAsync(lost, kBytes, task, kBytes, stream);
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_LOST_HEARTBEAT);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  std::vector<uint8_t> back(kBytes, 0);  // device 1's task 2 (of 3): a synchronous copy
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kBytes, kept, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(acltest::FirstMismatch(data.data(), back.data(), kBytes), -1);
  EXPECT_ACL_OK(aclrtFree(kept));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

}  // namespace
