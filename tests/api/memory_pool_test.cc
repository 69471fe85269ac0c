// Stream-ordered memory pools (acl_rt_memory_soma.h): allocation with data, attributes,
// maxSize, stream-ordered reuse, trimming and misuse.
#include "acl/acl_rt_memory_soma.h"
#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

class PoolTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    (void)aclrtDestroyStream(stream_);
    AclTest::TearDown();
  }
  aclrtMemPool NewPool(size_t max_size = 0) {
    aclrtMemPoolProps props = {};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = max_size;
    aclrtMemPool pool = nullptr;
    EXPECT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
    return pool;
  }
  uint64_t Attr(aclrtMemPool pool, aclrtMemPoolAttr attr) {
    uint64_t value = 0;
    EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool, attr, &value));
    return value;
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(PoolTest, AllocationsCarryDataInStreamOrder) {
  aclrtMemPool pool = NewPool();
  const size_t kBytes = 1 << 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&dev, kBytes, pool, stream_));
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 4), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(dev, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(out, in);
  EXPECT_EQ(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0u);
  EXPECT_GE(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), kBytes);
  EXPECT_GE(Attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), kBytes);
  ASSERT_ACL_OK(aclrtMemPoolTrimTo(pool, 0));
  EXPECT_EQ(Attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
}

TEST_F(PoolTest, FreedBlockIsReusedOnlyAfterTheWorkBeforeTheFree) {
  aclrtMemPool pool = NewPool();
  acltest::HeldStream held;
  void* a = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&a, 4096, pool, held.stream()));
  std::vector<uint8_t> in = acltest::Pattern(4096, 8);
  acltest::PinnedHost pinned_in(in);
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(a, 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, held.stream()));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(a, held.stream()));
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&b, 4096, pool, stream_));
  EXPECT_NE(b, a);  // the copy into `a` has not run yet
  held.Release();
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(b, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  void* c = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&c, 4096, pool, stream_));
  EXPECT_TRUE(c == a || c == b);  // both are free again
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(c, stream_));
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
}

TEST_F(PoolTest, MaxSizeCapsThePool) {
  aclrtMemPool pool = NewPool(size_t{8} << 20);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&a, size_t{5} << 20, pool, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMemPoolMallocAsync, &b, size_t{5} << 20, pool,
                 stream_);
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(a, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&b, size_t{5} << 20, pool, stream_));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(b, stream_));
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
}

TEST_F(PoolTest, AttributesReadBackAndHighWaterMarksReset) {
  aclrtMemPool pool = NewPool();
  int reuse = 0;
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &reuse));
  int got = 1;
  ASSERT_ACL_OK(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &got));
  EXPECT_EQ(got, 0);
  uint64_t threshold = uint64_t{32} << 20;
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &threshold));
  EXPECT_EQ(Attr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), threshold);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&dev, 1 << 20, pool, stream_));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(dev, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_GT(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 0u);
  uint64_t zero = 0;
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &zero));
  EXPECT_EQ(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 0u);
  uint64_t five = 5;
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolSetAttr, pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &five);
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolSetAttr, pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT,
                 &zero);
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolGetAttr, pool, static_cast<aclrtMemPoolAttr>(99), &zero);
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolGetAttr, pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, nullptr);
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
}

TEST_F(PoolTest, MisuseIsRefusedWithAMessage) {
  aclrtMemPool pool = NewPool();
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&dev, 4096, pool, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, dev);  // pool memory
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolDestroy, pool);      // still allocated
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolMallocAsync, &dev, 0, pool, stream_);
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync, plain, stream_);
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(dev, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync, dev, stream_);  // twice
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolDestroy, pool);

  aclrtMemPoolProps props = {};
  props.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolCreate, &pool, &props);
  props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 7;  // not set in this process
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMemPoolCreate, &pool, &props);
  EXPECT_ACL_ERR(kBadParam, aclrtMemPoolCreate, nullptr, &props);
}

TEST_F(PoolTest, ResetReleasesPoolMemory) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  aclrtMemPool pool = NewPool();
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&dev, size_t{64} << 20, pool, stream_));
  ASSERT_ACL_OK(aclrtDestroyStream(stream_));
  stream_ = nullptr;
  ASSERT_ACL_OK(aclrtResetDevice(0));  // the leak is logged and released
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_EQ(free1, free0);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMemPoolMallocAsync, &dev, 64, pool, nullptr);
}

}  // namespace
