// Task failures: the failure handler, QueueState::error, SyncQueue's kTaskFailed, and the
// queue carrying on. Failures come from CompleteExternal with an error (interface) and from
// the backend option fault_fail_task (N: each device's task N fails instead of executing).
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class FailureTest : public DriverTest {};

// Records every failure; checks, from inside the handler, that the failure was already
// recorded on the queue ("called after the failure is recorded").
class FailureRecorder {
 public:
  explicit FailureRecorder(Device& device) : device_(device) {
    device.SetFailureHandler([this](const TaskFailure& failure) {
      const QueueState state = device_.QueryQueue(failure.queue);
      std::lock_guard<std::mutex> lock(mu_);
      failures_.push_back(failure);
      recorded_before_call_.push_back(!state.error.ok());
    });
  }
  std::vector<TaskFailure> failures() const {
    std::lock_guard<std::mutex> lock(mu_);
    return failures_;
  }
  std::vector<bool> recorded_before_call() const {
    std::lock_guard<std::mutex> lock(mu_);
    return recorded_before_call_;
  }

 private:
  Device& device_;
  mutable std::mutex mu_;
  std::vector<TaskFailure> failures_;
  std::vector<bool> recorded_before_call_;
};

TEST_P(FailureTest, ExternalCompletedWithErrorFailsTheTask) {
  FailureRecorder recorder(dev());
  QueueId q = NewQueue(dev());
  std::atomic<bool> after{false};
  SubmitOk(dev(), q, HostFuncTask([] {}));
  Blocker blocker(dev(), q);
  SubmitOk(dev(), q, HostFuncTask([&after] { after = true; }));
  blocker.Release(Status(StatusCode::kTaskFailed, "external work failed"));
  // The handler runs before waiters are woken: no waiting needed after SyncQueue.
  Status status = dev().SyncQueue(q, kSyncLimitMs);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed) << status.message();
  std::vector<TaskFailure> failures = recorder.failures();
  ASSERT_EQ(failures.size(), 1u);
  // "a failed task's Status carries the runtime error code in Status::detail()".
  EXPECT_NE(status.detail(), 0u);
  EXPECT_EQ(status.detail(), failures[0].error_code);
  EXPECT_EQ(failures[0].device_id, 0u);
  EXPECT_EQ(failures[0].queue, q);
  EXPECT_EQ(failures[0].task_id, blocker.task_id());
  EXPECT_NE(failures[0].error_code, 0u);
  EXPECT_EQ(recorder.recorded_before_call(), std::vector<bool>{true});
  // The queue carried on, and the failure is reported once.
  EXPECT_TRUE(after.load());
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
}

TEST_P(FailureTest, InjectedFaultIsReportedOnceAndTheQueueContinues) {
  auto driver = MakeDriver({{"fault_fail_task", "3"}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  FailureRecorder recorder(*device);
  QueueId q = NewQueue(*device);
  auto* d = static_cast<uint8_t*>(Alloc(*device, 3 * 4096));
  ASSERT_NE(d, nullptr);
  std::memset(d, 0, 3 * 4096);
  EXPECT_EQ(SubmitOk(*device, q, MemsetTask(d, 0x11, 4096)), 1u);
  EXPECT_EQ(SubmitOk(*device, q, HostFuncTask([] {})), 2u);
  EXPECT_EQ(SubmitOk(*device, q, MemsetTask(d + 4096, 0x33, 4096)), 3u);  // fails
  EXPECT_EQ(SubmitOk(*device, q, MemsetTask(d + 8192, 0x55, 4096)), 4u);

  Status status = device->SyncQueue(q, kSyncLimitMs);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed) << status.message();
  std::vector<TaskFailure> failures = recorder.failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(status.detail(), failures[0].error_code);
  EXPECT_EQ(failures[0].device_id, 0u);
  EXPECT_EQ(failures[0].queue, q);
  EXPECT_EQ(failures[0].task_id, 3u);
  EXPECT_NE(failures[0].error_code, 0u);
  EXPECT_EQ(recorder.recorded_before_call(), std::vector<bool>{true});
  EXPECT_EQ(d[0], 0x11);
  EXPECT_EQ(d[4096], 0x00) << "the failed task executed";
  EXPECT_EQ(d[8192], 0x55) << "the queue did not continue after the failure";

  // Reported once; later work is fine.
  ACLSIM_EXPECT_OK(device->SyncQueue(q, kSyncLimitMs));
  SubmitOk(*device, q, MemsetTask(d, 0x66, 4096));
  ACLSIM_EXPECT_OK(device->SyncQueue(q, kSyncLimitMs));
  EXPECT_EQ(d[0], 0x66);
  EXPECT_EQ(recorder.failures().size(), 1u);
}

TEST_P(FailureTest, QueueStateShowsTheErrorUntilASync) {
  auto driver = MakeDriver({{"fault_fail_task", "2"}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  FailureRecorder recorder(*device);
  QueueId q = NewQueue(*device);
  SubmitOk(*device, q, HostFuncTask([] {}));
  SubmitOk(*device, q, HostFuncTask([] {}));  // task 2 fails
  SubmitOk(*device, q, HostFuncTask([] {}));
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (!device->QueryQueue(q).idle && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  QueueState state = device->QueryQueue(q);
  ASSERT_TRUE(state.idle);
  EXPECT_EQ(state.error.code(), StatusCode::kTaskFailed);
  ACLSIM_EXPECT_CODE(device->SyncQueue(q, kSyncLimitMs), StatusCode::kTaskFailed);
  EXPECT_TRUE(device->QueryQueue(q).error.ok());
}

// The failing task id counts per device; the handler names the device.
TEST_P(FailureTest, InjectedFaultOnSecondDeviceNamesIt) {
  auto driver = MakeDriver({{"fault_fail_task", "2"}});
  ASSERT_NE(driver, nullptr);
  auto d1 = OpenDevice(*driver, 1);
  ASSERT_NE(d1, nullptr);
  FailureRecorder recorder(*d1);
  QueueId a = NewQueue(*d1);
  QueueId b = NewQueue(*d1);
  SubmitOk(*d1, a, HostFuncTask([] {}));
  const uint64_t failing = SubmitOk(*d1, b, HostFuncTask([] {}));
  ASSERT_EQ(failing, 2u);
  ACLSIM_EXPECT_OK(d1->SyncQueue(a, kSyncLimitMs));  // the failure is queue b's
  ACLSIM_EXPECT_CODE(d1->SyncQueue(b, kSyncLimitMs), StatusCode::kTaskFailed);
  std::vector<TaskFailure> failures = recorder.failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].device_id, 1u);
  EXPECT_EQ(failures[0].queue, b);
  EXPECT_EQ(failures[0].task_id, 2u);
}

// Only the first failure since the last successful wait is reported; the next wait is clean.
TEST_P(FailureTest, SeveralFailuresBeforeASyncAreReportedOnce) {
  FailureRecorder recorder(dev());
  QueueId q = NewQueue(dev());
  Blocker first(dev(), q);
  Blocker second(dev(), q);
  first.Release(Status(StatusCode::kTaskFailed, "first"));
  second.Release(Status(StatusCode::kTaskFailed, "second"));
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kSyncLimitMs), StatusCode::kTaskFailed);
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
  std::vector<TaskFailure> failures = recorder.failures();
  ASSERT_EQ(failures.size(), 2u);  // the handler hears of every failed task
  EXPECT_EQ(failures[0].task_id, first.task_id());
  EXPECT_EQ(failures[1].task_id, second.task_id());
}

// driver.h: "SyncDevice reports the first queue failure and clears the failures of all
// queues, so each failure is reported once".
TEST_P(FailureTest, SyncDeviceReportsAFailureOnceForAllQueues) {
  FailureRecorder recorder(dev());
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(dev());
  QueueId clean = NewQueue(dev());
  Blocker b0(dev(), q0);
  Blocker b1(dev(), q1);
  SubmitOk(dev(), clean, HostFuncTask([] {}));
  b0.Release(Status(StatusCode::kTaskFailed, "q0 failed"));
  b1.Release(Status(StatusCode::kTaskFailed, "q1 failed"));
  Status status = dev().SyncDevice(kSyncLimitMs);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed) << status.message();
  EXPECT_NE(status.detail(), 0u);
  EXPECT_EQ(recorder.failures().size(), 2u);
  // Cleared everywhere: no queue reports them again.
  ACLSIM_EXPECT_OK(dev().SyncQueue(q0, kSyncLimitMs));
  ACLSIM_EXPECT_OK(dev().SyncQueue(q1, kSyncLimitMs));
  ACLSIM_EXPECT_OK(dev().SyncQueue(clean, kSyncLimitMs));
  EXPECT_TRUE(dev().QueryQueue(q0).error.ok());
  EXPECT_TRUE(dev().QueryQueue(q1).error.ok());
  ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
}

// A failure already reported by SyncQueue is not reported again by SyncDevice.
TEST_P(FailureTest, FailureReportedBySyncQueueIsNotReportedBySyncDevice) {
  FailureRecorder recorder(dev());
  QueueId q = NewQueue(dev());
  Blocker blocker(dev(), q);
  blocker.Release(Status(StatusCode::kTaskFailed, "failed"));
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kSyncLimitMs), StatusCode::kTaskFailed);
  ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
}

// A failed record still completes: waits bound to it are released.
TEST_P(FailureTest, FailedTaskStillReleasesDependents) {
  FailureRecorder recorder(dev());
  QueueId q = NewQueue(dev());
  QueueId other = NewQueue(dev());
  EventId e = NewEvent(dev());
  Blocker blocker(dev(), q);
  SubmitOk(dev(), q, RecordTask(e));
  std::atomic<bool> ran{false};
  SubmitOk(dev(), other, WaitTask(e, 0));
  SubmitOk(dev(), other, HostFuncTask([&ran] { ran = true; }));
  blocker.Release(Status(StatusCode::kTaskFailed, "boom"));
  EXPECT_NE(dev().SyncQueue(other, kSyncLimitMs).code(), StatusCode::kStreamSyncTimeout);
  EXPECT_TRUE(ran.load());
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kSyncLimitMs), StatusCode::kTaskFailed);
}

ACLSIM_CONFORMANCE_SUITE(FailureTest);

}  // namespace
}  // namespace aclsim::driver::conformance
