// Devices: count, visibility, set/reset reference counting, synchronisation, queries, peers.
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::Latch;
using acltest::ScopedEnv;
using acltest::TempFile;

constexpr int kBadDevice = ACL_ERROR_RT_INVALID_DEVICEID;
constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

uint32_t DeviceCount() {
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  return count;
}

// Runs fn on a fresh thread, which has no current context.
template <typename Fn>
void OnNewThread(Fn fn) {
  std::thread thread(fn);
  thread.join();
}

TEST_F(AclTest, DeviceCountIsEightByDefault) {
  EXPECT_EQ(DeviceCount(), 8u);
  EXPECT_ACL_ERR(kBadParam, aclrtGetDeviceCount, nullptr);
}

TEST_F(AclNoInitTest, DeviceCountComesFromTheConfigFile) {
  TempFile config(AclsimConfig("\"device_count\": 3"));
  ASSERT_ACL_OK(aclInit(config.path()));
  EXPECT_EQ(DeviceCount(), 3u);
  EXPECT_ACL_OK(aclrtSetDevice(2));
  EXPECT_ACL_ERR(kBadDevice, aclrtSetDevice, 3);
  ASSERT_ACL_OK(aclFinalize());
  TempFile as_string(AclsimConfig("\"device_count\": \"2\""));  // CANN style: numbers as strings
  ASSERT_ACL_OK(aclInit(as_string.path()));
  EXPECT_EQ(DeviceCount(), 2u);
}

TEST_F(AclNoInitTest, DeviceCountComesFromTheEnvironment) {
  ScopedEnv env("ACLSIM_DEVICE_COUNT", "5");
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(DeviceCount(), 5u);
}

TEST_F(AclNoInitTest, DeviceCountOutOfRangeFailsInit) {
  TempFile zero(AclsimConfig("\"device_count\": 0"));
  acltest::ClearRecentErrors();
  EXPECT_NE(aclInit(zero.path()), ACL_SUCCESS);
  EXPECT_RECENT_ERROR_NAMES(aclInit);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

TEST_F(AclNoInitTest, VisibleDevicesAreRenumberedFromZero) {
  ScopedEnv env("ASCEND_RT_VISIBLE_DEVICES", "2,5");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_EQ(DeviceCount(), 2u);
  int32_t id = -1;
  EXPECT_ACL_OK(aclrtGetPhyDevIdByLogicDevId(0, &id));
  EXPECT_EQ(id, 2);
  EXPECT_ACL_OK(aclrtGetPhyDevIdByLogicDevId(1, &id));
  EXPECT_EQ(id, 5);
  EXPECT_ACL_OK(aclrtGetPhyDevIdByUserDevId(1, &id));
  EXPECT_EQ(id, 5);
  EXPECT_ACL_OK(aclrtGetLogicDevIdByPhyDevId(5, &id));
  EXPECT_EQ(id, 1);
  EXPECT_ACL_OK(aclrtGetUserDevIdByPhyDevId(2, &id));
  EXPECT_EQ(id, 0);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetLogicDevIdByPhyDevId, 0, &id);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetPhyDevIdByLogicDevId, 2, &id);
  EXPECT_ACL_OK(aclrtSetDevice(1));
  int64_t chip = -1;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &chip));
  EXPECT_EQ(chip, 5);
  EXPECT_ACL_ERR(kBadDevice, aclrtSetDevice, 2);
}

TEST_F(AclNoInitTest, VisibleDevicesParsingStopsAtTheFirstInvalidEntry) {
  {
    ScopedEnv env("ASCEND_RT_VISIBLE_DEVICES", "1,x,3");
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_EQ(DeviceCount(), 1u);
    ASSERT_ACL_OK(aclFinalize());
  }
  {
    ScopedEnv env("ASCEND_RT_VISIBLE_DEVICES", "3,1");  // ids must ascend
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_EQ(DeviceCount(), 1u);
    int32_t id = -1;
    EXPECT_ACL_OK(aclrtGetPhyDevIdByLogicDevId(0, &id));
    EXPECT_EQ(id, 3);
    ASSERT_ACL_OK(aclFinalize());
  }
  {
    ScopedEnv env("ASCEND_RT_VISIBLE_DEVICES", "4,99");  // ids past the backend's are dropped
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_EQ(DeviceCount(), 1u);
  }
}

TEST_F(AclTest, SetDeviceRefusesOutOfRangeIds) {
  EXPECT_ACL_ERR(kBadDevice, aclrtSetDevice, -1);
  EXPECT_ACL_ERR(kBadDevice, aclrtSetDevice, 8);
  EXPECT_ACL_ERR(kBadDevice, aclrtSetDevice, INT32_MAX);
  EXPECT_ACL_ERR(kBadDevice, aclrtResetDevice, -1);
  EXPECT_ACL_ERR(kBadDevice, aclrtResetDevice, 8);
  EXPECT_ACL_ERR(kBadDevice, aclrtResetDeviceForce, 8);
}

TEST_F(AclTest, GetDeviceReturnsTheCurrentDevice) {
  int32_t device = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ASSERT_ACL_OK(aclrtSetDevice(3));
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 3);
  EXPECT_ACL_ERR(kBadParam, aclrtGetDevice, nullptr);
}

TEST_F(AclTest, NewThreadHasNoCurrentDevice) {
  OnNewThread([] {
    int32_t device = -1;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice, &device);
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice);
    int32_t least = 0, greatest = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtDeviceGetStreamPriorityRange, &least, &greatest);
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtDeviceEnablePeerAccess, 1, 0);
    ASSERT_ACL_OK(aclrtSetDevice(2));  // a thread sets its own device
    EXPECT_ACL_OK(aclrtGetDevice(&device));
    EXPECT_EQ(device, 2);
  });
  int32_t device = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);  // unchanged on this thread
}

TEST_F(AclTest, ResetDeviceCountsSetDeviceReferences) {
  ASSERT_ACL_OK(aclrtSetDevice(0));  // second reference
  ASSERT_ACL_OK(aclrtResetDevice(0));
  void* ptr = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));  // still open
  EXPECT_ACL_OK(aclrtFree(ptr));
  ASSERT_ACL_OK(aclrtResetDevice(0));  // last reference: released
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc, &ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadDevice, aclrtResetDevice, 0);
  EXPECT_ACL_ERR(kBadDevice, aclrtResetDeviceForce, 0);
}

TEST_F(AclTest, ResetDeviceForceDropsEveryReferenceAndHandle) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  int32_t device = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice, &device);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream, stream);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyStream, stream);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyEvent, event);
}

TEST_F(AclTest, ResetDeviceFinishesPendingWork) {
  const size_t kBytes = 1 << 20;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 1), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ASSERT_ACL_OK(aclrtResetDevice(0));  // no synchronisation: reset waits for the copies
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
}

TEST_F(AclTest, DeviceWorksAgainAfterReset) {
  for (int round = 0; round < 3; ++round) {
    const size_t kBytes = 64 << 10;
    std::vector<uint8_t> in = acltest::Pattern(kBytes, round), out(kBytes, 0);
    void* dev = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemcpy(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
    // The allocation is not freed: reset reclaims it.
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclrtSetDevice(0));
  }
}

TEST_F(AclTest, SynchronizeDeviceWaitsForEveryStream) {
  const size_t kBytes = 256 << 10;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 2), out1(kBytes, 0), out2(kBytes, 0);
  acltest::PinnedHost pinned_out1(out1), pinned_out2(out2);
  void* dev = nullptr;
  aclrtStream s1 = nullptr, s2 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out1.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s1));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out2.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out1.data(), kBytes), -1);
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out2.data(), kBytes), -1);
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, SynchronizeDeviceWithTimeoutExpiresWhileAStreamIsBlocked) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, Latch::WaitFn, &latch));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout, 20);
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
}

TEST_F(AclTest, SynchronizeDeviceWithTimeoutRefusesInvalidTimeouts) {
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeDeviceWithTimeout, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeDeviceWithTimeout, -2);
}

TEST_F(AclTest, SetTsDeviceAcceptsOnlyKnownIds) {
  EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
  EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
  EXPECT_ACL_ERR(kBadParam, aclrtSetTsDevice, static_cast<aclrtTsId>(ACL_TS_ID_AIVECTOR + 5));
}

TEST_F(AclTest, DeviceCanAccessEveryOtherDevice) {
  int32_t can = -1;
  EXPECT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  EXPECT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 7, 2));  // devices need not be set
  EXPECT_EQ(can, 1);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceCanAccessPeer, &can, 1, 1);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceCanAccessPeer, nullptr, 0, 1);
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceCanAccessPeer, &can, 0, 8);
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceCanAccessPeer, &can, -1, 0);
}

TEST_F(AclTest, PeerAccessIsEnabledAndDisabledPerDevice) {
  int32_t status = -1;
  EXPECT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  EXPECT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 1);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  EXPECT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceDisablePeerAccess, 1);  // not enabled
}

TEST_F(AclTest, PeerAccessRefusesBadArguments) {
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceEnablePeerAccess, 1, 1);  // flags must be 0
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceEnablePeerAccess, 0, 0);  // the current device
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceEnablePeerAccess, 8, 0);
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceEnablePeerAccess, -1, 0);
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceDisablePeerAccess, 8);
  int32_t status = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtDevicePeerAccessStatus, 0, 1, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtDevicePeerAccessStatus, 0, 8, &status);
  EXPECT_ACL_ERR(kBadDevice, aclrtDevicePeerAccessStatus, 5, 1, &status);  // device 5 not set
}

TEST_F(AclTest, SaturationModeRoundTrips) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  EXPECT_ACL_ERR(kBadParam, aclrtSetDeviceSatMode, ACL_RT_OVERFLOW_MODE_UNDEF);
  EXPECT_ACL_ERR(kBadParam, aclrtSetDeviceSatMode, static_cast<aclrtFloatOverflowMode>(42));
  EXPECT_ACL_ERR(kBadParam, aclrtGetDeviceSatMode, nullptr);
}

TEST_F(AclTest, QueryDeviceStatusIsNormal) {
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_ABNORMAL;
  EXPECT_ACL_OK(aclrtQueryDeviceStatus(0, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  EXPECT_ACL_OK(aclrtQueryDeviceStatus(6, &status));
  EXPECT_ACL_ERR(kBadParam, aclrtQueryDeviceStatus, 0, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtQueryDeviceStatus, 8, &status);
}

TEST_F(AclTest, BareTgidIsTheProcessId) {
  int32_t pid = 0;
  EXPECT_ACL_OK(aclrtDeviceGetBareTgid(&pid));
  EXPECT_EQ(pid, static_cast<int32_t>(getpid()));
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceGetBareTgid, nullptr);
}

TEST_F(AclTest, DeviceInfoDescribesTheAscend910B2) {
  int64_t value = -1;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
  EXPECT_EQ(value, 24);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
  EXPECT_EQ(value, 24);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
  EXPECT_EQ(value, 48);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &value));
  EXPECT_EQ(value, 6);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &value));
  EXPECT_EQ(value, 192LL << 20);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &value));
  EXPECT_EQ(value, 192LL << 10);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value));
  EXPECT_EQ(value, 64LL << 30);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &value));
  EXPECT_EQ(value, 2201);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(7, ACL_DEV_ATTR_PHY_CHIP_ID, &value));  // need not be set
  EXPECT_EQ(value, 7);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &value));
  EXPECT_EQ(value, 0);
}

TEST_F(AclTest, DeviceInfoRefusesBadArguments) {
  int64_t value = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtGetDeviceInfo, 0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetDeviceInfo, 8, ACL_DEV_ATTR_AICORE_CORE_NUM, &value);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetDeviceInfo, UINT32_MAX, ACL_DEV_ATTR_AICORE_CORE_NUM, &value);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetDeviceInfo, 0,
                 static_cast<aclrtDevAttr>(987654), &value);
}

TEST_F(AclTest, DeviceCapabilityMatchesDeviceInfo) {
  int64_t value = -1;
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value));
  EXPECT_EQ(value, 24);
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value));
  EXPECT_EQ(value, 48);
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value));
  EXPECT_EQ(value, 192LL << 20);
  EXPECT_ACL_ERR(kBadParam, aclGetDeviceCapability, 0, ACL_DEVICE_INFO_UNDEFINED, &value);
  EXPECT_ACL_ERR(kBadParam, aclGetDeviceCapability, 0, ACL_DEVICE_INFO_AI_CORE_NUM, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclGetDeviceCapability, 8, ACL_DEVICE_INFO_AI_CORE_NUM, &value);
}

TEST_F(AclNoInitTest, DeviceInfoFollowsTheConfiguredSoc) {
  TempFile config(AclsimConfig("\"soc\": \"Ascend310P3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  int64_t aicore = 0;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &aicore));
  int64_t other = 0;
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &other));
  EXPECT_NE(aicore, other);
  EXPECT_EQ(other, 24);
}

TEST_F(AclTest, StreamPriorityRangeIsZeroToSeven) {
  int32_t least = -1, greatest = -1;
  EXPECT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceGetStreamPriorityRange, nullptr, &greatest);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceGetStreamPriorityRange, &least, nullptr);
}

TEST_F(AclTest, UuidIsStablePerDeviceAndDistinctAcrossDevices) {
  aclrtUuid a, a_again, b;
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &a));
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &a_again));
  ASSERT_ACL_OK(aclrtDeviceGetUuid(1, &b));
  EXPECT_EQ(std::memcmp(a.bytes, a_again.bytes, sizeof(a.bytes)), 0);
  EXPECT_NE(std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)), 0);
  EXPECT_ACL_ERR(kBadParam, aclrtDeviceGetUuid, 0, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtDeviceGetUuid, 8, &a);
}

TEST_F(AclTest, DevicesTopologyIsHccs) {
  uint64_t topo = 0;
  EXPECT_ACL_OK(aclrtGetDevicesTopo(0, 1, &topo));
  EXPECT_EQ(topo, static_cast<uint64_t>(ACL_RT_DEVS_TOPOLOGY_HCCS));
  EXPECT_ACL_ERR(kBadParam, aclrtGetDevicesTopo, 0, 1, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetDevicesTopo, 0, 8, &topo);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetDevicesTopo, 8, 0, &topo);
}

TEST_F(AclTest, DeviceIdConversionsAreIdentityWithoutVisibleDevices) {
  for (int32_t id = 0; id < 8; ++id) {
    int32_t out = -1;
    EXPECT_ACL_OK(aclrtGetLogicDevIdByUserDevId(id, &out));
    EXPECT_EQ(out, id);
    EXPECT_ACL_OK(aclrtGetUserDevIdByLogicDevId(id, &out));
    EXPECT_EQ(out, id);
    EXPECT_ACL_OK(aclrtGetLogicDevIdByPhyDevId(id, &out));
    EXPECT_EQ(out, id);
    EXPECT_ACL_OK(aclrtGetPhyDevIdByLogicDevId(id, &out));
    EXPECT_EQ(out, id);
    EXPECT_ACL_OK(aclrtGetUserDevIdByPhyDevId(id, &out));
    EXPECT_EQ(out, id);
    EXPECT_ACL_OK(aclrtGetPhyDevIdByUserDevId(id, &out));
    EXPECT_EQ(out, id);
  }
  int32_t out = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtGetLogicDevIdByUserDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetUserDevIdByLogicDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetLogicDevIdByPhyDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetPhyDevIdByLogicDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetUserDevIdByPhyDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetPhyDevIdByUserDevId, 0, nullptr);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetLogicDevIdByUserDevId, 8, &out);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetUserDevIdByLogicDevId, -1, &out);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetLogicDevIdByPhyDevId, 8, &out);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetPhyDevIdByLogicDevId, 8, &out);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetUserDevIdByPhyDevId, -1, &out);
  EXPECT_ACL_ERR(kBadDevice, aclrtGetPhyDevIdByUserDevId, 8, &out);
}

}  // namespace
