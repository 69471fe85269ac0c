// Device-side waits with a timeout (issue 8): aclrtStreamWaitEventWithTimeout / WithFlag,
// aclrtSetOpWaitTimeout, notifies and counting notifies, aclrtValueWrite / aclrtValueWait, and
// the op execute timeout (aclrtSetOpExecuteTimeOut*). A wait that expires fails its task with
// ACL_ERROR_RT_WAIT_TIMEOUT, reported at the next synchronisation of its stream and to the
// exception callback; the stream, other streams and the device go on working. No test asserts
// a wall-clock time; the timeouts are small (50-200 ms, or 1 s where the unit is seconds).
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_op_compiler.h"
#include "api_test.h"
#include "op_fixture.h"

namespace {

using acltest::AclTest;
using acltest::g_exceptions;
using acltest::OnException;
using acltest::ResetExceptions;

class WaitsTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&a_));
    ASSERT_ACL_OK(aclrtCreateStream(&b_));
    ASSERT_ACL_OK(aclrtCreateEvent(&event_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(dev_, 4096, 0, 4096));
    // Pinned: the sources of asynchronous copies (the memory checker insists, as CANN does).
    ASSERT_ACL_OK(aclrtMallocHost(reinterpret_cast<void**>(&host_values_), kHostSlots * 8));
    ResetExceptions();
  }
  void TearDown() override {
    (void)aclrtSetExceptionInfoCallback(nullptr);
    if (host_values_ != nullptr) (void)aclrtFreeHost(host_values_);
    AclTest::TearDown();
  }

  // Copies `value` into dev_ + offset on `stream`, and reads 8 bytes back after a sync.
  void Put(aclrtStream stream, size_t offset, uint64_t value) {
    ASSERT_LT(host_used_, kHostSlots);
    uint64_t* source = &host_values_[host_used_++];
    *source = value;
    ASSERT_ACL_OK(aclrtMemcpyAsync(static_cast<char*>(dev_) + offset, 8, source, 8,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream));
  }
  uint64_t Get(size_t offset) {
    uint64_t value = 0;
    EXPECT_ACL_OK(
        aclrtMemcpy(&value, 8, static_cast<char*>(dev_) + offset, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return value;
  }
  static int32_t StreamId(aclrtStream stream) {
    int32_t id = -1;
    EXPECT_ACL_OK(aclrtStreamGetId(stream, &id));
    return id;
  }

  aclrtStream a_ = nullptr;
  aclrtStream b_ = nullptr;
  aclrtEvent event_ = nullptr;
  void* dev_ = nullptr;
  static constexpr size_t kHostSlots = 64;
  uint64_t* host_values_ = nullptr;  // kHostSlots pinned values, one per Put
  size_t host_used_ = 0;

 public:
};

// --- aclrtStreamWaitEventWithTimeout / WithFlag ----------------------------------------------

TEST_F(WaitsTest, WaitWithTimeoutPassesWhenTheEventIsRecordedInTime) {
  Put(a_, 0, 42);
  ASSERT_ACL_OK(aclrtRecordEvent(event_, a_));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(b_, event_, 200));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(static_cast<char*>(dev_) + 8, 8, dev_, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, b_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_EQ(Get(8), 42u);
}

TEST_F(WaitsTest, WaitWithTimeoutOnANeverRecordedEventFailsAtTheNextSync) {
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(b_, event_, 50));
  Put(b_, 16, 7);  // a later task of the failed stream still runs
  Put(a_, 24, 9);  // another stream is unaffected
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_WAIT_TIMEOUT);
  const std::string message = acltest::TakeRecentErrors();
  EXPECT_NE(message.find("timed out"), std::string::npos) << message;
  EXPECT_ACL_OK(aclrtSynchronizeStream(a_));
  EXPECT_EQ(Get(16), 7u);
  EXPECT_EQ(Get(24), 9u);
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_EQ(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(ACL_ERROR_RT_WAIT_TIMEOUT));
    EXPECT_EQ(static_cast<int32_t>(g_exceptions.stream), StreamId(b_));
    EXPECT_NE(g_exceptions.task, 0u);
  }
  // Reported once; the stream and device keep working, and a late record harms nothing.
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  ASSERT_ACL_OK(aclrtRecordEvent(event_, a_));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(b_, event_, 200));
  Put(b_, 32, 11);
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(Get(32), 11u);
}

TEST_F(WaitsTest, WaitWithTimeoutArgumentsAreChecked) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithTimeout, b_, event_, -2);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithTimeout, b_, nullptr, 50);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtStreamWaitEventWithTimeout, b_, a_, 50);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag, b_, event_, 50, 7u);
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclrtStreamWaitEventWithFlag, b_, event_, 0,
                 ACL_EVENT_WAIT_EXTERNAL);
  // -1 and 0 wait forever: released by the record.
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(b_, event_, -1));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(b_, event_, 0, ACL_EVENT_WAIT_DEFAULT));
  ASSERT_ACL_OK(aclrtRecordEvent(event_, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
}

TEST_F(WaitsTest, WaitWithFlagDefaultTimesOutLikeWithTimeout) {
  ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(b_, event_, 50, ACL_EVENT_WAIT_DEFAULT));
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_WAIT_TIMEOUT);
}

TEST_F(WaitsTest, SetOpWaitTimeoutAppliesToLaterStreamWaitEvents) {
  ASSERT_ACL_OK(aclrtStreamWaitEvent(b_, event_));  // before the call: waits forever
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(1));
  aclrtStream c = nullptr;
  aclrtEvent other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&c));
  ASSERT_ACL_OK(aclrtCreateEvent(&other));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(c, other));
  EXPECT_EQ(aclrtSynchronizeStream(c), ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));  // never again
  ASSERT_ACL_OK(aclrtRecordEvent(event_, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_ACL_OK(aclrtDestroyEvent(other));
  EXPECT_ACL_OK(aclrtDestroyStream(c));
}

// --- notifies ---------------------------------------------------------------------------------

TEST_F(WaitsTest, NotifyOrdersTwoStreamsAndResetsOnWait) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  uint32_t id = UINT32_MAX;
  EXPECT_ACL_OK(aclrtGetNotifyId(notify, &id));
  EXPECT_NE(id, UINT32_MAX);
  // b waits (submitted first), a produces then records.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, b_, 0));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(static_cast<char*>(dev_) + 8, 8, dev_, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, b_));
  Put(a_, 0, 5);
  ASSERT_ACL_OK(aclrtRecordNotify(notify, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_EQ(Get(8), 5u);
  // The wait reset it: a second wait blocks until a second record.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, b_, 0));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_ACL_OK(aclrtRecordNotify(notify, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtRecordNotify, notify, a_);
}

TEST_F(WaitsTest, NotifyWaitTimesOutAndBatchResetClears) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, b_, 1));  // seconds
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_WAIT_TIMEOUT);
  // Recorded, then reset from the host: a wait no longer sees it.
  ASSERT_ACL_OK(aclrtRecordNotify(notify, a_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(a_));
  aclrtNotify list[1] = {notify};
  EXPECT_ACL_OK(aclrtNotifyBatchReset(list, 1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, b_, 0));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  // Destroying the notify releases the blocked wait.
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset, list, 0);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtNotifyBatchReset, list, 1);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify, &notify, 5u);
}

TEST_F(WaitsTest, CountingNotifyModes) {
  aclrtCntNotify cnt = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&cnt, ACL_NOTIFY_DEFAULT));
  uint32_t id = UINT32_MAX;
  EXPECT_ACL_OK(aclrtCntNotifyGetId(cnt, &id));
  auto record = [&](aclrtCntNotifyRecordMode mode, uint32_t value) {
    aclrtCntNotifyRecordInfo info = {mode, value};
    ASSERT_ACL_OK(aclrtCntNotifyRecord(cnt, a_, &info));
  };
  auto wait = [&](aclrtCntNotifyWaitMode mode, uint32_t value, bool clear) {
    aclrtCntNotifyWaitInfo info = {};
    info.mode = mode;
    info.value = value;
    info.timeout = 0;
    info.isClear = clear ? 1 : 0;
    ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(cnt, b_, &info));
  };
  // Add 3 in steps: a wait for >= 3 passes only after the third add.
  wait(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, false);
  record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  ASSERT_ACL_OK(aclrtSynchronizeStream(a_));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  // Count 3: equal, bigger, less, bitmask; the last clears it.
  wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 3, false);
  wait(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 2, false);
  wait(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 4, false);
  wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x2, true);
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  // Cleared: bit-or 0x5 then bit-and 0x4 leaves 4.
  record(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x5);
  record(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x4);
  ASSERT_ACL_OK(aclrtSynchronizeStream(a_));
  wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, false);
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  // Set, then a stream-ordered reset: a wait for a non-zero count times out.
  record(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9);
  ASSERT_ACL_OK(aclrtCntNotifyReset(cnt, a_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(a_));
  aclrtCntNotifyWaitInfo info = {};
  info.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE;
  info.value = 0;
  info.timeout = 1;  // seconds
  ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(cnt, b_, &info));
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_WAIT_TIMEOUT);
  // Bad modes.
  info.mode = static_cast<aclrtCntNotifyWaitMode>(9);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout, cnt, b_, &info);
  aclrtCntNotifyRecordInfo bad = {static_cast<aclrtCntNotifyRecordMode>(3), 1};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord, cnt, a_, &bad);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord, cnt, a_, nullptr);
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(cnt));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtCntNotifyReset, cnt, a_);
}

// --- aclrtValueWrite / aclrtValueWait -----------------------------------------------------------

TEST_F(WaitsTest, ValueWaitOrdersStreamsOnAValueWrite) {
  void* flag = static_cast<char*>(dev_) + 64;
  ASSERT_ACL_OK(aclrtValueWait(flag, 2, ACL_STREAM_WAIT_VALUE_EQ, b_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(static_cast<char*>(dev_) + 8, 8, dev_, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, b_));
  Put(a_, 0, 77);
  ASSERT_ACL_OK(aclrtValueWrite(flag, 1, 0, a_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(a_));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_ACL_OK(aclrtValueWrite(flag, 2, 0, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  EXPECT_EQ(Get(8), 77u);
  EXPECT_EQ(Get(64), 2u);
}

TEST_F(WaitsTest, ValueWaitComparisons) {
  void* flag = static_cast<char*>(dev_) + 128;
  ASSERT_ACL_OK(aclrtValueWrite(flag, 0x6, 0, b_));
  ASSERT_ACL_OK(aclrtValueWait(flag, 5, ACL_STREAM_WAIT_VALUE_GEQ, b_));    // 6 - 5 >= 0
  ASSERT_ACL_OK(aclrtValueWait(flag, 0x2, ACL_STREAM_WAIT_VALUE_AND, b_));  // 6 & 2 != 0
  ASSERT_ACL_OK(aclrtValueWait(flag, 0x1, ACL_STREAM_WAIT_VALUE_NOR, b_));  // ~(6 | 1) != 0
  ASSERT_ACL_OK(aclrtValueWait(flag, 6, ACL_STREAM_WAIT_VALUE_EQ, b_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
  // A host copy to the cell also releases a wait.
  ASSERT_ACL_OK(aclrtValueWait(flag, 9, ACL_STREAM_WAIT_VALUE_GEQ, b_));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(b_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  Put(a_, 128, 10);
  EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
}

TEST_F(WaitsTest, ValueArgumentsAreChecked) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite, nullptr, 1, 0, a_);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite, static_cast<char*>(dev_) + 4, 1, 0, a_);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite, dev_, 1, 1u, a_);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait, dev_, 1, 4u, a_);
  uint64_t host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait, &host, 1, 0u, a_);
  // Past the end of the allocation.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite, static_cast<char*>(dev_) + 4096, 1, 0,
                 a_);
}

// --- op execute timeout -------------------------------------------------------------------------

TEST_F(WaitsTest, OpTimeoutSettersRoundTrip) {
  uint64_t interval = 0;
  ASSERT_ACL_OK(aclrtGetOpTimeOutInterval(&interval));
  EXPECT_GT(interval, 0u);
  uint32_t ms = 0;
  EXPECT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, UINT32_MAX);  // never, by default
  uint64_t actual = 0;
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(interval + 1, &actual));
  EXPECT_EQ(actual, 2 * interval);  // rounded up to the interval
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(2));
  EXPECT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 2000u);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(1500));
  EXPECT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 1500u);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
  EXPECT_EQ(actual, UINT64_MAX);  // never
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOutV2, 100, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOpTimeOutInterval, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOpExecuteTimeout, nullptr);
  EXPECT_ACL_OK(aclrtSetOpWaitTimeout(0));
}

class OpExecuteTimeoutTest : public acltest::OpFixture {};

TEST_F(OpExecuteTimeoutTest, ALongMatMulFailsWithTheAiCoreTimeoutAndTheDeviceGoesOn) {
  // 4096^3 fp16 MACs take far longer than one interval of simulated time.
  constexpr int64_t kN = 4096;
  uint64_t interval = 0;
  ASSERT_ACL_OK(aclrtGetOpTimeOutInterval(&interval));
  uint64_t actual = 0;
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(interval, &actual));
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT16, {kN, kN}), Desc(ACL_FLOAT16, {kN, kN})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT16, {kN, kN})};
  const size_t bytes = static_cast<size_t>(kN * kN * 2);
  void* ptrs[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&ptrs[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    device_.push_back(ptrs[i]);
    buffers[i] = aclCreateDataBuffer(ptrs[i], bytes);
    buffers_.push_back(buffers[i]);
  }
  aclDataBuffer* a[2] = {buffers[0], buffers[1]};
  aclDataBuffer* y[1] = {buffers[2]};
  ASSERT_ACL_OK(aclopExecuteV2("MatMul", 2, in, a, 1, out, y, Attr(), stream_));
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
  const std::string message = acltest::TakeRecentErrors();
  EXPECT_NE(message.find("op execute timeout"), std::string::npos) << message;
  // Without a timeout a small MatMul computes correctly.
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
  aclTensorDesc* sin[2] = {Desc(ACL_FLOAT, {2, 2}), Desc(ACL_FLOAT, {2, 2})};
  aclTensorDesc* sout[1] = {Desc(ACL_FLOAT, {2, 2})};
  aclDataBuffer* sa[2] = {Device(std::vector<float>{1, 2, 3, 4}),
                          Device(std::vector<float>{1, 0, 0, 1})};
  aclDataBuffer* sy[1] = {Device<float>({}, 16)};
  ASSERT_ACL_OK(aclopExecuteV2("MatMul", 2, sin, sa, 1, sout, sy, nullptr, stream_));
  EXPECT_EQ(Read<float>(sy[0]), (std::vector<float>{1, 2, 3, 4}));
}

}  // namespace
