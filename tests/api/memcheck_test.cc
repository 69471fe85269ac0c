// The memory checker ("aclsim": {"memcheck": 1}): seeded faults, each caught and reported
// with the address and the allocation (at the next synchronisation, through the exception
// callback, or by the call itself), and clean programs that it leaves alone.
#include <mutex>
#include <string>

#include "acl/acl_rt_memory_soma.h"
#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::TempFile;

constexpr aclError kMemError = 507053;  // ACL_ERROR_RT_DEVICE_MEM_ERROR
constexpr size_t kBytes = 64 << 10;

struct Exceptions {
  std::mutex mu;
  int calls = 0;
  uint32_t stream = 0;
  uint32_t code = 0;
} g_exceptions;

void OnException(aclrtExceptionInfo* info) {
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  ++g_exceptions.calls;
  g_exceptions.stream = aclrtGetStreamIdFromExceptionInfo(info);
  g_exceptions.code = aclrtGetErrorCodeFromExceptionInfo(info);
}

class MemcheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(config_.path()));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtMallocHost(&pinned_, kBytes));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    g_exceptions.calls = 0;
    acltest::ClearRecentErrors();
  }
  void TearDown() override {
    (void)aclrtSetExceptionInfoCallback(nullptr);
    (void)aclrtSynchronizeDevice();
    (void)aclrtFreeHost(pinned_);
    AclTest::Shutdown();
  }
  // The stream's next synchronisation fails with the memory error and a message naming
  // `needle`.
  ::testing::AssertionResult SyncReports(const std::string& needle) {
    acltest::ClearRecentErrors();
    const aclError got = aclrtSynchronizeStream(stream_);
    const std::string message = acltest::TakeRecentErrors();
    if (got != kMemError) {
      return ::testing::AssertionFailure() << "synchronize returned " << got << ": " << message;
    }
    if (message.find(needle) == std::string::npos) {
      return ::testing::AssertionFailure() << "message lacks \"" << needle << "\": " << message;
    }
    return ::testing::AssertionSuccess();
  }
  void WriteDevice() {
    ASSERT_ACL_OK(aclrtMemcpy(dev_, kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  }

  TempFile config_{acltest::AclsimConfig("\"memcheck\": 1")};
  aclrtStream stream_ = nullptr;
  void* pinned_ = nullptr;
  void* dev_ = nullptr;
};

// --- async copies with pageable host memory --------------------------------------------------

TEST_F(MemcheckTest, AsyncCopyFromPageableMemoryIsReported) {
  std::vector<uint8_t> pageable(kBytes, 1);
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, pageable.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_TRUE(SyncReports("not pinned"));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));  // reported once
}

TEST_F(MemcheckTest, AsyncCopyIntoPageableMemoryIsReported) {
  WriteDevice();
  std::vector<uint8_t> pageable(kBytes);
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(pageable.data(), kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  EXPECT_TRUE(SyncReports("not pinned"));
}

TEST_F(MemcheckTest, Async2dCopyFromPageableMemoryIsReported) {
  std::vector<uint8_t> pageable(kBytes, 1);
  ASSERT_ACL_OK(aclrtMemcpy2dAsync(dev_, 256, pageable.data(), 256, 128, 64,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_TRUE(SyncReports("not pinned"));
}

TEST_F(MemcheckTest, AsyncCopiesWithPinnedOrRegisteredMemoryAreClean) {
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  std::vector<uint8_t> user(kBytes);
  void* view = nullptr;
  ASSERT_ACL_OK(aclrtHostRegister(user.data(), kBytes, ACL_HOST_REGISTER_MAPPED, &view));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(user.data(), kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtHostUnregister(user.data()));
}

// --- reads of memory never written -----------------------------------------------------------

TEST_F(MemcheckTest, SynchronousReadOfUnwrittenMemoryFailsTheCall) {
  EXPECT_ACL_ERR(kMemError, aclrtMemcpy, pinned_, kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
}

TEST_F(MemcheckTest, AsyncReadOfUnwrittenMemoryIsReportedAtTheSync) {
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(pinned_, kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  EXPECT_TRUE(SyncReports("never written"));
}

TEST_F(MemcheckTest, ReadPastTheWrittenPartNamesTheFirstUnwrittenByte) {
  ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0, 1000));
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtMemcpy(pinned_, 2000, dev_, 2000, ACL_MEMCPY_DEVICE_TO_HOST), kMemError);
  EXPECT_NE(acltest::TakeRecentErrors().find("offset 1000"), std::string::npos);
  EXPECT_ACL_OK(aclrtMemcpy(pinned_, 1000, dev_, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
}

TEST_F(MemcheckTest, DeviceToDeviceCopyOfUnwrittenMemoryIsReported) {
  void* other = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&other, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(kMemError, aclrtMemcpy, other, kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE);
  ASSERT_ACL_OK(aclrtFree(other));
}

TEST_F(MemcheckTest, KernelReadingAnUnwrittenInputIsReportedWithTheOp) {
  const int64_t dims[] = {16};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* x = nullptr;
  void* y = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&x, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&y, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(x, 64, 0, 64));  // x written; dev_ (the second input) is not
  aclDataBuffer* bx = aclCreateDataBuffer(x, 64);
  aclDataBuffer* bd = aclCreateDataBuffer(dev_, 64);
  aclDataBuffer* by = aclCreateDataBuffer(y, 64);
  const aclTensorDesc* in_descs[] = {desc, desc};
  const aclDataBuffer* in_bufs[] = {bx, bd};
  aclTensorDesc* out_descs[] = {desc};
  aclDataBuffer* out_bufs[] = {by};
  aclopAttr* attr = aclopCreateAttr();
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, const_cast<aclTensorDesc**>(in_descs),
                               const_cast<aclDataBuffer**>(in_bufs), 1, out_descs, out_bufs, attr,
                               stream_));
  EXPECT_TRUE(SyncReports("op Add"));
  // The output the kernel wrote is initialised now.
  EXPECT_ACL_OK(aclrtMemcpy(pinned_, 64, y, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  aclopDestroyAttr(attr);
  aclDestroyDataBuffer(bx);
  aclDestroyDataBuffer(bd);
  aclDestroyDataBuffer(by);
  aclDestroyTensorDesc(desc);
  ASSERT_ACL_OK(aclrtFree(x));
  ASSERT_ACL_OK(aclrtFree(y));
}

TEST_F(MemcheckTest, ManagedMemoryCountsAsWrittenByTheHost) {
  void* managed = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
  static_cast<uint8_t*>(managed)[0] = 7;
  EXPECT_ACL_OK(aclrtMemcpy(pinned_, 4096, managed, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
  ASSERT_ACL_OK(aclrtFree(managed));
}

TEST_F(MemcheckTest, ReusedMemoryStartsUnwrittenAgain) {
  WriteDevice();
  ASSERT_ACL_OK(aclrtFree(dev_));
  ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));  // same block
  EXPECT_ACL_ERR(kMemError, aclrtMemcpy, pinned_, kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
}

// --- use after free --------------------------------------------------------------------------

TEST_F(MemcheckTest, FreeBeforeTheTaskThatUsesItRunsIsReportedOnItsStream) {
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  acltest::HeldStream held;
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, held.stream()));
  ASSERT_ACL_OK(aclrtFree(dev_));  // the copy has not run
  dev_ = nullptr;
  held.Open();
  EXPECT_ACL_ERR(kMemError, aclrtSynchronizeStream, held.stream());
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  EXPECT_EQ(g_exceptions.calls, 1);
  EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(kMemError));
}

TEST_F(MemcheckTest, FreeAfterTheWorkIsDoneIsClean) {
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtFree(dev_));
  dev_ = nullptr;
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(MemcheckTest, PoolFreeOnAnotherStreamWhileTheBlockIsInUseIsReported) {
  aclrtMemPoolProps props = {};
  props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  aclrtMemPool pool = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
  acltest::HeldStream held;
  void* block = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&block, 4096, pool, held.stream()));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(block, 4096, pinned_, 4096, ACL_MEMCPY_HOST_TO_DEVICE, held.stream()));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(block, stream_));  // not the stream that uses it
  held.Open();
  EXPECT_ACL_ERR(kMemError, aclrtSynchronizeStream, held.stream());
  ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
}

// --- refused by the API itself (checker or not) ----------------------------------------------

TEST_F(MemcheckTest, CopyPastTheAllocationIsRefused) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy, static_cast<char*>(dev_) + 16, kBytes,
                 pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

TEST_F(MemcheckTest, MemsetPastTheAllocationIsRefused) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync, dev_, kBytes + 64, 0, kBytes + 64,
                 stream_);
}

TEST_F(MemcheckTest, CopyFromFreedMemoryIsRefused) {
  WriteDevice();
  ASSERT_ACL_OK(aclrtFree(dev_));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy, pinned_, kBytes, dev_, kBytes,
                 ACL_MEMCPY_DEVICE_TO_HOST);
  dev_ = nullptr;
}

TEST_F(MemcheckTest, DoubleFreeIsRefused) {
  ASSERT_ACL_OK(aclrtFree(dev_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, dev_);
  dev_ = nullptr;
}

TEST_F(MemcheckTest, CleanProgramRaisesNothing) {
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(pinned_, kBytes, dev_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev_, kBytes, 0, kBytes, stream_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtFree(dev_));
  dev_ = nullptr;
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  EXPECT_EQ(g_exceptions.calls, 0);
}

}  // namespace
