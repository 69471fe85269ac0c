// Host callbacks through report threads (aclrtSubscribeReport / aclrtLaunchCallback /
// aclrtProcessReport / aclrtUnSubscribeReport), aclrtLaunchHostFunc, and task failures
// delivered to aclrtSetExceptionInfoCallback.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::g_exceptions;
using acltest::OnException;
using acltest::ReportThread;
using acltest::ResetExceptions;
using acltest::TempFile;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

// What callbacks saw, shared with the test thread.
struct Record {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int> order;
  std::vector<uint64_t> threads;

  void Add(int index) {
    {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(index);
      threads.push_back(static_cast<uint64_t>(pthread_self()));
    }
    cv.notify_all();
  }
  // Waits (bounded, generously) until `count` callbacks ran.
  bool WaitFor(size_t count) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(60), [&] { return order.size() >= count; });
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mu);
    return order.size();
  }
};

struct CallbackArg {
  Record* record;
  int index;
};

void RecordCallback(void* user_data) {
  auto* arg = static_cast<CallbackArg*>(user_data);
  arg->record->Add(arg->index);
}

void Ignore(void*) {}

class CallbackTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    acltest::ClearRecentErrors();
  }
  aclrtStream stream_ = nullptr;
  Record record_;
};

TEST_F(CallbackTest, BlockingCallbackRunsOnTheReportThreadBeforeLaterWork) {
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  CallbackArg arg{&record_, 1};
  std::atomic<size_t> seen_by_later_task{99};
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &arg, ACL_CALLBACK_BLOCK, stream_));
  struct Later {
    Record* record;
    std::atomic<size_t>* seen;
  } later{&record_, &seen_by_later_task};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream_,
      [](void* p) {
        auto* l = static_cast<Later*>(p);
        l->seen->store(l->record->size());
      },
      &later));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_EQ(record_.size(), 1u);
  EXPECT_EQ(record_.threads[0], reporter.id());
  EXPECT_EQ(seen_by_later_task.load(), 1u);  // the blocking callback finished first
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
}

TEST_F(CallbackTest, NonBlockingCallbackRunsOnTheReportThread) {
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  CallbackArg arg{&record_, 7};
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &arg, ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_TRUE(record_.WaitFor(1));
  EXPECT_EQ(record_.order[0], 7);
  EXPECT_EQ(record_.threads[0], reporter.id());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
}

TEST_F(CallbackTest, CallbacksRunInLaunchOrder) {
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  std::vector<CallbackArg> args;
  for (int i = 0; i < 100; ++i) args.push_back(CallbackArg{&record_, i});
  for (int i = 0; i < 100; ++i) {
    const aclrtCallbackBlockType type = i % 3 == 0 ? ACL_CALLBACK_NO_BLOCK : ACL_CALLBACK_BLOCK;
    ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &args[i], type, stream_));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_TRUE(record_.WaitFor(100));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(record_.order[i], i);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
}

TEST_F(CallbackTest, OneReportThreadServesSeveralStreams) {
  aclrtStream second = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&second));
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), second));
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), nullptr));  // the default stream too
  CallbackArg a{&record_, 1}, b{&record_, 2}, c{&record_, 3};
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &a, ACL_CALLBACK_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &b, ACL_CALLBACK_BLOCK, second));
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &c, ACL_CALLBACK_BLOCK, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  ASSERT_EQ(record_.size(), 3u);
  for (uint64_t thread : record_.threads) EXPECT_EQ(thread, reporter.id());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), second));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), nullptr));
  EXPECT_ACL_OK(aclrtDestroyStream(second));
}

TEST_F(CallbackTest, LaunchOnAnUnsubscribedStreamIsStreamNotSubscribe) {
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtLaunchCallback, Ignore, nullptr,
                 ACL_CALLBACK_BLOCK, stream_);
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtLaunchCallback, Ignore, nullptr,
                 ACL_CALLBACK_NO_BLOCK, stream_);
}

TEST_F(CallbackTest, SubscribingAStreamTwiceIsRepeatSubscribe) {
  ReportThread reporter, other;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeReport, reporter.id(), stream_);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeReport, other.id(), stream_);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
}

TEST_F(CallbackTest, SubscribeAndUnsubscribeRefuseBadArguments) {
  aclrtStream destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ReportThread reporter, other;
  EXPECT_ACL_ERR(kBadParam, aclrtSubscribeReport, 0, stream_);
  EXPECT_ACL_ERR(kBadHandle, aclrtSubscribeReport, reporter.id(), destroyed);
  EXPECT_ACL_ERR(kBadHandle, aclrtSubscribeReport, reporter.id(), event);
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtUnSubscribeReport, reporter.id(), stream_);
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtUnSubscribeReport, other.id(), stream_);
  EXPECT_ACL_ERR(kBadHandle, aclrtUnSubscribeReport, reporter.id(), destroyed);
  EXPECT_ACL_ERR(kBadHandle, aclrtUnSubscribeReport, reporter.id(), event);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(CallbackTest, LaunchCallbackRefusesBadArguments) {
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  aclrtStream destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_ERR(kBadParam, aclrtLaunchCallback, nullptr, nullptr, ACL_CALLBACK_BLOCK, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtLaunchCallback, Ignore, nullptr,
                 static_cast<aclrtCallbackBlockType>(2), stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtLaunchCallback, Ignore, nullptr,
                 static_cast<aclrtCallbackBlockType>(-1), stream_);
  EXPECT_ACL_ERR(kBadHandle, aclrtLaunchCallback, Ignore, nullptr, ACL_CALLBACK_BLOCK, destroyed);
  EXPECT_ACL_ERR(kBadHandle, aclrtLaunchCallback, Ignore, nullptr, ACL_CALLBACK_BLOCK, event);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(CallbackTest, ProcessReportNeedsASubscriptionAndTimesOut) {
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessReport, 10);
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  ASSERT_ACL_OK(aclrtSubscribeReport(self, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, aclrtProcessReport, 10);
  EXPECT_ACL_ERR(kBadParam, aclrtProcessReport, -2);
  // A NO_BLOCK callback is delivered to this thread's next aclrtProcessReport.
  CallbackArg arg{&record_, 3};
  ASSERT_ACL_OK(aclrtLaunchCallback(RecordCallback, &arg, ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(record_.size(), 0u);
  ASSERT_ACL_OK(aclrtProcessReport(-1));
  EXPECT_EQ(record_.size(), 1u);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(self, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessReport, 10);
}

TEST_F(CallbackTest, HostFunctionsRunInStreamOrder) {
  std::vector<CallbackArg> args;
  for (int i = 0; i < 50; ++i) args.push_back(CallbackArg{&record_, i});
  const size_t kBytes = 64 << 10;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 21), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < 50; ++i) {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, RecordCallback, &args[i]));
    if (i == 25) {
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    }
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_EQ(record_.size(), 50u);  // no subscription needed, done when the stream is
  for (int i = 0; i < 50; ++i) EXPECT_EQ(record_.order[i], i);
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(CallbackTest, HostFunctionOnTheDefaultStream) {
  CallbackArg arg{&record_, 5};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, RecordCallback, &arg));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_EQ(record_.size(), 1u);
  EXPECT_EQ(record_.order[0], 5);
}

TEST_F(CallbackTest, SubscribedHostFunctionsRunOnTheProcessingThreadInOrder) {
  ReportThread worker(aclrtProcessHostFunc);
  ASSERT_ACL_OK(aclrtSubscribeHostFunc(worker.id(), stream_));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeHostFunc, worker.id(), stream_);
  std::vector<CallbackArg> args;
  for (int i = 0; i < 20; ++i) args.push_back(CallbackArg{&record_, i});
  for (int i = 0; i < 20; ++i) {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, RecordCallback, &args[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_EQ(record_.size(), 20u);  // the stream waited for each of them
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(record_.order[i], i);
    EXPECT_EQ(record_.threads[i], worker.id());
  }
  EXPECT_ACL_OK(aclrtUnSubscribeHostFunc(worker.id(), stream_));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtUnSubscribeHostFunc, worker.id(), stream_);
  // Unsubscribed: host functions run on a runtime thread again.
  CallbackArg last{&record_, 20};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, RecordCallback, &last));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_EQ(record_.size(), 21u);
  EXPECT_NE(record_.threads[20], worker.id());
}

TEST_F(CallbackTest, ProcessHostFuncHonoursItsTimeout) {
  // Not subscribed: the documented error, at once.
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessHostFunc, 10);
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  ASSERT_ACL_OK(aclrtSubscribeHostFunc(self, stream_));
  // Subscribed but nothing launched: a timeout, not a hang.
  EXPECT_ACL_ERR(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, aclrtProcessHostFunc, 20);
  EXPECT_ACL_ERR(kBadParam, aclrtProcessHostFunc, -2);
  // Launched: this thread runs it in its next aclrtProcessHostFunc.
  CallbackArg arg{&record_, 5};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, RecordCallback, &arg));
  ASSERT_ACL_OK(aclrtProcessHostFunc(-1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_EQ(record_.size(), 1u);
  EXPECT_EQ(record_.threads[0], self);
  EXPECT_ACL_ERR(kBadParam, aclrtSubscribeHostFunc, 0, stream_);
  // Destroying the stream ends its subscription.
  ASSERT_ACL_OK(aclrtDestroyStream(stream_));
  stream_ = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessHostFunc, 0);
}

TEST_F(CallbackTest, LaunchHostFuncRefusesBadArguments) {
  aclrtStream destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_ERR(kBadParam, aclrtLaunchHostFunc, stream_, nullptr, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtLaunchHostFunc, destroyed, Ignore, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtLaunchHostFunc, event, Ignore, nullptr);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

// ---- exceptions -------------------------------------------------------------------------

int ExceptionCalls() {
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  return g_exceptions.calls;
}

TEST_F(AclNoInitTest, FailedTaskReachesTheExceptionCallbackAndTheNextSynchronize) {
  ResetExceptions();
  // Device 0's fifth task fails.
  TempFile config(AclsimConfig("\"fault_fail_task\": \"5\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &stream_id));
  const size_t kBytes = 4096;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 22), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int task = 1; task <= 4; ++task) {  // tasks 1..4 succeed
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  }
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                 stream));  // task 5 fails
  acltest::ClearRecentErrors();
  const aclError synced = aclrtSynchronizeStream(stream);
  EXPECT_NE(synced, ACL_SUCCESS);
  EXPECT_TRUE(acltest::RecentErrorNames("aclrtSynchronizeStream"));
  {
    std::lock_guard<std::mutex> lock(g_exceptions.mu);
    EXPECT_EQ(g_exceptions.calls, 1);
    EXPECT_EQ(g_exceptions.task, 5u);
    EXPECT_EQ(g_exceptions.device, 0u);
    EXPECT_EQ(g_exceptions.stream, static_cast<uint32_t>(stream_id));
    EXPECT_NE(g_exceptions.code, 0u);
    EXPECT_EQ(g_exceptions.code, static_cast<uint32_t>(ACL_ERROR_RT_SYS_DMA));  // a failed copy
  }
  // The failure is reported once; the failed copy wrote nothing.
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(out, std::vector<uint8_t>(kBytes, 0));
  // The device can be reset and used again (fewer than five tasks this time).
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
  EXPECT_EQ(ExceptionCalls(), 1);
  EXPECT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

TEST_F(AclNoInitTest, FailedSynchronousCopyReturnsAnError) {
  ResetExceptions();
  acltest::ScopedEnv env("ACLSIM_FAULT_FAIL_TASK", "1");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<uint8_t> in = acltest::Pattern(256, 23);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  acltest::ClearRecentErrors();
  EXPECT_NE(aclrtMemcpy(dev, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(acltest::RecentErrorNames("aclrtMemcpy"));
  EXPECT_EQ(ExceptionCalls(), 1);
  // Later copies work.
  std::vector<uint8_t> out(256, 0);
  ASSERT_ACL_OK(aclrtMemcpy(dev, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(out, in);
}

TEST_F(AclNoInitTest, ClearedExceptionCallbackIsNotCalled) {
  ResetExceptions();
  TempFile config(AclsimConfig("\"fault_fail_task\": 2"));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(OnException));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<uint8_t> a(64, 1), b(64, 2);
  ASSERT_ACL_OK(aclrtMemcpyAsync(b.data(), 64, a.data(), 64, ACL_MEMCPY_HOST_TO_HOST, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsync(b.data(), 64, a.data(), 64, ACL_MEMCPY_HOST_TO_HOST, nullptr));
  EXPECT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(ExceptionCalls(), 0);
}

TEST(ExceptionInfoTest, GettersOfNullInfoReturnAllOnesWithAMessage) {
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetTaskIdFromExceptionInfo);
  EXPECT_EQ(aclrtGetStreamIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetStreamIdFromExceptionInfo);
  EXPECT_EQ(aclrtGetThreadIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetThreadIdFromExceptionInfo);
  EXPECT_EQ(aclrtGetDeviceIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetDeviceIdFromExceptionInfo);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetErrorCodeFromExceptionInfo);
}

}  // namespace
