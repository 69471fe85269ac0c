// Reliability, pointers that are not device memory: every writer of device memory (the memset
// family, copies, value writes) refuses a destination aclsim does not know -- the caller's
// malloc block or stack, an unmapped address -- with ACL_ERROR_INVALID_PARAM and leaves it
// untouched; host memory from aclrtMallocHost is accepted. An async copy from pageable host
// memory copies its source at enqueue, so the buffer may go away once the call returns.
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "op_fixture.h"

namespace {

constexpr size_t kBytes = 4096;

class ReliabilityPointersTest : public acltest::OpFixture {
 protected:
  // A page that was mapped and is no longer.
  static void* UnmappedPage() {
    void* page = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(page, MAP_FAILED);
    munmap(page, kBytes);
    return page;
  }
};

TEST_F(ReliabilityPointersTest, MemsetFamilyRefusesMemoryItDoesNotKnow) {
  std::vector<uint8_t> heap(kBytes, 0x11);
  uint8_t stack[256];
  std::memset(stack, 0x22, sizeof(stack));
  void* unmapped = UnmappedPage();
  for (void* target : {static_cast<void*>(heap.data()), static_cast<void*>(stack), unmapped}) {
    const size_t n = target == stack ? sizeof(stack) : kBytes;
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset, target, n, 0x7f, n);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync, target, n, 0x7f, n, stream_);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32, target, n, 0x7f7f7f7fu, n / 4);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async, target, n, 0x7f7f7f7fu, n / 4,
                   stream_);
  }
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(heap, std::vector<uint8_t>(kBytes, 0x11));
  for (uint8_t b : stack) EXPECT_EQ(b, 0x22);
}

TEST_F(ReliabilityPointersTest, MemsetAcceptsDeviceAndRuntimeHostMemory) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, kBytes));
  EXPECT_ACL_OK(aclrtMemset(dev, kBytes, 0x5a, kBytes));
  EXPECT_ACL_OK(aclrtMemsetAsync(host, kBytes, 0x3c, kBytes, stream_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint8_t> back(kBytes);
  EXPECT_ACL_OK(aclrtMemcpy(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, std::vector<uint8_t>(kBytes, 0x5a));
  EXPECT_EQ(static_cast<uint8_t*>(host)[kBytes - 1], 0x3c);
  // A range running past the end of either is refused whole.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset, dev, kBytes + 1, 0, kBytes + 1);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset, host, kBytes * 2, 0, kBytes * 2);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(ReliabilityPointersTest, CopiesAndValueWritesRefuseForeignDestinations) {
  std::vector<uint8_t> heap(kBytes, 0x11);
  void* unmapped = UnmappedPage();
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  // A device-side kind with a host pointer, and value writes to host memory.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy, unmapped, kBytes, dev, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync, heap.data(), kBytes, dev, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream_);
  EXPECT_NE(aclrtValueWrite(heap.data(), 1, 0, stream_), ACL_SUCCESS);
  EXPECT_NE(aclrtValueWrite(unmapped, 1, 0, stream_), ACL_SUCCESS);
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(heap, std::vector<uint8_t>(kBytes, 0x11));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(ReliabilityPointersTest, AsyncCopiesFromPageableMemoryCopyAtEnqueue) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 2 * kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  // Hold the stream so the copies are still queued when their sources disappear.
  acltest::Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, acltest::Latch::WaitFn, &latch));
  auto* page = static_cast<uint8_t*>(
      mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(page, MAP_FAILED);
  std::memset(page, 0xa5, kBytes);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev, kBytes, page, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  munmap(page, kBytes);
  auto* heap = new std::vector<uint8_t>(kBytes, 0x5a);
  ASSERT_ACL_OK(aclrtMemcpy2dAsync(static_cast<uint8_t*>(dev) + kBytes, 64, heap->data(), 64, 64,
                                   kBytes / 64, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  delete heap;
  latch.Release();
  if (acltest::MemcheckFromEnvironment()) {
    // The memory checker reports async copies from pageable memory, as it documents.
    EXPECT_ACL_ERR(ACL_ERROR_RT_DEVICE_MEM_ERROR, aclrtSynchronizeStream, stream_);
    EXPECT_ACL_OK(aclrtFree(dev));
    return;
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint8_t> back(2 * kBytes);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), dev, back.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], 0xa5) << i;
  for (size_t i = kBytes; i < 2 * kBytes; ++i) ASSERT_EQ(back[i], 0x5a) << i;
  EXPECT_ACL_OK(aclrtFree(dev));
}

}  // namespace
