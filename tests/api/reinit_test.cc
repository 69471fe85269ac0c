// Nothing of an init survives the next: ten aclInit / aclFinalize rounds in a row, each leaving
// state behind in every table a runtime or a device owns (profiling ranges by id and per
// thread, named ids, IPC keys, VMM access flags, managed-memory advice, memory pools, the
// saturation mode), and each next round checks that it starts from nothing.
#include <cstring>
#include <vector>

#include "acl/acl_prof.h"
#include "acl/acl_rt_memory_soma.h"
#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kRounds = 10;

void Reinit() {
  AclTest::Shutdown();
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
}

TEST_F(AclTest, ProfilingRangesEndWithTheInitThatOpenedThem) {
  const char kMessage[] = "reinit range";
  void* stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(stamp, kMessage, sizeof(kMessage) - 1));
  for (int round = 0; round < kRounds; ++round) {
    // The last round's open ranges are gone: nothing to pop or stop.
    EXPECT_ACL_ERR(kBadParam, aclprofPop);
    EXPECT_ACL_ERR(kBadParam, aclprofRangePop);
    EXPECT_ACL_ERR(kBadParam, aclprofRangeStop, 1u);
    // Left open: a pushed range, a range by id (ids start at 1 in every init), a pushed-ex one.
    ASSERT_ACL_OK(aclprofPush(stamp));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclprofRangeStart(stamp, &id));
    EXPECT_EQ(id, 1u) << "round " << round;
    aclprofTensorInfo info = {};
    info.opNameId = aclprofStr2Id("reinit op");
    aclprofEventAttributes attr = {};
    attr.version = ACL_PROF_EVENT_ATTR_VERSION;
    attr.size = sizeof(attr);
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &info;
    ASSERT_ACL_OK(aclprofRangePushEx(&attr));
    Reinit();
  }
  aclprofDestroyStamp(stamp);
}

TEST_F(AclTest, IpcKeysEndWithTheInitThatExportedThem) {
  char previous[65] = {};
  for (int round = 0; round < kRounds; ++round) {
    void* dev = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    if (previous[0] != '\0') {
      void* imported = nullptr;  // the last init's key names nothing now
      EXPECT_ACL_ERR(kBadParam, aclrtIpcMemImportByKey, &imported, previous, 0);
    }
    ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 4096, previous, sizeof(previous), 0));
    Reinit();  // the allocation and its key are never freed or closed
  }
}

TEST_F(AclTest, ManagedAdviceEndsWithTheInitThatGaveIt) {
  const size_t kBytes = 256 << 10;
  const aclrtMemManagedLocation device0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  for (int round = 0; round < kRounds; ++round) {
    void* managed = nullptr;
    ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, kBytes, ACL_RT_MEM_ATTACH_GLOBAL));
    int32_t read_mostly = 7;
    ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kBytes,
                                         &read_mostly, sizeof(read_mostly)));
    EXPECT_EQ(read_mostly, 0) << "round " << round;  // a fresh range has no advice
    ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, kBytes, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0));
    Reinit();  // never freed
  }
}

TEST_F(AclTest, VmmAccessFlagsEndWithTheInitThatSetThem) {
  aclrtPhysicalMemProp prop = acltest::HbmPhysicalProp();
  size_t g = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
  aclrtMemLocation host = {0, ACL_MEM_LOCATION_TYPE_HOST};
  for (int round = 0; round < kRounds; ++round) {
    void* va = nullptr;
    ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
    aclrtDrvMemHandle phys = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
    uint64_t flags = 99;
    ASSERT_ACL_OK(aclrtMemGetAccess(va, &host, &flags));
    EXPECT_EQ(flags, uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE}) << "round " << round;
    aclrtMemAccessDesc desc = {};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    desc.location = host;
    ASSERT_ACL_OK(aclrtMemSetAccess(va, g, &desc, 1));
    Reinit();  // mapped, never unmapped or released
  }
}

TEST_F(AclTest, SaturationModeEndsWithTheInitThatSetIt) {
  for (int round = 0; round < kRounds; ++round) {
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
    EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION) << "round " << round;
    ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    Reinit();
  }
}

TEST_F(AclTest, MemoryPoolsEndWithTheDeviceThatHeldThem) {
  size_t free_at_start = 0;
  for (int round = 0; round < kRounds; ++round) {
    size_t free = 0, total = 0;
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    if (round == 0) free_at_start = free;
    EXPECT_EQ(free, free_at_start) << "round " << round;  // the last round's pool holds nothing
    aclrtMemPoolProps props = {};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    aclrtMemPool pool = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&block, 1 << 20, pool, stream));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
    Reinit();  // the pool, its block and the stream are never freed
  }
}

}  // namespace
