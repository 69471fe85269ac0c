// Scheduling semantics: event waits across queues and devices, waits submitted before their
// record, resets, event state, against both backends.
#include <gtest/gtest.h>

#include <thread>

#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using namespace aclsim::sim::testing;

class SimSchedulerTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    driver_ = MakeBackend(GetParam(), {{"device_count", "2"}});
    ASSERT_NE(driver_, nullptr);
    device_ = Open(*driver_);
    ASSERT_NE(device_, nullptr);
  }
  // Spins until the external task has started; returns its id.
  static uint64_t AwaitStart(const std::atomic<uint64_t>& started) {
    while (started.load() == 0) std::this_thread::yield();
    return started.load();
  }
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
};

TEST_P(SimSchedulerTest, EventWaitOrdersAcrossQueues) {
  QueueId producer = NewQueue(*device_);
  QueueId consumer = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  std::atomic<uint64_t> started{0};
  std::atomic<int> produced{0};
  int observed = -1;
  SubmitOk(*device_, producer, External(&started));  // holds the producer back
  SubmitOk(*device_, producer, HostFunc([&] { produced = 1; }));
  SubmitOk(*device_, producer, EventTask(TaskKind::kEventRecord, event));
  SubmitOk(*device_, consumer, EventTask(TaskKind::kEventWait, event));
  SubmitOk(*device_, consumer, HostFunc([&] { observed = produced.load(); }));
  const uint64_t gate = AwaitStart(started);
  EXPECT_FALSE(device_->QueryQueue(consumer).idle);
  EXPECT_FALSE(device_->QueryEvent(event).complete);
  device_->CompleteExternal(gate, Status::Ok());
  ASSERT_OK(device_->SyncQueue(consumer, -1));
  EXPECT_EQ(observed, 1);
  EXPECT_TRUE(device_->QueryEvent(event).complete);
}

TEST_P(SimSchedulerTest, WaitSubmittedBeforeAnyRecordResolvesWhenTheRecordArrives) {
  QueueId waiter = NewQueue(*device_);
  QueueId recorder = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  driver::EventId after = NewEvent(*device_);
  std::atomic<int> ran{0};
  SubmitOk(*device_, waiter, EventTask(TaskKind::kEventWait, event));
  SubmitOk(*device_, waiter, HostFunc([&] { ran = 1; }));
  SubmitOk(*device_, waiter, EventTask(TaskKind::kEventRecord, after));
  // Nothing can run or be timed before the record is submitted.
  ASSERT_OK(device_->SyncQueue(recorder, -1));
  EXPECT_EQ(ran.load(), 0);
  EXPECT_FALSE(device_->QueryQueue(waiter).idle);
  auto state = device_->QueryEvent(after);
  EXPECT_TRUE(state.recorded);
  EXPECT_FALSE(state.complete);

  SubmitOk(*device_, recorder, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device_->SyncEvent(after, -1));
  EXPECT_EQ(ran.load(), 1);
  const auto first = device_->QueryEvent(event);
  const auto second = device_->QueryEvent(after);
  ASSERT_TRUE(first.complete && second.complete);
  EXPECT_GT(second.timestamp_ns, first.timestamp_ns);
  EXPECT_EQ(device_->HostClockNs(), second.timestamp_ns);  // SyncEvent advanced the clock
}

TEST_P(SimSchedulerTest, WaitAfterResetWaitsForTheNextRecord) {
  QueueId a = NewQueue(*device_);
  QueueId b = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  driver::EventId done = NewEvent(*device_);
  SubmitOk(*device_, a, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device_->SyncQueue(a, -1));
  SubmitOk(*device_, a, EventTask(TaskKind::kEventReset, event));
  EXPECT_FALSE(device_->QueryEvent(event).recorded);
  SubmitOk(*device_, b, EventTask(TaskKind::kEventWait, event));
  SubmitOk(*device_, b, EventTask(TaskKind::kEventRecord, done));
  ASSERT_OK(device_->SyncQueue(a, -1));
  EXPECT_FALSE(device_->QueryEvent(done).complete);  // the old record does not count
  SubmitOk(*device_, a, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device_->SyncQueue(b, -1));
  EXPECT_TRUE(device_->QueryEvent(done).complete);
}

TEST_P(SimSchedulerTest, WaitBindsToTheLatestRecordSubmittedBeforeIt) {
  QueueId a = NewQueue(*device_);
  QueueId b = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  driver::EventId done = NewEvent(*device_);
  SubmitOk(*device_, a, EventTask(TaskKind::kEventRecord, event));
  SubmitOk(*device_, b, EventTask(TaskKind::kEventWait, event));
  SubmitOk(*device_, b, EventTask(TaskKind::kEventRecord, done));
  // A later record (held back by an external task) must not delay the earlier wait.
  std::atomic<uint64_t> started{0};
  SubmitOk(*device_, a, External(&started));
  SubmitOk(*device_, a, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device_->SyncQueue(b, -1));
  EXPECT_TRUE(device_->QueryEvent(done).complete);
  device_->CompleteExternal(AwaitStart(started), Status::Ok());
  ASSERT_OK(device_->SyncQueue(a, -1));
}

TEST_P(SimSchedulerTest, EventStateBeforeAndAfterRecording) {
  QueueId q = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  auto fresh = device_->QueryEvent(event);
  EXPECT_FALSE(fresh.recorded);
  EXPECT_TRUE(fresh.complete);
  ASSERT_OK(device_->SyncEvent(event, 10));  // nothing to wait for
  SubmitOk(*device_, q, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device_->SyncEvent(event, -1));
  auto recorded = device_->QueryEvent(event);
  EXPECT_TRUE(recorded.recorded);
  EXPECT_TRUE(recorded.complete);
  EXPECT_GT(recorded.timestamp_ns, 0u);
}

TEST_P(SimSchedulerTest, CrossDeviceWaitOrdersWork) {
  auto other = Open(*driver_, 1);
  ASSERT_NE(other, nullptr);
  QueueId q0 = NewQueue(*device_);
  QueueId q1 = NewQueue(*other);
  driver::EventId event = NewEvent(*device_);
  std::atomic<uint64_t> started{0};
  std::atomic<int> produced{0};
  int observed = -1;
  SubmitOk(*device_, q0, External(&started));
  SubmitOk(*device_, q0, HostFunc([&] { produced = 1; }));
  SubmitOk(*device_, q0, EventTask(TaskKind::kEventRecord, event));
  SubmitOk(*other, q1, EventTask(TaskKind::kEventWait, event, /*event_device=*/0));
  SubmitOk(*other, q1, HostFunc([&] { observed = produced.load(); }));
  const uint64_t gate = AwaitStart(started);
  EXPECT_FALSE(other->QueryQueue(q1).idle);
  device_->CompleteExternal(gate, Status::Ok());
  ASSERT_OK(other->SyncQueue(q1, -1));
  EXPECT_EQ(observed, 1);
  // A wait naming a device that is not open is refused.
  EXPECT_EQ(other->Submit(q1, EventTask(TaskKind::kEventWait, event, 5), nullptr).code(),
            StatusCode::kInvalidDevice);
}

TEST_P(SimSchedulerTest, DestroyingAnEventReleasesWaitsForItsFirstRecord) {
  QueueId q = NewQueue(*device_);
  driver::EventId event = NewEvent(*device_);
  std::atomic<int> ran{0};
  SubmitOk(*device_, q, EventTask(TaskKind::kEventWait, event));
  SubmitOk(*device_, q, HostFunc([&] { ran = 1; }));
  EXPECT_FALSE(device_->QueryQueue(q).idle);
  ASSERT_OK(device_->DestroyEvent(event));
  ASSERT_OK(device_->SyncQueue(q, -1));
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(SimSchedulerTest, UnknownHandlesAreRefused) {
  QueueId q = NewQueue(*device_);
  EXPECT_EQ(device_->Submit(q + 100, HostFunc([] {}), nullptr).code(), StatusCode::kInvalidHandle);
  EXPECT_EQ(device_->Submit(q, EventTask(TaskKind::kEventRecord, 77), nullptr).code(),
            StatusCode::kInvalidHandle);
  EXPECT_EQ(device_->SyncQueue(q + 100, -1).code(), StatusCode::kInvalidHandle);
  EXPECT_EQ(device_->DestroyEvent(77).code(), StatusCode::kInvalidHandle);
  EXPECT_EQ(device_->DestroyQueue(q + 100, false).code(), StatusCode::kInvalidHandle);
  Task external;
  external.kind = TaskKind::kExternal;  // no external_start
  EXPECT_EQ(device_->Submit(q, std::move(external), nullptr).code(), StatusCode::kInvalidParam);
  EXPECT_EQ(device_->QueryQueue(q).last_task_id, 0u);  // refused tasks take no id
}

INSTANTIATE_TEST_SUITE_P(Backends, SimSchedulerTest, ::testing::Values("sim", "sim-inline"),
                         BackendParamName);

}  // namespace
}  // namespace aclsim::sim
