// Virtual memory management: reservations, physical memory, mappings (with data, aliasing),
// properties, granularity, shareable handles within a process and between two processes.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

aclrtPhysicalMemProp HbmProp(int32_t device = 0) { return acltest::HbmPhysicalProp(device); }

size_t Granularity() {
  aclrtPhysicalMemProp prop = HbmProp();
  size_t granularity = 0;
  EXPECT_ACL_OK(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  return granularity;
}

using acltest::Download;

TEST_F(AclTest, GranularityIsTwoMebibytesOrOneGibibyteForHuge1g) {
  EXPECT_EQ(Granularity(), size_t{2} << 20);
  aclrtPhysicalMemProp prop = HbmProp();
  prop.memAttr = ACL_HBM_MEM_HUGE1G;
  size_t granularity = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                                                 &granularity));
  EXPECT_EQ(granularity, size_t{1} << 30);
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAllocationGranularity, &prop,
                 static_cast<aclrtMemGranularityOptions>(7), &granularity);
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAllocationGranularity, nullptr,
                 ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);
}

TEST_F(AclTest, MappedPhysicalMemoryCarriesDataAndAliases) {
  const size_t g = Granularity();
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0));
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  void* alias = static_cast<char*>(va) + g;
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
  ASSERT_ACL_OK(aclrtMapMem(alias, g, 0, phys, 0));

  const std::vector<uint8_t> in = acltest::Pattern(g, 3);
  ASSERT_ACL_OK(aclrtMemcpy(va, g, in.data(), g, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Download(alias, g), in);  // the same pages
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMemsetAsync(alias, g, 0x3c, 4096, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(Download(va, 4096), std::vector<uint8_t>(4096, 0x3c));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));

  aclrtPhysicalMemProp got = {};
  ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(phys, &got));
  EXPECT_EQ(got.memAttr, ACL_HBM_MEM_HUGE);
  EXPECT_EQ(got.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);

  ASSERT_ACL_OK(aclrtUnmapMem(alias));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  // Unmapped addresses are no longer device memory.
  uint8_t byte = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, &byte, 1, va, 1, ACL_MEMCPY_DEVICE_TO_HOST);
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

// As llama.cpp's VMM pool uses the API: a range reserved with flags 1 (huge pages), chunks
// mapped side by side, buffers carved across the chunk boundary.
TEST_F(AclTest, AdjacentMappedChunksAreOneRegion) {
  const size_t g = Granularity();
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 3 * g, 0, nullptr, 1));
  aclrtPhysicalMemProp prop = HbmProp();
  aclrtDrvMemHandle a = nullptr;
  aclrtDrvMemHandle b = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&a, g, &prop, 0));
  ASSERT_ACL_OK(aclrtMallocPhysical(&b, g, &prop, 0));
  char* base = static_cast<char*>(va);
  ASSERT_ACL_OK(aclrtMapMem(base, g, 0, a, 0));
  ASSERT_ACL_OK(aclrtMapMem(base + g, g, 0, b, 0));
  // A copy and a memset straddling the boundary.
  char* straddle = base + g - 4096;
  const std::vector<uint8_t> in = acltest::Pattern(8192, 5);
  ASSERT_ACL_OK(aclrtMemcpy(straddle, 8192, in.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Download(straddle, 8192), in);
  ASSERT_ACL_OK(aclrtMemset(straddle + 1024, 4096, 0x7e, 4096));
  EXPECT_EQ(Download(straddle + 1024, 4096), std::vector<uint8_t>(4096, 0x7e));
  // The whole mapped run is one region; a range running into the unmapped third chunk is not.
  ASSERT_ACL_OK(aclrtMemset(base, 2 * g, 0, 2 * g));
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, base + g, 2 * g, 0, 2 * g);
  ASSERT_ACL_OK(aclrtUnmapMem(base + g));
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, straddle, 8192, 0, 8192);
  ASSERT_ACL_OK(aclrtUnmapMem(base));
  ASSERT_ACL_OK(aclrtFreePhysical(a));
  ASSERT_ACL_OK(aclrtFreePhysical(b));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

// llama.cpp's pool reserves the device's whole memory as address space, once per context:
// address space is not memory, so two such reservations fit beside the allocations, and
// mappings in them work.
TEST_F(AclTest, ReservationsOfTheWholeDeviceMemoryFitSeveralTimes) {
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
  const size_t g = Granularity();
  const size_t whole = total_bytes / g * g;
  void* kept = nullptr;  // an allocation does not take reservation space
  ASSERT_ACL_OK(aclrtMalloc(&kept, 16 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  void* ranges[2] = {};
  for (void*& va : ranges) ASSERT_ACL_OK(aclrtReserveMemAddress(&va, whole, 0, nullptr, 1));
  aclrtPhysicalMemProp prop = HbmProp();
  aclrtDrvMemHandle chunk = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&chunk, g, &prop, 0));
  ASSERT_ACL_OK(aclrtMapMem(ranges[1], g, 0, chunk, 0));
  const std::vector<uint8_t> in = acltest::Pattern(4096, 9);
  ASSERT_ACL_OK(aclrtMemcpy(ranges[1], 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Download(ranges[1], 4096), in);
  ASSERT_ACL_OK(aclrtUnmapMem(ranges[1]));
  ASSERT_ACL_OK(aclrtFreePhysical(chunk));
  for (void* va : ranges) ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFree(kept));
}

TEST_F(AclTest, VirtualMemoryMisuseIsRefusedWithAMessage) {
  const size_t g = Granularity();
  void* va = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtReserveMemAddress, &va, g + 1, 0, nullptr, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtReserveMemAddress, &va, g, 3, nullptr, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtReserveMemAddress, &va, g, 0, nullptr, 2);
  EXPECT_ACL_ERR(kBadParam, aclrtReserveMemAddress, nullptr, g, 0, nullptr, 0);
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  EXPECT_ACL_ERR(kBadParam, aclrtMallocPhysical, &phys, 1000, &prop, 0);
  prop.location.id = 5;  // not open
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMallocPhysical, &phys, g, &prop, 0);
  prop = HbmProp();
  prop.allocationType = static_cast<aclrtMemAllocationType>(9);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocPhysical, &phys, g, &prop, 0);
  prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, 2 * g, &prop, 0));
  // Outside the reservation, unaligned, beyond the physical size.
  EXPECT_ACL_ERR(kBadParam, aclrtMapMem, va, 2 * g, 0, phys, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMapMem, static_cast<char*>(va) + 64, g, 0, phys, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMapMem, va, g, 2 * g, phys, 0);
  ASSERT_ACL_OK(aclrtMapMem(va, g, g, phys, 0));
  EXPECT_ACL_ERR(kBadParam, aclrtMapMem, va, g, 0, phys, 0);  // already mapped
  EXPECT_ACL_ERR(kBadParam, aclrtFreePhysical, phys);         // still mapped
  EXPECT_ACL_ERR(kBadParam, aclrtReleaseMemAddress, va);      // still has a mapping
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  EXPECT_ACL_ERR(kBadParam, aclrtUnmapMem, va);
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtFreePhysical, phys);  // freed
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  EXPECT_ACL_ERR(kBadParam, aclrtReleaseMemAddress, va);
}

TEST_F(AclTest, AccessFlagsOfAMappingAreRecordedPerLocation) {
  const size_t g = Granularity();
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
  aclrtMemLocation device0 = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
  aclrtMemLocation host = {0, ACL_MEM_LOCATION_TYPE_HOST};
  uint64_t flags = 99;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &device0, &flags));
  EXPECT_EQ(flags, uint64_t{ACL_RT_MEM_ACCESS_FLAGS_READWRITE});
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &host, &flags));
  EXPECT_EQ(flags, uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE});
  aclrtMemAccessDesc desc = {};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  desc.location = host;
  ASSERT_ACL_OK(aclrtMemSetAccess(va, g, &desc, 1));
  ASSERT_ACL_OK(aclrtMemGetAccess(static_cast<char*>(va) + 100, &host, &flags));
  EXPECT_EQ(flags, uint64_t{ACL_RT_MEM_ACCESS_FLAGS_READ});
  desc.flags = static_cast<aclrtMemAccessFlags>(2);
  EXPECT_ACL_ERR(kBadParam, aclrtMemSetAccess, va, g, &desc, 1);
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  EXPECT_ACL_ERR(kBadParam, aclrtMemSetAccess, va, 2 * g, &desc, 1);  // past the mapping
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  EXPECT_ACL_ERR(kBadParam, aclrtMemGetAccess, va, &host, &flags);
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(AclTest, PhysicalMemoryCountsAgainstTheDevice) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, size_t{64} << 20, &prop, 0));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_EQ(free0 - free1, size_t{64} << 20);
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_EQ(free1, free0);
}

TEST_F(AclTest, ShareableHandleImportsTheSameMemoryInThisProcess) {
  const size_t g = Granularity();
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(phys, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
  int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
  aclrtDrvMemHandle imported = nullptr;
  ASSERT_ACL_OK(aclrtMemImportFromShareableHandle(shareable, 0, &imported));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&a, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&b, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(a, g, 0, phys, 0));
  ASSERT_ACL_OK(aclrtMapMem(b, g, 0, imported, 0));
  ASSERT_ACL_OK(aclrtMemset(a, g, 0x61, 256));
  EXPECT_EQ(Download(b, 256), std::vector<uint8_t>(256, 0x61));
  ASSERT_ACL_OK(aclrtUnmapMem(a));
  ASSERT_ACL_OK(aclrtUnmapMem(b));
  ASSERT_ACL_OK(aclrtFreePhysical(imported));
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(a));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(b));
  EXPECT_ACL_ERR(kBadParam, aclrtMemImportFromShareableHandle, uint64_t{7}, 0, &imported);
}

TEST_F(AclTest, ShareableHandleV2DefaultAndFabricImportTheSameMemory) {
  const size_t g = Granularity();
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  uint64_t plain = 0;
  ASSERT_ACL_OK(
      aclrtMemExportToShareableHandleV2(phys, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &plain));
  aclrtMemFabricHandle fabric = {};
  ASSERT_ACL_OK(
      aclrtMemExportToShareableHandleV2(phys, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric));
  int32_t pid = getpid();
  ASSERT_ACL_OK(
      aclrtMemSetPidToShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1));
  aclrtDrvMemHandle a = nullptr;
  aclrtDrvMemHandle b = nullptr;
  ASSERT_ACL_OK(
      aclrtMemImportFromShareableHandleV2(&plain, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &a));
  ASSERT_ACL_OK(
      aclrtMemImportFromShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &b));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0));
  void* vb = static_cast<char*>(va) + g;
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, a, 0));
  ASSERT_ACL_OK(aclrtMapMem(vb, g, 0, b, 0));
  ASSERT_ACL_OK(aclrtMemset(va, g, 0x5d, 512));
  EXPECT_EQ(Download(vb, 512), std::vector<uint8_t>(512, 0x5d));
  // Misuse.
  aclrtMemFabricHandle junk = {};
  aclrtDrvMemHandle c = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtMemImportFromShareableHandleV2, &junk,
                 ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &c);
  EXPECT_ACL_ERR(kBadParam, aclrtMemExportToShareableHandleV2, phys, 0,
                 static_cast<aclrtMemSharedHandleType>(7), &plain);
  EXPECT_ACL_ERR(kBadParam, aclrtMemExportToShareableHandleV2, phys, 4,
                 ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &plain);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtUnmapMem(vb));
  ASSERT_ACL_OK(aclrtFreePhysical(a));
  ASSERT_ACL_OK(aclrtFreePhysical(b));
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

// The second process of ShareableHandleCrossesProcesses: imports the handle named by
// ACLSIM_TEST_SHAREABLE, checks the parent's bytes and writes its own answer.
TEST_F(AclTest, ShareableHandleChild) {
  const char* env = std::getenv("ACLSIM_TEST_SHAREABLE");
  if (env == nullptr) GTEST_SKIP() << "run by ShareableHandleCrossesProcesses";
  const uint64_t shareable = std::strtoull(env, nullptr, 10);
  const size_t g = Granularity();
  aclrtDrvMemHandle imported = nullptr;
  ASSERT_ACL_OK(aclrtMemImportFromShareableHandle(shareable, 0, &imported));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, imported, 0));
  EXPECT_EQ(Download(va, 4096), acltest::Pattern(4096, 11));
  const std::vector<uint8_t> answer = acltest::Pattern(4096, 12);
  ASSERT_ACL_OK(aclrtMemcpy(static_cast<char*>(va) + 4096, 4096, answer.data(), 4096,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(imported));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(AclTest, ShareableHandleCrossesProcesses) {
  if (std::getenv("ACLSIM_TEST_SHAREABLE") != nullptr) GTEST_SKIP() << "child process";
  const size_t g = Granularity();
  aclrtDrvMemHandle phys = nullptr;
  aclrtPhysicalMemProp prop = HbmProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
  const std::vector<uint8_t> data = acltest::Pattern(4096, 11);
  ASSERT_ACL_OK(aclrtMemcpy(va, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(phys, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));

  const std::string command = "ACLSIM_TEST_SHAREABLE=" + std::to_string(shareable) + " /proc/" +
                              std::to_string(getpid()) +
                              "/exe --gtest_filter=AclTest.ShareableHandleChild > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;
  EXPECT_EQ(WEXITSTATUS(status), 0) << command;
  EXPECT_EQ(Download(static_cast<char*>(va) + 4096, 4096), acltest::Pattern(4096, 12));

  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

}  // namespace
