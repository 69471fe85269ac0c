// Notify counters (kSignal / kWaitSignal), wait timeouts (Task::wait_timeout_ms) and the op
// execute timeout (Task::exec_timeout_ns).
#include <atomic>

#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class NotifyTest : public DriverTest {
 protected:
  CounterId NewCounter() {
    CounterId id = 0;
    Status status = dev().CreateCounter(&id);
    EXPECT_TRUE(status.ok()) << status.message();
    return id;
  }
  static Task Signal(CounterId counter, SignalOp op, uint64_t value) {
    Task task;
    task.kind = TaskKind::kSignal;
    task.event = counter;
    task.signal_op = op;
    task.signal_value = value;
    return task;
  }
  static Task Wait(CounterId counter, WaitCmp cmp, uint64_t value, bool clear,
                   uint32_t timeout_ms = 0) {
    Task task;
    task.kind = TaskKind::kWaitSignal;
    task.event = counter;
    task.wait_cmp = cmp;
    task.signal_value = value;
    task.wait_clear = clear;
    task.wait_timeout_ms = timeout_ms;
    return task;
  }
};

TEST_P(NotifyTest, SignalsReleaseAWaitOnAnotherQueueInOrder) {
  QueueId waiter = NewQueue(dev());
  QueueId signaller = NewQueue(dev());
  CounterId counter = NewCounter();
  EventId after_wait = NewEvent(dev());
  EventId after_signals = NewEvent(dev());
  Log log;
  SubmitOk(dev(), waiter, Wait(counter, WaitCmp::kGreaterEq, 2, /*clear=*/true));
  SubmitOk(dev(), waiter, HostFuncTask([&log] { log.Add(3); }));
  SubmitOk(dev(), waiter, RecordTask(after_wait));
  SubmitOk(dev(), signaller, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), signaller, Signal(counter, SignalOp::kAdd, 1));
  SubmitOk(dev(), signaller, HostFuncTask([&log] { log.Add(2); }));
  SubmitOk(dev(), signaller, Signal(counter, SignalOp::kAdd, 1));
  SubmitOk(dev(), signaller, RecordTask(after_signals));
  SyncOk(dev(), waiter);
  SyncOk(dev(), signaller);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2, 3}));
  EXPECT_GE(Timestamp(dev(), after_wait), Timestamp(dev(), after_signals));
  // Cleared by the wait: a second wait times out.
  SubmitOk(dev(), waiter, Wait(counter, WaitCmp::kGreaterEq, 1, false, kShortTimeoutMs));
  Status status = dev().SyncQueue(waiter, kSyncLimitMs);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed) << status.message();
  EXPECT_EQ(status.detail(), kWaitTimeoutCode) << status.message();
  ACLSIM_EXPECT_OK(dev().DestroyCounter(counter));
}

TEST_P(NotifyTest, AnExpiredWaitFailsOnceAndTheQueueGoesOn) {
  QueueId q = NewQueue(dev());
  CounterId counter = NewCounter();
  EventId never = NewEvent(dev());
  std::atomic<int> ran{0};
  Task event_wait = WaitTask(never, 0);
  event_wait.wait_timeout_ms = kShortTimeoutMs;
  SubmitOk(dev(), q, std::move(event_wait));
  SubmitOk(dev(), q, Wait(counter, WaitCmp::kEq, 5, false, kShortTimeoutMs));
  SubmitOk(dev(), q, HostFuncTask([&ran] { ++ran; }));
  Status status = dev().SyncQueue(q, kSyncLimitMs);
  EXPECT_EQ(status.detail(), kWaitTimeoutCode) << status.message();
  EXPECT_EQ(ran.load(), 1);
  SyncOk(dev(), q);  // reported once
  // A late record and signal harm nothing; a wait that is satisfied in time passes.
  SubmitOk(dev(), q, RecordTask(never));
  SubmitOk(dev(), q, Signal(counter, SignalOp::kSet, 5));
  SubmitOk(dev(), q, Wait(counter, WaitCmp::kEq, 5, false, kSyncLimitMs));
  SyncOk(dev(), q);
}

TEST_P(NotifyTest, DestroyingACounterReleasesItsWaits) {
  QueueId q = NewQueue(dev());
  CounterId counter = NewCounter();
  SubmitOk(dev(), q, Wait(counter, WaitCmp::kEq, 1, false));
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kShortTimeoutMs), StatusCode::kStreamSyncTimeout);
  ACLSIM_EXPECT_OK(dev().DestroyCounter(counter));
  SyncOk(dev(), q);
  ACLSIM_EXPECT_CODE(dev().DestroyCounter(counter), StatusCode::kInvalidHandle);
  Task stale = Signal(counter, SignalOp::kSet, 1);
  uint64_t id = 0;
  ACLSIM_EXPECT_CODE(dev().Submit(q, std::move(stale), &id), StatusCode::kInvalidHandle);
}

TEST_P(NotifyTest, AKernelOverTheExecuteTimeoutFailsWithoutRunningAndLastsTheTimeout) {
  QueueId q = NewQueue(dev());
  EventId start = NewEvent(dev());
  EventId end = NewEvent(dev());
  std::atomic<bool> ran{false};
  Task kernel = KernelTask([&ran] { ran = true; });
  kernel.flops = uint64_t{1} << 50;  // far longer than the timeout
  kernel.exec_timeout_ns = 1'000'000;
  SubmitOk(dev(), q, RecordTask(start));
  SubmitOk(dev(), q, std::move(kernel));
  SubmitOk(dev(), q, RecordTask(end));
  Status status = dev().SyncQueue(q, kSyncLimitMs);
  EXPECT_EQ(status.detail(), 507014u) << status.message();  // ACL_ERROR_RT_AICORE_TIMEOUT
  EXPECT_FALSE(ran.load());
  const uint64_t elapsed = Timestamp(dev(), end) - Timestamp(dev(), start);
  EXPECT_GE(elapsed, 1'000'000u);
  EXPECT_LT(elapsed, 2'000'000u);
}

ACLSIM_CONFORMANCE_SUITE(NotifyTest);

}  // namespace
}  // namespace aclsim::driver::conformance
