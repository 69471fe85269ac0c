// Stream priorities: when queued tasks of several queues contend for the same engine slots,
// the queue of higher priority (lower number) is granted them first; a started task is never
// preempted; equal priorities keep submission order. Against both backends.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using namespace aclsim::sim::testing;

class SimPriorityTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    driver_ = MakeBackend(GetParam());
    ASSERT_NE(driver_, nullptr);
    device_ = Open(*driver_);
    ASSERT_NE(device_, nullptr);
  }
  QueueId QueueWithPriority(int32_t priority) {
    driver::QueueConfig config;
    config.priority = priority;
    QueueId queue = 0;
    EXPECT_OK(device_->CreateQueue(config, &queue));
    return queue;
  }
  // A kernel that holds every AI Core for the same long time.
  Task WholeDeviceKernel() const {
    return Kernel(device_->props().aicore_num, 50'000'000'000ULL, 1 << 20);
  }
  // Submits `count` whole-device kernels to `queue`, records `first` after the first one (if
  // given) and `last` after the last one. (A record between two kernels leaves the cores
  // free for its own scheduling time, in which another queue's kernel may take them.)
  void SubmitKernels(QueueId queue, int count, driver::EventId last,
                     std::optional<driver::EventId> first = std::nullopt) {
    for (int i = 0; i < count; ++i) {
      SubmitOk(*device_, queue, WholeDeviceKernel());
      if (i == 0 && first) SubmitOk(*device_, queue, EventTask(TaskKind::kEventRecord, *first));
    }
    SubmitOk(*device_, queue, EventTask(TaskKind::kEventRecord, last));
  }
  uint64_t Stamp(driver::EventId event) {
    const auto state = device_->QueryEvent(event);
    EXPECT_TRUE(state.complete);
    return state.timestamp_ns;
  }

  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
};

TEST_P(SimPriorityTest, HigherPriorityQueueOvertakesQueuedKernels) {
  const QueueId low = QueueWithPriority(device_->props().stream_priority_least);
  const QueueId high = QueueWithPriority(device_->props().stream_priority_greatest);
  const driver::EventId low_first = NewEvent(*device_);
  const driver::EventId low_last = NewEvent(*device_);
  const driver::EventId high_last = NewEvent(*device_);
  SubmitKernels(low, 4, low_last, low_first);  // all submitted first ...
  SubmitKernels(high, 4, high_last);           // ... but these take the cores next
  ASSERT_OK(device_->SyncDevice(-1));
  // The first low-priority kernel had started: it is not preempted. Then the four
  // high-priority kernels run back to back (4 kernel times), then the other three
  // low-priority ones (3 kernel times).
  const double high_span = static_cast<double>(Stamp(high_last) - Stamp(low_first));
  const double low_rest = static_cast<double>(Stamp(low_last) - Stamp(high_last));
  EXPECT_LT(Stamp(low_first), Stamp(high_last));
  EXPECT_LT(Stamp(high_last), Stamp(low_last));
  EXPECT_NEAR(low_rest / high_span, 0.75, 0.02);
}

TEST_P(SimPriorityTest, EqualPrioritiesKeepSubmissionOrder) {
  const QueueId first = QueueWithPriority(3);
  const QueueId second = QueueWithPriority(3);
  const driver::EventId first_last = NewEvent(*device_);
  const driver::EventId second_first = NewEvent(*device_);
  const driver::EventId second_last = NewEvent(*device_);
  SubmitKernels(first, 4, first_last);
  SubmitKernels(second, 4, second_last, second_first);
  ASSERT_OK(device_->SyncDevice(-1));
  EXPECT_LT(Stamp(first_last), Stamp(second_first));
}

TEST_P(SimPriorityTest, LowerPriorityKernelUsesCoresTheOthersLeaveFree) {
  // Priority decides contention only: a low-priority kernel that fits beside the running
  // high-priority one starts at once.
  const QueueId low = QueueWithPriority(device_->props().stream_priority_least);
  const QueueId high = QueueWithPriority(device_->props().stream_priority_greatest);
  const uint32_t half = device_->props().aicore_num / 2;
  const driver::EventId start = NewEvent(*device_);
  const driver::EventId low_done = NewEvent(*device_);
  const driver::EventId high_done = NewEvent(*device_);
  SubmitOk(*device_, high, EventTask(TaskKind::kEventRecord, start));
  SubmitOk(*device_, high, Kernel(half, 50'000'000'000ULL, 1 << 20));
  SubmitOk(*device_, high, EventTask(TaskKind::kEventRecord, high_done));
  SubmitOk(*device_, low, Kernel(half, 50'000'000'000ULL, 1 << 20));
  SubmitOk(*device_, low, EventTask(TaskKind::kEventRecord, low_done));
  ASSERT_OK(device_->SyncDevice(-1));
  // Side by side: the low-priority one ends a little after (its later submission), far less
  // than a kernel time after.
  const uint64_t kernel_ns = Stamp(high_done) - Stamp(start);
  EXPECT_GE(Stamp(low_done), Stamp(high_done));
  EXPECT_LT(Stamp(low_done) - Stamp(high_done), kernel_ns / 10);
}

TEST_P(SimPriorityTest, PriorityDoesNotOvertakeAnEventWait) {
  // The high-priority queue waits for the low-priority queue's first kernel. The wait (and
  // the record it waits for) take their own scheduling time, in which the low-priority queue's
  // next kernel, already at its head, takes the cores; the high-priority kernel then goes
  // before the low-priority queue's third.
  const QueueId low = QueueWithPriority(device_->props().stream_priority_least);
  const QueueId high = QueueWithPriority(device_->props().stream_priority_greatest);
  const driver::EventId low_first = NewEvent(*device_);
  const driver::EventId low_last = NewEvent(*device_);
  const driver::EventId high_last = NewEvent(*device_);
  SubmitKernels(low, 3, low_last, low_first);
  SubmitOk(*device_, high, EventTask(TaskKind::kEventWait, low_first));
  SubmitOk(*device_, high, WholeDeviceKernel());
  SubmitOk(*device_, high, EventTask(TaskKind::kEventRecord, high_last));
  ASSERT_OK(device_->SyncDevice(-1));
  const double kernel_ns = static_cast<double>(Stamp(low_last) - Stamp(low_first)) / 3;
  EXPECT_NEAR(static_cast<double>(Stamp(high_last) - Stamp(low_first)), 2 * kernel_ns,
              0.02 * kernel_ns);
  EXPECT_NEAR(static_cast<double>(Stamp(low_last) - Stamp(high_last)), kernel_ns, 0.02 * kernel_ns);
}

TEST_P(SimPriorityTest, TimingIsTheSameOnBothBackendsAndAcrossRuns) {
  auto run = [](const std::string& backend) {
    auto driver = MakeBackend(backend);
    auto device = Open(*driver);
    std::vector<QueueId> queues;
    for (int32_t p : {7, 0, 3}) {
      driver::QueueConfig config;
      config.priority = p;
      QueueId q = 0;
      EXPECT_OK(device->CreateQueue(config, &q));
      queues.push_back(q);
    }
    std::vector<driver::EventId> events;
    for (int i = 0; i < 12; ++i) {
      const QueueId q = queues[static_cast<size_t>(i) % queues.size()];
      events.push_back(NewEvent(*device));
      SubmitOk(*device, q, Kernel(1 + static_cast<uint32_t>(i) * 3, 1'000'000'000ULL * i, 1 << 20));
      SubmitOk(*device, q, EventTask(TaskKind::kEventRecord, events.back()));
    }
    EXPECT_OK(device->SyncDevice(-1));
    std::vector<uint64_t> stamps;
    for (auto event : events) stamps.push_back(device->QueryEvent(event).timestamp_ns);
    return stamps;
  };
  const auto first = run(GetParam());
  EXPECT_EQ(first, run(GetParam()));
  EXPECT_EQ(first, run(GetParam() == "sim" ? "sim-inline" : "sim"));
}

INSTANTIATE_TEST_SUITE_P(Backends, SimPriorityTest, ::testing::Values("sim", "sim-inline"),
                         BackendParamName);

}  // namespace
}  // namespace aclsim::sim
