// aclsim's extensions (acl/acl_ext.h): fixed-block pools and the host/device prefetch.
#include <set>

#include "acl/acl_ext.h"
#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

TEST_F(AclTest, BlockPoolHandsOutEveryBlockOnceAndTakesThemBack) {
  aclextBlockPool pool = nullptr;
  ASSERT_ACL_OK(aclextBlockPoolCreate(&pool, 10 * 1000, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t block = 0, count = 0, free_count = 0;
  ASSERT_ACL_OK(aclextBlockPoolGetInfo(pool, &block, &count, &free_count));
  EXPECT_EQ(block, 1024u);  // rounded up to 64
  EXPECT_EQ(count, 9u);     // 10000 / 1024
  EXPECT_EQ(free_count, 9u);
  std::set<void*> blocks;
  for (size_t i = 0; i < count; ++i) {
    void* dev = nullptr;
    ASSERT_ACL_OK(aclextBlockPoolAlloc(pool, &dev));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 64, 0u);
    blocks.insert(dev);
  }
  EXPECT_EQ(blocks.size(), count);
  void* extra = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclextBlockPoolAlloc, pool, &extra);
  // Blocks are device memory: data round-trips.
  void* first = *blocks.begin();
  EXPECT_TRUE(acltest::RoundTrip(first, 1024, 5));
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolDestroy, pool);  // blocks in use
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclextBlockPoolFree, pool,
                 static_cast<char*>(first) + 8);
  for (void* dev : blocks) ASSERT_ACL_OK(aclextBlockPoolFree(pool, dev));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclextBlockPoolFree, pool, first);  // twice
  ASSERT_ACL_OK(aclextBlockPoolGetInfo(pool, nullptr, nullptr, &free_count));
  EXPECT_EQ(free_count, count);
  ASSERT_ACL_OK(aclextBlockPoolDestroy(pool));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclextBlockPoolAlloc, pool, &extra);
}

TEST_F(AclTest, BlockPoolRefusesBadArguments) {
  aclextBlockPool pool = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolCreate, &pool, 100, 1000, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolCreate, &pool, 1000, 0, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolCreate, nullptr, 1000, 10, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolCreate, &pool, 1000, 10,
                 static_cast<aclrtMemMallocPolicy>(0x7f));
  EXPECT_ACL_ERR(kBadParam, aclextBlockPoolAlloc, nullptr, &pool);
}

TEST_F(AclTest, PrefetchMovesManagedMemoryInStreamOrder) {
  void* managed = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, 8192, ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclextMemPrefetchAsync(managed, 8192, 0, nullptr));
  int32_t where = -9;
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed,
                                       8192, &where, sizeof(where)));
  EXPECT_EQ(where, 0);
  ASSERT_ACL_OK(aclextMemPrefetchAsync(managed, 8192, ACLEXT_PREFETCH_TO_HOST, nullptr));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed,
                                       8192, &where, sizeof(where)));
  EXPECT_EQ(where, -1);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclextMemPrefetchAsync, managed, 8192, 6, nullptr);
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERR(kBadParam, aclextMemPrefetchAsync, host.data(), 64, 0, nullptr);
  ASSERT_ACL_OK(aclrtFree(managed));
}

}  // namespace
