// kExternal tasks: external_start once when ready, completion by CompleteExternal.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class ExternalTest : public DriverTest {};

struct StartLog {
  std::atomic<int> calls{0};
  std::atomic<uint64_t> id{0};
  std::atomic<bool> predecessor_done_at_start{false};
  Flag started;
};

Task ExternalTask(StartLog* log, const std::atomic<bool>* predecessor = nullptr) {
  Task t;
  t.kind = TaskKind::kExternal;
  t.label = "external";
  t.external_start = [log, predecessor](uint64_t id) {
    log->id = id;
    if (predecessor != nullptr) log->predecessor_done_at_start = predecessor->load();
    log->calls++;
    log->started.Set();
  };
  return t;
}

TEST_P(ExternalTest, StartIsCalledOnceWithTheTaskIdWhenReady) {
  QueueId q = NewQueue(dev());
  QueueId other = NewQueue(dev());
  EventId gate = NewEvent(dev());
  std::atomic<bool> predecessor{false};
  StartLog log;
  SubmitOk(dev(), q, WaitTask(gate, 0));
  SubmitOk(dev(), q, HostFuncTask([&predecessor] { predecessor = true; }));
  const uint64_t id = SubmitOk(dev(), q, ExternalTask(&log, &predecessor));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.calls.load(), 0) << "external_start called before the task was ready";

  SubmitOk(dev(), other, RecordTask(gate));
  ASSERT_TRUE(log.started.WaitFor());
  EXPECT_EQ(log.id.load(), id);
  EXPECT_TRUE(log.predecessor_done_at_start.load());
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.calls.load(), 1);
  EXPECT_FALSE(dev().QueryQueue(q).idle) << "the external task completed without CompleteExternal";

  dev().CompleteExternal(id, Status::Ok());
  SyncOk(dev(), q);
  EXPECT_EQ(log.calls.load(), 1);
}

TEST_P(ExternalTest, SuccessorsWaitForCompletionFromAnotherThread) {
  QueueId q = NewQueue(dev());
  QueueId other = NewQueue(dev());
  EventId after = NewEvent(dev());
  StartLog log;
  Log order;
  const uint64_t id = SubmitOk(dev(), q, ExternalTask(&log));
  SubmitOk(dev(), q, HostFuncTask([&order] { order.Add(2); }));
  SubmitOk(dev(), q, RecordTask(after));
  SubmitOk(dev(), other, WaitTask(after, 0));
  SubmitOk(dev(), other, HostFuncTask([&order] { order.Add(3); }));
  ASSERT_TRUE(log.started.WaitFor());
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(order.Size(), 0u) << "a successor ran before CompleteExternal";
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kShortTimeoutMs), StatusCode::kStreamSyncTimeout);

  std::thread completer([&] {
    order.Add(1);
    dev().CompleteExternal(id, Status::Ok());
  });
  completer.join();
  SyncOk(dev(), other);
  SyncOk(dev(), q);
  EXPECT_EQ(order.Get(), (std::vector<int>{1, 2, 3}));
}

// external_start hands the id to another agent that completes it at once, possibly while
// external_start is still returning.
TEST_P(ExternalTest, CompletionRacingWithStartIsHandled) {
  QueueId q = NewQueue(dev());
  constexpr int kTasks = 50;
  std::vector<std::thread> completers;
  std::mutex mu;
  std::atomic<int> after{0};
  for (int i = 0; i < kTasks; ++i) {
    Task t;
    t.kind = TaskKind::kExternal;
    t.external_start = [this, &completers, &mu](uint64_t id) {
      std::lock_guard<std::mutex> lock(mu);
      completers.emplace_back([this, id] { dev().CompleteExternal(id, Status::Ok()); });
    };
    SubmitOk(dev(), q, std::move(t));
    SubmitOk(dev(), q, HostFuncTask([&after] { after++; }));
  }
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
  EXPECT_EQ(after.load(), kTasks);
  std::lock_guard<std::mutex> lock(mu);
  for (auto& t : completers) t.join();
}

TEST_P(ExternalTest, ExternalTasksOnSeveralQueuesCompleteIndependently) {
  QueueId a = NewQueue(dev());
  QueueId b = NewQueue(dev());
  Blocker ba(dev(), a);
  Blocker bb(dev(), b);
  ASSERT_TRUE(ba.WaitStarted());
  ASSERT_TRUE(bb.WaitStarted());
  bb.Release();
  ACLSIM_EXPECT_OK(dev().SyncQueue(b, kSyncLimitMs));
  EXPECT_FALSE(dev().QueryQueue(a).idle);
  ba.Release();
  ACLSIM_EXPECT_OK(dev().SyncQueue(a, kSyncLimitMs));
}

// An external task may be completed from inside its own external_start (work that turns
// out to be done already); completing does not block.
TEST_P(ExternalTest, CompletionFromInsideStart) {
  QueueId q = NewQueue(dev());
  std::atomic<int> after{0};
  for (int i = 0; i < 20; ++i) {
    Task t;
    t.kind = TaskKind::kExternal;
    t.external_start = [this](uint64_t id) { dev().CompleteExternal(id, Status::Ok()); };
    SubmitOk(dev(), q, std::move(t));
    SubmitOk(dev(), q, HostFuncTask([&after] { after++; }));
  }
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
  EXPECT_EQ(after.load(), 20);
}

// A completion for an id that is not a live external task is ignored.
TEST_P(ExternalTest, CompleteExternalOfUnknownIdIsHarmless) {
  QueueId q = NewQueue(dev());
  const uint64_t id = SubmitOk(dev(), q, HostFuncTask([] {}));
  SyncOk(dev(), q);
  dev().CompleteExternal(id, Status::Ok());
  dev().CompleteExternal(987654321, Status::Ok());
  Blocker blocker(dev(), q);
  dev().CompleteExternal(blocker.task_id() + 1000, Status::Ok());
  std::this_thread::sleep_for(kSettle);
  EXPECT_FALSE(dev().QueryQueue(q).idle);
  blocker.Release();
  SyncOk(dev(), q);
  // Completing twice is ignored too.
  dev().CompleteExternal(blocker.task_id(), Status::Ok());
  SubmitOk(dev(), q, HostFuncTask([] {}));
  SyncOk(dev(), q);
}

ACLSIM_CONFORMANCE_SUITE(ExternalTest);

}  // namespace
}  // namespace aclsim::driver::conformance
