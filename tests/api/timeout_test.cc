// Timeouts and hangs (issue 8): the blocking calls with a timeout honour it whatever blocks
// them (a blocking callback, a host function, a wait on an event nobody records), from several
// threads at once, with a message naming what blocks; and the watchdog (ACLSIM_WATCHDOG or
// aclInit {"aclsim": {"watchdog": "<seconds>"}}) logs at ERROR what a synchronisation that
// never completes waits for, with the stream and task ids, instead of hanging silently.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::Latch;
using acltest::ReportThread;
using acltest::ScopedEnv;
using acltest::TempFile;

class TimeoutTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateStream(&other_));
    ASSERT_ACL_OK(aclrtCreateEvent(&event_));
    acltest::ClearRecentErrors();
  }
  aclrtStream stream_ = nullptr;
  aclrtStream other_ = nullptr;
  aclrtEvent event_ = nullptr;
};

// Issue 8's acceptance case: a blocking callback outlasts a 50 ms stream synchronisation.
TEST_F(TimeoutTest, BlockingCallbackOutlastsA50msStreamSyncTimeout) {
  ReportThread reporter;
  ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), stream_));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchCallback(Latch::WaitFn, &latch, ACL_CALLBACK_BLOCK, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout, stream_, 50);
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 10000));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), stream_));
}

// A stream waiting for an event nobody records: each timeout variant returns its timeout
// code, and the message says what the stream waits for.
TEST_F(TimeoutTest, EveryTimeoutVariantExpiresOnAWaitForAnUnrecordedEvent) {
  aclrtEvent done = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&done));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, event_));
  ASSERT_ACL_OK(aclrtRecordEvent(done, stream_));
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream_, &stream_id));

  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  const std::string message = acltest::TakeRecentErrors();
  EXPECT_NE(message.find("stream " + std::to_string(stream_id) + " task"), std::string::npos)
      << message;
  EXPECT_NE(message.find("has not been recorded"), std::string::npos) << message;

  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout, done, 20);
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout, 20);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtStreamQuery(stream_, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  // Recording the event releases the wait; every variant then succeeds.
  ASSERT_ACL_OK(aclrtRecordEvent(event_, other_));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(done, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(10000));
  EXPECT_ACL_OK(aclrtDestroyEvent(done));
}

// An event whose record is queued behind a wait on another stream's event: the timeout
// message follows the chain to the stream that blocks it.
TEST_F(TimeoutTest, EventSyncTimeoutNamesTheStreamThatBlocksTheRecord) {
  aclrtEvent gate = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&gate));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(other_, Latch::WaitFn, &latch));
  ASSERT_ACL_OK(aclrtRecordEvent(gate, other_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event_, stream_));
  int32_t other_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(other_, &other_id));
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event_, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  const std::string message = acltest::TakeRecentErrors();
  EXPECT_NE(message.find("stream " + std::to_string(other_id) + " task"), std::string::npos)
      << message;
  EXPECT_NE(message.find("host function"), std::string::npos) << message;
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event_, 10000));
  EXPECT_ACL_OK(aclrtDestroyEvent(gate));
}

// Several threads time out on the same blocked stream at once, while another thread's stream
// keeps working; after the release every thread's sync succeeds.
TEST_F(TimeoutTest, ConcurrentTimedSyncsAllExpireAndThenAllSucceed) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Latch::WaitFn, &latch));
  std::atomic<int> timeouts{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++wrong;
      const aclError err = aclrtSynchronizeStreamWithTimeout(stream_, 30);
      if (err == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
        ++timeouts;
      } else {
        ++wrong;
      }
    });
  }
  std::thread worker([&] {
    if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++wrong;
    void* dev = nullptr;
    if (aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      ++wrong;
      return;
    }
    for (int round = 0; round < 20; ++round) {
      if (aclrtMemsetAsync(dev, 4096, round, 4096, other_) != ACL_SUCCESS ||
          aclrtSynchronizeStreamWithTimeout(other_, 10000) != ACL_SUCCESS) {
        ++wrong;
      }
    }
    if (aclrtFree(dev) != ACL_SUCCESS) ++wrong;
  });
  for (auto& thread : threads) thread.join();
  worker.join();
  EXPECT_EQ(timeouts.load(), 4);
  EXPECT_EQ(wrong.load(), 0);
  latch.Release();
  threads.clear();
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      if (aclrtSynchronizeStreamWithTimeout(stream_, 10000) != ACL_SUCCESS) ++wrong;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// aclrtProcessReport's timeout while a blocking callback of another stream runs on another
// report thread: this thread's wait expires on its own.
TEST_F(TimeoutTest, ProcessReportTimesOutWhileAnotherReportThreadIsBusy) {
  ReportThread busy;
  ASSERT_ACL_OK(aclrtSubscribeReport(busy.id(), other_));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchCallback(Latch::WaitFn, &latch, ACL_CALLBACK_BLOCK, other_));
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  ASSERT_ACL_OK(aclrtSubscribeReport(self, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, aclrtProcessReport, 20);
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(other_, 10000));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(self, stream_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(busy.id(), other_));
}

// --- watchdog -----------------------------------------------------------------------------

// This process's log files, where the runtime writes them (the log configuration is read
// once per process: ASCEND_PROCESS_LOG_PATH, else $ASCEND_WORK_PATH/log, else
// $HOME/ascend/log; ctest sets the first), searched for a line.
class ProcessLogs {
 public:
  ProcessLogs() {
    if (const char* dir = getenv("ASCEND_PROCESS_LOG_PATH"); dir != nullptr && *dir != '\0') {
      root_ = dir;
    } else if (const char* work = getenv("ASCEND_WORK_PATH"); work != nullptr && *work != '\0') {
      root_ = std::string(work) + "/log";
    } else if (const char* home = getenv("HOME"); home != nullptr) {
      root_ = std::string(home) + "/ascend/log";
    }
    prefix_ = "plog-" + std::to_string(getpid()) + "_";
  }
  const std::string& root() const { return root_; }
  // The first line of this process's logs containing every one of `needles`, or "".
  std::string Find(const std::vector<std::string>& needles) const {
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root_, ec)) {
      if (!entry.is_regular_file(ec)) continue;
      if (entry.path().filename().string().rfind(prefix_, 0) != 0) continue;
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        bool all = true;
        for (const auto& needle : needles) all = all && line.find(needle) != std::string::npos;
        if (all) return line;
      }
    }
    return "";
  }
  // Waits (bounded, generously) for such a line.
  std::string WaitFor(const std::vector<std::string>& needles) const {
    for (int i = 0; i < 600; ++i) {
      std::string line = Find(needles);
      if (!line.empty()) return line;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "";
  }

 private:
  std::string root_;
  std::string prefix_;
};

// Initialises the runtime with the watchdog at 0.1 s, from the environment or the JSON.
void InitWithWatchdog(const char* how) {
  unsetenv("ASCEND_LOG_PRINT_TO_STDOUT");  // the tests read the log files
  unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  if (std::string(how) == "env") {
    setenv("ACLSIM_WATCHDOG", "0.1", 1);
    ASSERT_ACL_OK(aclInit(nullptr));
  } else {
    TempFile config(AclsimConfig("\"watchdog\": \"0.1\""));
    ASSERT_ACL_OK(aclInit(config.path()));
  }
  ASSERT_ACL_OK(aclrtSetDevice(0));
}

TEST_F(AclNoInitTest, WatchdogReportsASyncBlockedOnAnEventThatIsNeverRecorded) {
  const ProcessLogs logs;
  ASSERT_NO_FATAL_FAILURE(InitWithWatchdog("json"));
  aclrtStream stream = nullptr, other = nullptr;
  aclrtEvent never = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  ASSERT_ACL_OK(aclrtCreateEvent(&never));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, never));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev, 4096, 1, 4096, stream));
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &stream_id));
  std::thread syncer([stream] { EXPECT_ACL_OK(aclrtSynchronizeStream(stream)); });
  const std::string line = logs.WaitFor({"[ERROR]", "watchdog", "stream synchronisation",
                                         "stream " + std::to_string(stream_id) + " task",
                                         "aclrtStreamWaitEvent", "has not been recorded"});
  EXPECT_FALSE(line.empty()) << "no watchdog report in " << logs.root();
  // The report does not end the wait: recording the event does.
  ASSERT_ACL_OK(aclrtRecordEvent(never, other));
  syncer.join();
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyEvent(never));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyStream(other));
}

TEST_F(AclNoInitTest, WatchdogFromTheEnvironmentReportsABlockedDeviceSyncAndStreamDestroy) {
  const ProcessLogs logs;
  ScopedEnv restore("ACLSIM_WATCHDOG", nullptr);
  ASSERT_NO_FATAL_FAILURE(InitWithWatchdog("env"));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &stream_id));
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, Latch::WaitFn, &latch));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  std::thread syncer([context] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
  });
  EXPECT_FALSE(logs.WaitFor({"watchdog", "device synchronisation",
                             "stream " + std::to_string(stream_id) + " task",
                             "host function or callback that has not returned"})
                   .empty())
      << "no watchdog report in " << logs.root();
  std::thread destroyer([stream] { EXPECT_ACL_OK(aclrtDestroyStream(stream)); });
  EXPECT_FALSE(logs.WaitFor({"watchdog", "destroying a stream",
                             "stream " + std::to_string(stream_id) + " task"})
                   .empty())
      << "no watchdog report in " << logs.root();
  latch.Release();
  syncer.join();
  destroyer.join();
}

TEST_F(AclNoInitTest, WatchdogWithAnInvalidPeriodIsAParseError) {
  for (const char* value : {"\"-1\"", "\"soon\"", "\"1e9\"", "\"\""}) {
    TempFile config(AclsimConfig(std::string("\"watchdog\": ") + value));
    EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, config.path());
  }
  TempFile off(AclsimConfig("\"watchdog\": 0"));
  EXPECT_ACL_OK(aclInit(off.path()));
}

}  // namespace
