// Reliability, hangs at teardown: aclFinalize and aclrtResetDevice finish whatever the report
// threads do -- processing, waiting forever in aclrtProcessReport, or never calling it -- and
// deliver every pending callback (blocking ones included) exactly once (docs/errors.md,
// "Hostile input"). Each scenario runs under a watchdog: ACLSIM_WATCHDOG reports a stalled
// queue, and the test ends the process if the scenario does not finish in time.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

#include "api_test.h"

namespace {

constexpr int kCallbacks = 8;

// Runs `scenario` on a thread; the process ends (the test fails) if it has not returned in 60 s.
void WithinDeadline(const char* name, const std::function<void()>& scenario) {
  acltest::ScopedEnv watchdog("ACLSIM_WATCHDOG", "2");
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::thread runner([&] {
    scenario();
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(mu);
  if (!cv.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) {
    std::fprintf(stderr, "teardown scenario '%s' hung: ending the process\n", name);
    std::fflush(stderr);
    std::_Exit(3);
  }
  lock.unlock();
  runner.join();
}

struct Counter {
  std::atomic<int> runs{0};
  static void Bump(void* self) { static_cast<Counter*>(self)->runs.fetch_add(1); }
};

enum class Reporter { kPolling, kWaitingForever, kSilent };

// A stream held by a latch, kCallbacks blocking callbacks queued behind it, a report thread
// behaving as `reporter` says; then `teardown` while the callbacks are still pending.
void PendingCallbacksAtTeardown(Reporter reporter, bool reset_device_first) {
  Counter counter;
  std::atomic<bool> started{false};
  std::atomic<bool> subscribed{false};
  std::atomic<bool> stop{false};
  std::atomic<int> last_error{0};
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  std::thread report([&] {
    started.store(true);
    if (reporter == Reporter::kSilent) return;
    while (!subscribed.load()) std::this_thread::yield();
    while (!stop.load()) {
      const aclError err = aclrtProcessReport(reporter == Reporter::kPolling ? 50 : -1);
      if (err != ACL_SUCCESS && err != ACL_ERROR_WAIT_CALLBACK_TIMEOUT) {
        last_error.store(err);
        return;  // the runtime is gone: the thread ends
      }
    }
  });
  while (!started.load()) std::this_thread::yield();
  ASSERT_ACL_OK(aclrtSubscribeReport(static_cast<uint64_t>(report.native_handle()), stream));
  subscribed.store(true);
  acltest::Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, acltest::Latch::WaitFn, &latch));
  for (int i = 0; i < kCallbacks; ++i) {
    ASSERT_ACL_OK(aclrtLaunchCallback(
        Counter::Bump, &counter, i % 2 == 0 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream));
  }
  // Release the stream from another thread once teardown has begun.
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    latch.Release();
  });
  if (reset_device_first) {
    if (reporter != Reporter::kSilent) EXPECT_ACL_OK(aclrtResetDevice(0));
  }
  EXPECT_ACL_OK(aclFinalize());
  releaser.join();
  stop.store(true);
  report.join();
  EXPECT_EQ(counter.runs.load(), kCallbacks) << "every pending callback runs exactly once";
  if (reporter == Reporter::kWaitingForever) {
    EXPECT_EQ(last_error.load(), ACL_ERROR_UNINITIALIZE);
  }
}

TEST(ReliabilityTeardownTest, FinalizeDeliversCallbacksWhileTheReportThreadPolls) {
  WithinDeadline("polling", [] { PendingCallbacksAtTeardown(Reporter::kPolling, false); });
}

TEST(ReliabilityTeardownTest, FinalizeWakesAReportThreadWaitingForever) {
  WithinDeadline("waiting", [] { PendingCallbacksAtTeardown(Reporter::kWaitingForever, false); });
}

TEST(ReliabilityTeardownTest, FinalizeDeliversCallbacksNoReportThreadProcesses) {
  WithinDeadline("silent", [] { PendingCallbacksAtTeardown(Reporter::kSilent, false); });
}

TEST(ReliabilityTeardownTest, ResetDeviceThenFinalizeWithAReportThread) {
  WithinDeadline("reset", [] { PendingCallbacksAtTeardown(Reporter::kPolling, true); });
}

TEST(ReliabilityTeardownTest, ProcessReportAfterFinalizeFailsFast) {
  WithinDeadline("after", [] {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclFinalize());
    EXPECT_EQ(aclrtProcessReport(-1), ACL_ERROR_UNINITIALIZE);
  });
}

}  // namespace
