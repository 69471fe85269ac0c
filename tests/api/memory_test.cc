// Memory: aclrtMalloc policies, frees (double, interior, foreign), pinned host memory,
// aclrtGetMemInfo, the huge-page budget, aclrtMemset / aclrtMemsetAsync / aclrtMemsetD32(Async).
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::RoundTrip;
using acltest::TempFile;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadFree = ACL_ERROR_RT_MEMORY_FREE;

std::vector<uint8_t> Download(const void* dev, size_t bytes) {
  std::vector<uint8_t> out(bytes, 0xCD);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  return out;
}

TEST_F(AclTest, MallocWorksWithEveryPolicy) {
  const int policies[] = {ACL_MEM_MALLOC_HUGE_FIRST,
                          ACL_MEM_MALLOC_HUGE_ONLY,
                          ACL_MEM_MALLOC_NORMAL_ONLY,
                          ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                          ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                          ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
                          ACL_MEM_MALLOC_HUGE1G_ONLY,
                          ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
                          ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                          ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_LOW_BAND_WIDTH};
  const size_t sizes[] = {1, 4097, (2 << 20) + 3};
  for (int policy : policies) {
    for (size_t size : sizes) {
      void* dev = nullptr;
      ASSERT_ACL_OK(aclrtMalloc(&dev, size, static_cast<aclrtMemMallocPolicy>(policy)));
      ASSERT_NE(dev, nullptr);
      EXPECT_TRUE(RoundTrip(dev, size, policy)) << "policy " << policy << " size " << size;
      EXPECT_ACL_OK(aclrtFree(dev));
    }
  }
}

TEST_F(AclTest, MallocAlign32ReturnsAlignedUsableMemory) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMallocAlign32(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 32, 0u);
  EXPECT_TRUE(RoundTrip(dev, 1000, 9));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, MallocRefusesBadArguments) {
  void* dev = nullptr;
  for (auto* fn : {aclrtMalloc, aclrtMallocAlign32}) {
    acltest::ClearRecentErrors();
    EXPECT_EQ(fn(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST), kBadParam);
    EXPECT_TRUE(acltest::RecentErrorNames("aclrtMalloc"));
    EXPECT_EQ(fn(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), kBadParam);
    EXPECT_EQ(fn(&dev, 64, static_cast<aclrtMemMallocPolicy>(0x7f)), kBadParam);
    EXPECT_EQ(fn(&dev, 64,
                 static_cast<aclrtMemMallocPolicy>(ACL_MEM_TYPE_LOW_BAND_WIDTH |
                                                   ACL_MEM_TYPE_HIGH_BAND_WIDTH)),
              kBadParam);
  }
  EXPECT_ACL_ERR(kBadParam, aclrtMalloc, &dev, 0, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocAlign32, &dev, 0, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclrtMalloc, nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kBadParam, aclrtMalloc, &dev, 64, static_cast<aclrtMemMallocPolicy>(99));
}

TEST_F(AclTest, MallocBeyondDeviceMemoryIsAllocationError) {
  void* dev = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &dev, size_t{1} << 40,
                 ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &dev, SIZE_MAX - 4096,
                 ACL_MEM_MALLOC_NORMAL_ONLY);
  // The device is still fine.
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(dev));
}

// Rounding SIZE_MAX up to the host alignment wrapped to 0 bytes, which "succeeded".
TEST_F(AclTest, MallocHostOfSizeMaxIsBadAlloc) {
  void* host = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_BAD_ALLOC, aclrtMallocHost, &host, SIZE_MAX);
  EXPECT_EQ(host, nullptr);
}

TEST_F(AclTest, MallocWithoutContextIsContextNull) {
  std::thread worker([] {
    void* dev = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc, &dev, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    size_t free_bytes = 0, total = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemInfo, ACL_HBM_MEM, &free_bytes, &total);
  });
  worker.join();
}

TEST_F(AclTest, FreeRefusesNullDoubleInteriorAndForeignPointers) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(kBadFree, aclrtFree, static_cast<char*>(dev) + 16);  // interior
  int on_stack = 0;
  EXPECT_ACL_ERR(kBadFree, aclrtFree, &on_stack);
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 64));
  EXPECT_ACL_ERR(kBadFree, aclrtFree, host);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_ERR(kBadParam, aclrtFree, nullptr);
  ASSERT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_ERR(kBadFree, aclrtFree, dev);  // double free
}

TEST_F(AclTest, FreeWorksFromAnotherCurrentDevice) {
  void* dev0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtFree(dev0));  // the address says which device owns it
  EXPECT_ACL_ERR(kBadFree, aclrtFree, dev0);
}

TEST_F(AclTest, MallocHostIsAlignedAndFreedOnce) {
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 1000));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  std::memset(host, 0x5A, 1000);  // writable host memory
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(dev, 1000, host, 1000, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> back = Download(dev, 1000);
  EXPECT_EQ(acltest::FirstMismatch(back.data(), host, 1000), -1);
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_ERR(kBadFree, aclrtFreeHost, host);
}

TEST_F(AclTest, MallocHostRefusesBadArguments) {
  void* host = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtMallocHost, &host, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMallocHost, nullptr, 64);
  EXPECT_ACL_ERR(kBadParam, aclrtFreeHost, nullptr);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(kBadFree, aclrtFreeHost, dev);
  EXPECT_ACL_OK(aclrtFree(dev));
  std::vector<uint8_t> plain(64);
  EXPECT_ACL_ERR(kBadFree, aclrtFreeHost, plain.data());
  ASSERT_ACL_OK(aclrtMallocHost(&host, 256));
  EXPECT_ACL_ERR(kBadFree, aclrtFreeHost, static_cast<char*>(host) + 64);
  EXPECT_ACL_OK(aclrtFreeHost(host));
}

TEST_F(AclTest, GetMemInfoTracksAllocations) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  EXPECT_EQ(total, size_t{64} << 30);  // Ascend910B2: 64 GiB HBM
  EXPECT_LE(free0, total);
  EXPECT_GT(free0, total - (size_t{64} << 20));
  const size_t kBytes = size_t{256} << 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_ONLY));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_LE(free1 + kBytes, free0);
  ASSERT_ACL_OK(aclrtFree(dev));
  size_t free2 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
  EXPECT_EQ(free2, free0);
}

TEST_F(AclTest, GetMemInfoAnswersEveryHbmAttribute) {
  const aclrtMemAttr attrs[] = {ACL_HBM_MEM,           ACL_HBM_MEM_HUGE,       ACL_HBM_MEM_NORMAL,
                                ACL_HBM_MEM_P2P_HUGE,  ACL_HBM_MEM_P2P_NORMAL, ACL_HBM_MEM_HUGE1G,
                                ACL_HBM_MEM_P2P_HUGE1G};
  for (aclrtMemAttr attr : attrs) {
    size_t free_bytes = 0, total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(attr, &free_bytes, &total));
    EXPECT_EQ(total, size_t{64} << 30) << "attr " << attr;
    EXPECT_GT(free_bytes, 0u) << "attr " << attr;
  }
  // The 910B2 has no separate DDR pool.
  size_t free_bytes = 1, total = 1;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total));
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(free_bytes, 0u);
}

// The recent error message (printed), "" if there is none.
std::string RecentError() {
  const char* message = aclGetRecentErrMsg();
  std::string text = message != nullptr ? message : "";
  std::printf("recent error: %s\n", text.c_str());
  return text;
}

// A huge-page budget (huge_page_bytes) makes huge pages run out before the pool does: 3 MiB
// requests take 4 MiB segments of 2 MiB pages, so an 8 MiB budget holds two.
TEST_F(AclNoInitTest, HugePagesRunOutBeforeThePool) {
  const size_t kBudget = size_t{8} << 20;
  TempFile config(AclsimConfig("\"huge_page_bytes\": \"" + std::to_string(kBudget) + "\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free_bytes = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &free_bytes, &total));
  EXPECT_EQ(total, kBudget);
  EXPECT_EQ(free_bytes, kBudget);
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  EXPECT_EQ(total, size_t{64} << 30);  // the pool is unchanged

  const size_t kBytes = size_t{3} << 20;
  void* huge[2] = {};
  for (void*& p : huge) ASSERT_ACL_OK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_ONLY));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &free_bytes, &total));
  EXPECT_EQ(free_bytes, 0u);
  void* more = nullptr;
  EXPECT_EQ(aclrtMalloc(&more, kBytes, ACL_MEM_MALLOC_HUGE_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(more, nullptr);
  EXPECT_NE(RecentError().find("huge-page budget"), std::string::npos);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &more, kBytes,
                 ACL_MEM_MALLOC_HUGE1G_ONLY);

  // HUGE_FIRST falls back to normal pages; NORMAL_ONLY never needed huge ones.
  void* fallback = nullptr;
  void* normal = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&fallback, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&normal, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  aclrtPtrAttributes attrs = {};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(huge[0], &attrs));
  EXPECT_EQ(attrs.pageSize, 2u << 20);
  ASSERT_ACL_OK(aclrtPointerGetAttributes(fallback, &attrs));
  EXPECT_EQ(attrs.pageSize, 4096u);
  EXPECT_TRUE(RoundTrip(fallback, kBytes, 7));

  // Freed huge pages serve huge requests again.
  ASSERT_ACL_OK(aclrtFree(huge[0]));
  ASSERT_ACL_OK(aclrtMalloc(&huge[0], kBytes, ACL_MEM_MALLOC_HUGE_ONLY));
  for (void* p : {huge[0], huge[1], fallback, normal}) EXPECT_ACL_OK(aclrtFree(p));
}

TEST_F(AclNoInitTest, NoHugePagesLeavesOnlyNormalPages) {
  TempFile config(AclsimConfig("\"huge_page_bytes\": \"0\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free_bytes = 1, total = 1;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_MEM_HUGE1G, &free_bytes, &total));
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(free_bytes, 0u);
  void* p = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc, &p, 4096, ACL_MEM_MALLOC_HUGE_ONLY);
  for (size_t bytes : {size_t{4096}, size_t{16} << 20}) {
    ASSERT_ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtPtrAttributes attrs = {};
    ASSERT_ACL_OK(aclrtPointerGetAttributes(p, &attrs));
    EXPECT_EQ(attrs.pageSize, 4096u) << bytes;
    EXPECT_ACL_OK(aclrtFree(p));
  }
}

TEST_F(AclNoInitTest, HugePageBudgetMustBeANumberInRange) {
  for (const char* value : {"lots", "-1", "5000000000000000"}) {
    TempFile config(AclsimConfig(std::string("\"huge_page_bytes\": \"") + value + "\""));
    const aclError init = aclInit(config.path());
    const aclError set = init == ACL_SUCCESS ? aclrtSetDevice(0) : init;
    EXPECT_NE(set, ACL_SUCCESS) << value;
    EXPECT_NE(RecentError().find("huge_page_bytes"), std::string::npos) << value;
    if (init == ACL_SUCCESS) aclFinalize();
  }
}

TEST_F(AclTest, GetMemInfoRefusesBadArguments) {
  size_t free_bytes = 0, total = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtGetMemInfo, ACL_HBM_MEM, nullptr, &total);
  EXPECT_ACL_ERR(kBadParam, aclrtGetMemInfo, ACL_HBM_MEM, &free_bytes, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetMemInfo, static_cast<aclrtMemAttr>(1000), &free_bytes, &total);
  EXPECT_ACL_ERR(kBadParam, aclrtGetMemInfo, static_cast<aclrtMemAttr>(-1), &free_bytes, &total);
}

class MemsetTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemcpy(dev_, kBytes, pattern_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    acltest::ClearRecentErrors();
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtFree(dev_));
    AclTest::TearDown();
  }
  // Expects [offset, offset+count) == value and every other byte unchanged.
  void ExpectFilled(size_t offset, size_t count, uint8_t value) {
    std::vector<uint8_t> now = Download(dev_, kBytes);
    for (size_t i = 0; i < kBytes; ++i) {
      const uint8_t want = (i >= offset && i < offset + count) ? value : pattern_[i];
      ASSERT_EQ(now[i], want) << "byte " << i;
    }
  }
  static constexpr size_t kBytes = 64 << 10;
  std::vector<uint8_t> pattern_ = acltest::Pattern(kBytes, 10);
  void* dev_ = nullptr;
  aclrtStream stream_ = nullptr;
};

TEST_F(MemsetTest, MemsetFillsTheWholeBuffer) {
  ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0x5A, kBytes));
  ExpectFilled(0, kBytes, 0x5A);
}

TEST_F(MemsetTest, MemsetFillsOnlyTheRange) {
  ASSERT_ACL_OK(aclrtMemset(static_cast<char*>(dev_) + 100, kBytes - 100, 0x00, 1000));
  ExpectFilled(100, 1000, 0x00);
}

TEST_F(MemsetTest, MemsetUsesTheLowByteOfValue) {
  ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0x1A7, 333));
  ExpectFilled(0, 333, 0xA7);
}

TEST_F(MemsetTest, MemsetOfZeroBytesChangesNothing) {
  ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0, 0));
  ExpectFilled(0, 0, 0);
}

TEST_F(MemsetTest, MemsetRefusesBadSizesAndPointers) {
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, dev_, 100, 0, 101);  // count > maxCount
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, static_cast<char*>(dev_) + kBytes - 8, 16, 0, 16);
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, nullptr, 16, 0, 16);
  void* freed = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&freed, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(freed));
  EXPECT_ACL_ERR(kBadParam, aclrtMemset, freed, 4096, 0, 4096);
  ExpectFilled(0, 0, 0);  // nothing was written
}

TEST_F(MemsetTest, MemsetAsyncFillsAfterSynchronize) {
  ASSERT_ACL_OK(
      aclrtMemsetAsync(static_cast<char*>(dev_) + 4096, kBytes - 4096, 0xEE, 8192, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectFilled(4096, 8192, 0xEE);
}

TEST_F(MemsetTest, MemsetAsyncOnTheDefaultStream) {
  ASSERT_ACL_OK(aclrtMemsetAsync(dev_, kBytes, 0x11, kBytes, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ExpectFilled(0, kBytes, 0x11);
}

TEST_F(MemsetTest, MemsetAsyncRefusesBadArguments) {
  aclrtStream destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetAsync, dev_, 10, 0, 11, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetAsync, nullptr, 10, 0, 10, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetAsync, static_cast<char*>(dev_) + kBytes, 1, 0, 1, stream_);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemsetAsync, dev_, 10, 0, 10, destroyed);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemsetAsync, dev_, 10, 0, 10, event);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectFilled(0, 0, 0);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(MemsetTest, MemsetD32FillsThirtyTwoBitValues) {
  ASSERT_ACL_OK(aclrtMemsetD32(static_cast<char*>(dev_) + 64, kBytes - 64, 0xA1B2C3D4u, 10));
  std::vector<uint8_t> now = Download(dev_, kBytes);
  for (size_t i = 0; i < kBytes; ++i) {
    uint8_t want = pattern_[i];
    if (i >= 64 && i < 64 + 40) {
      const uint32_t value = 0xA1B2C3D4u;
      want = reinterpret_cast<const uint8_t*>(&value)[(i - 64) % 4];
    }
    ASSERT_EQ(now[i], want) << "byte " << i;
  }
  ASSERT_ACL_OK(aclrtMemsetD32Async(dev_, kBytes, 0x01020304u, kBytes / 4, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  now = Download(dev_, kBytes);
  uint32_t last = 0;
  std::memcpy(&last, now.data() + kBytes - 4, 4);
  EXPECT_EQ(last, 0x01020304u);

  EXPECT_ACL_ERR(kBadParam, aclrtMemsetD32, dev_, 16, 0u, 5);  // 20 bytes > memSize
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetD32, static_cast<char*>(dev_) + 2, 64, 0u, 4);  // unaligned
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetD32, nullptr, 64, 0u, 4);
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetD32, static_cast<char*>(dev_) + kBytes - 8, 64, 0u, 4);
  EXPECT_ACL_ERR(kBadParam, aclrtMemsetD32Async, dev_, 16, 0u, SIZE_MAX / 2, stream_);
  ASSERT_ACL_OK(aclrtMemsetD32(dev_, 64, 7u, 0));  // nothing to do
}

}  // namespace
