// Hardware queues: lifetime, limits, task ids, ordering, queries, waits, destruction.
#include <algorithm>

#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class QueueTest : public DriverTest {};

TEST_P(QueueTest, CreateAndDestroy) {
  std::vector<QueueId> queues;
  for (int i = 0; i < 8; ++i) queues.push_back(NewQueue(dev()));
  for (size_t i = 0; i < queues.size(); ++i) {
    for (size_t j = i + 1; j < queues.size(); ++j) EXPECT_NE(queues[i], queues[j]);
  }
  for (QueueId q : queues) ACLSIM_EXPECT_OK(dev().DestroyQueue(q, false));
}

TEST_P(QueueTest, DestroyedQueueIsRefused) {
  QueueId q = NewQueue(dev());
  ACLSIM_ASSERT_OK(dev().DestroyQueue(q, false));
  EXPECT_FALSE(dev().DestroyQueue(q, false).ok());
  uint64_t id = 0;
  EXPECT_FALSE(dev().Submit(q, HostFuncTask([] {}), &id).ok());
}

TEST_P(QueueTest, QueueLimitIsNoStreamResource) {
  const uint32_t limit = dev().props().max_streams;
  std::vector<QueueId> queues;
  for (uint32_t i = 0; i < limit; ++i) {
    QueueId q = 0;
    Status status = dev().CreateQueue({}, &q);
    ASSERT_TRUE(status.ok()) << "queue " << i << " of " << limit << ": " << status.message();
    queues.push_back(q);
  }
  QueueId extra = 0;
  ACLSIM_EXPECT_CODE(dev().CreateQueue({}, &extra), StatusCode::kNoStreamResource);
  // Destroying one makes room for one.
  ACLSIM_ASSERT_OK(dev().DestroyQueue(queues.back(), false));
  queues.pop_back();
  ACLSIM_EXPECT_OK(dev().CreateQueue({}, &extra));
  ACLSIM_EXPECT_CODE(dev().CreateQueue({}, &extra), StatusCode::kNoStreamResource);
}

TEST_P(QueueTest, QueueLimitIsPerDevice) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  const uint32_t limit = dev().props().max_streams;
  for (uint32_t i = 0; i < limit; ++i) {
    QueueId q = 0;
    ACLSIM_ASSERT_OK(dev().CreateQueue({}, &q));
  }
  QueueId q = 0;
  ACLSIM_EXPECT_OK(d1->CreateQueue({}, &q));
}

TEST_P(QueueTest, PrioritiesInTheAdvertisedRangeAreAccepted) {
  for (int32_t p = dev().props().stream_priority_greatest; p <= dev().props().stream_priority_least;
       ++p) {
    QueueConfig config;
    config.priority = p;
    QueueId q = 0;
    ACLSIM_ASSERT_OK(dev().CreateQueue(config, &q));
    SubmitOk(dev(), q, HostFuncTask([] {}));
    SyncOk(dev(), q);
  }
}

TEST_P(QueueTest, TaskIdsStartAtOneAndIncrease) {
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(dev());
  std::vector<uint64_t> ids;
  for (int i = 0; i < 20; ++i)
    ids.push_back(SubmitOk(dev(), i % 3 == 0 ? q1 : q0, HostFuncTask([] {})));
  EXPECT_EQ(ids.front(), 1u);
  for (size_t i = 1; i < ids.size(); ++i) EXPECT_GT(ids[i], ids[i - 1]);
  SyncOk(dev(), q0);
  SyncOk(dev(), q1);
  // Ids are never reused on a device, also after the queue that used them is gone.
  ACLSIM_ASSERT_OK(dev().DestroyQueue(q1, false));
  QueueId q2 = NewQueue(dev());
  EXPECT_GT(SubmitOk(dev(), q2, HostFuncTask([] {})), ids.back());
  SyncOk(dev(), q2);
}

TEST_P(QueueTest, TaskIdsArePerDevice) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(*d1);
  EXPECT_EQ(SubmitOk(dev(), q0, HostFuncTask([] {})), 1u);
  EXPECT_EQ(SubmitOk(dev(), q0, HostFuncTask([] {})), 2u);
  EXPECT_EQ(SubmitOk(*d1, q1, HostFuncTask([] {})), 1u);
  SyncOk(dev(), q0);
  SyncOk(*d1, q1);
}

TEST_P(QueueTest, TasksRunInSubmissionOrder) {
  QueueId q = NewQueue(dev());
  Log log;
  // Held first, so that the whole backlog is queued before anything runs.
  Blocker blocker(dev(), q);
  constexpr int kTasks = 300;
  for (int i = 0; i < kTasks; ++i) SubmitOk(dev(), q, HostFuncTask([&log, i] { log.Add(i); }));
  blocker.Release();
  SyncOk(dev(), q);
  std::vector<int> expected(kTasks);
  for (int i = 0; i < kTasks; ++i) expected[i] = i;
  EXPECT_EQ(log.Get(), expected);
}

TEST_P(QueueTest, QueuesKeepTheirOwnOrderWhenInterleaved) {
  constexpr int kQueues = 4;
  constexpr int kTasks = 100;
  QueueId queues[kQueues];
  Log logs[kQueues];
  for (QueueId& q : queues) q = NewQueue(dev());
  for (int i = 0; i < kTasks; ++i) {
    for (int k = 0; k < kQueues; ++k) {
      Log* log = &logs[k];
      SubmitOk(dev(), queues[k], HostFuncTask([log, i] { log->Add(i); }));
    }
  }
  for (QueueId q : queues) SyncOk(dev(), q);
  std::vector<int> expected(kTasks);
  for (int i = 0; i < kTasks; ++i) expected[i] = i;
  for (const Log& log : logs) EXPECT_EQ(log.Get(), expected);
}

// Copies that overwrite one device buffer, each read back before the next: only queue order
// makes every read-back see its own round's data.
TEST_P(QueueTest, CopiesThatOverwriteEachOtherRunInOrder) {
  constexpr size_t kBytes = 64 * kKiB;
  constexpr int kRounds = 24;
  QueueId q = NewQueue(dev());
  void* dbuf = Alloc(dev(), kBytes);
  void* dbuf2 = Alloc(dev(), kBytes);
  ASSERT_NE(dbuf, nullptr);
  ASSERT_NE(dbuf2, nullptr);
  std::vector<std::vector<uint8_t>> src;
  std::vector<std::vector<uint8_t>> out(kRounds, std::vector<uint8_t>(kBytes, 0));
  std::vector<std::vector<uint8_t>> fill(kRounds, std::vector<uint8_t>(kBytes, 0));
  for (int r = 0; r < kRounds; ++r) src.push_back(Pattern(kBytes, r));
  Blocker blocker(dev(), q);
  for (int r = 0; r < kRounds; ++r) {
    SubmitOk(dev(), q, CopyTask(dbuf, src[r].data(), kBytes, CopyDir::kHostToDevice));
    SubmitOk(dev(), q, CopyTask(dbuf2, dbuf, kBytes, CopyDir::kDeviceToDevice));
    SubmitOk(dev(), q, MemsetTask(dbuf, r, kBytes));
    SubmitOk(dev(), q, CopyTask(out[r].data(), dbuf2, kBytes, CopyDir::kDeviceToHost));
    SubmitOk(dev(), q, CopyTask(fill[r].data(), dbuf, kBytes, CopyDir::kDeviceToHost));
  }
  blocker.Release();
  SyncOk(dev(), q);
  for (int r = 0; r < kRounds; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(out[r], src[r]);
    EXPECT_EQ(fill[r], std::vector<uint8_t>(kBytes, static_cast<uint8_t>(r)));
  }
}

// A long backlog held behind a wait is released at once and still runs in order.
TEST_P(QueueTest, LongBacklogRunsInOrder) {
  QueueId q = NewQueue(dev());
  QueueId other = NewQueue(dev());
  EventId go = NewEvent(dev());
  constexpr int kTasks = 20000;
  std::vector<int> seen;
  seen.reserve(kTasks);
  std::atomic<bool> in_order{true};
  SubmitOk(dev(), q, WaitTask(go, 0));
  for (int i = 0; i < kTasks; ++i) {
    // Queue order serialises the bodies; the atomic only reports the result.
    SubmitOk(dev(), q, HostFuncTask([&seen, &in_order, i] {
               if (static_cast<int>(seen.size()) != i) in_order = false;
               seen.push_back(i);
             }));
  }
  SubmitOk(dev(), other, RecordTask(go));
  SyncOk(dev(), q);
  EXPECT_TRUE(in_order.load());
  EXPECT_EQ(seen.size(), static_cast<size_t>(kTasks));
}

TEST_P(QueueTest, KernelWithoutBodyCompletes) {
  QueueId q = NewQueue(dev());
  Task t = KernelTask({}, 24);
  t.flops = 1'000'000;
  SubmitOk(dev(), q, std::move(t));
  SubmitOk(dev(), q, KernelTask({}, 1));
  SyncOk(dev(), q);
}

TEST_P(QueueTest, KernelBodiesRunInQueueOrder) {
  QueueId q = NewQueue(dev());
  constexpr size_t kBytes = 4096;
  auto* dbuf = static_cast<uint8_t*>(Alloc(dev(), kBytes));
  ASSERT_NE(dbuf, nullptr);
  std::vector<uint8_t> in = Pattern(kBytes, 9);
  std::vector<uint8_t> out(kBytes);
  SubmitOk(dev(), q, CopyTask(dbuf, in.data(), kBytes, CopyDir::kHostToDevice));
  SubmitOk(dev(), q,
           KernelTask(
               [dbuf] {
                 for (size_t i = 0; i < kBytes; ++i)
                   dbuf[i] = static_cast<uint8_t>(dbuf[i] * 3 + 1);
               },
               8));
  SubmitOk(dev(), q, CopyTask(out.data(), dbuf, kBytes, CopyDir::kDeviceToHost));
  SyncOk(dev(), q);
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(out[i], static_cast<uint8_t>(in[i] * 3 + 1)) << i;
}

TEST_P(QueueTest, QueryQueueReportsIdleAndLastTask) {
  QueueId q = NewQueue(dev());
  QueueState state = dev().QueryQueue(q);
  EXPECT_TRUE(state.idle);
  EXPECT_EQ(state.last_task_id, 0u);
  EXPECT_TRUE(state.error.ok());

  Blocker blocker(dev(), q);
  uint64_t after = SubmitOk(dev(), q, HostFuncTask([] {}));
  state = dev().QueryQueue(q);
  EXPECT_FALSE(state.idle);
  EXPECT_EQ(state.last_task_id, after);
  blocker.Release();
  SyncOk(dev(), q);
  state = dev().QueryQueue(q);
  EXPECT_TRUE(state.idle);
  EXPECT_EQ(state.last_task_id, after);
  EXPECT_TRUE(state.error.ok());
}

// A polling host sees progress without any Sync call.
TEST_P(QueueTest, QueryQueueBecomesIdleWithoutSync) {
  QueueId q = NewQueue(dev());
  std::vector<uint8_t> a(256 * kKiB, 1);
  void* d = Alloc(dev(), a.size());
  SubmitOk(dev(), q, CopyTask(d, a.data(), a.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), q, HostFuncTask([] {}));
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (!dev().QueryQueue(q).idle && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(dev().QueryQueue(q).idle);
}

TEST_P(QueueTest, SyncQueueOfEmptyQueueReturnsAtOnce) {
  QueueId q = NewQueue(dev());
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, -1));
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, 0));
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, 1));
}

TEST_P(QueueTest, SyncQueueTimesOutOnABlockedHostFunc) {
  QueueId q = NewQueue(dev());
  HeldHostFunc held(dev(), q);
  ASSERT_TRUE(held.WaitEntered());
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kShortTimeoutMs), StatusCode::kStreamSyncTimeout);
  EXPECT_FALSE(dev().QueryQueue(q).idle);
  held.Open();
  ACLSIM_EXPECT_OK(held.submit_status());
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
}

TEST_P(QueueTest, SyncQueueTimesOutOnAHeldExternalTask) {
  QueueId q = NewQueue(dev());
  Blocker blocker(dev(), q);
  ACLSIM_EXPECT_CODE(dev().SyncQueue(q, kShortTimeoutMs), StatusCode::kStreamSyncTimeout);
  blocker.Release();
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
}

// timeout_ms 0 and -1 wait forever (driver.h, WaitsForever).
TEST_P(QueueTest, SyncQueueWithZeroOrNegativeTimeoutWaitsForever) {
  for (int32_t timeout : {0, -1}) {
    SCOPED_TRACE(timeout);
    QueueId q = NewQueue(dev());
    Blocker blocker(dev(), q);
    std::atomic<bool> after{false};
    SubmitOk(dev(), q, HostFuncTask([&after] { after = true; }));
    blocker.ReleaseLater(std::chrono::milliseconds(80));
    ACLSIM_EXPECT_OK(dev().SyncQueue(q, timeout));
    EXPECT_TRUE(after.load());
    blocker.Join();
  }
}

// SyncQueue waits for the tasks submitted before it, not for later ones (from other threads).
TEST_P(QueueTest, SyncQueueCoversEverythingSubmittedBefore) {
  QueueId q = NewQueue(dev());
  Blocker blocker(dev(), q);
  std::atomic<int> done{0};
  for (int i = 0; i < 10; ++i) SubmitOk(dev(), q, HostFuncTask([&done] { done++; }));
  blocker.ReleaseLater(std::chrono::milliseconds(20));
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
  EXPECT_EQ(done.load(), 10);
  EXPECT_TRUE(dev().QueryQueue(q).idle);
}

TEST_P(QueueTest, DestroyWithoutForceWaitsUntilIdle) {
  QueueId q = NewQueue(dev());
  Blocker blocker(dev(), q);
  std::atomic<bool> ran{false};
  SubmitOk(dev(), q, HostFuncTask([&ran] { ran = true; }));
  Flag destroyed;
  Status destroy_status;
  std::thread destroyer([&] {
    destroy_status = dev().DestroyQueue(q, false);
    destroyed.Set();
  });
  std::this_thread::sleep_for(kSettle);
  EXPECT_FALSE(destroyed.IsSet()) << "DestroyQueue(force=false) returned while a task was held";
  blocker.Release();
  EXPECT_TRUE(destroyed.WaitFor());
  destroyer.join();
  ACLSIM_EXPECT_OK(destroy_status);
  EXPECT_TRUE(ran.load());
}

// Tasks that have not started are dropped; a task already running completes first.
TEST_P(QueueTest, DestroyWithForceDropsUnstartedTasks) {
  QueueId q = NewQueue(dev());
  QueueId other = NewQueue(dev());
  EventId never = NewEvent(dev());
  EventId dropped_record = NewEvent(dev());
  void* d = Alloc(dev(), 4096);
  ASSERT_NE(d, nullptr);
  std::memset(d, 0, 4096);
  std::atomic<bool> ran{false};
  Blocker running(dev(), q);
  ASSERT_TRUE(running.WaitStarted());
  // Behind a wait for a record that is never submitted: these can only ever be dropped.
  SubmitOk(dev(), q, WaitTask(never, 0));
  SubmitOk(dev(), q, HostFuncTask([&ran] { ran = true; }));
  SubmitOk(dev(), q, MemsetTask(d, 0x5A, 4096));
  SubmitOk(dev(), q, RecordTask(dropped_record));
  // Another queue waits for the record that will be dropped.
  std::atomic<bool> other_ran{false};
  SubmitOk(dev(), other, WaitTask(dropped_record, 0));
  SubmitOk(dev(), other, HostFuncTask([&other_ran] { other_ran = true; }));

  running.ReleaseLater(std::chrono::milliseconds(40));
  ACLSIM_EXPECT_OK(dev().DestroyQueue(q, true));
  running.Join();
  EXPECT_FALSE(ran.load());
  EXPECT_EQ(static_cast<uint8_t*>(d)[0], 0);
  // A dropped task is completed (with kDeviceTaskAbort): waits bound to it are released.
  EXPECT_NE(dev().SyncQueue(other, kSyncLimitMs).code(), StatusCode::kStreamSyncTimeout);
  EXPECT_TRUE(other_ran.load());
  EXPECT_TRUE(dev().QueryEvent(dropped_record).complete);
}

TEST_P(QueueTest, DestroyWithForceOfIdleQueue) {
  QueueId q = NewQueue(dev());
  SubmitOk(dev(), q, HostFuncTask([] {}));
  SyncOk(dev(), q);
  ACLSIM_EXPECT_OK(dev().DestroyQueue(q, true));
}

TEST_P(QueueTest, SyncDeviceWaitsForEveryQueue) {
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(dev());
  Blocker b0(dev(), q0);
  Blocker b1(dev(), q1);
  std::atomic<int> done{0};
  SubmitOk(dev(), q0, HostFuncTask([&done] { done++; }));
  SubmitOk(dev(), q1, HostFuncTask([&done] { done++; }));
  ACLSIM_EXPECT_CODE(dev().SyncDevice(kShortTimeoutMs), StatusCode::kStreamSyncTimeout);
  b0.ReleaseLater(std::chrono::milliseconds(10));
  b1.ReleaseLater(std::chrono::milliseconds(40));
  ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
  EXPECT_EQ(done.load(), 2);
  EXPECT_TRUE(dev().QueryQueue(q0).idle);
  EXPECT_TRUE(dev().QueryQueue(q1).idle);
  b0.Join();
  b1.Join();
  ACLSIM_EXPECT_OK(dev().SyncDevice(0));
}

TEST_P(QueueTest, SyncDeviceIgnoresOtherDevices) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId q1 = NewQueue(*d1);
  Blocker held(*d1, q1);
  QueueId q0 = NewQueue(dev());
  SubmitOk(dev(), q0, HostFuncTask([] {}));
  ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
  held.Release();
  ACLSIM_EXPECT_OK(d1->SyncDevice(kSyncLimitMs));
}

// driver.h: "creating and destroying a queue are host work: they advance the calling
// thread's simulated clock by a backend cost".
TEST_P(QueueTest, CreateAndDestroyCostHostTime) {
  const uint64_t t0 = dev().HostClockNs();
  QueueId q = NewQueue(dev());
  const uint64_t t1 = dev().HostClockNs();
  ACLSIM_ASSERT_OK(dev().DestroyQueue(q, false));
  const uint64_t t2 = dev().HostClockNs();
  EXPECT_GT(t1, t0) << "CreateQueue did not advance the host clock";
  EXPECT_GT(t2, t1) << "DestroyQueue did not advance the host clock";
  // Only the calling thread's clock.
  uint64_t other = 1;
  std::thread([&] { other = dev().HostClockNs(); }).join();
  EXPECT_EQ(other, 0u);
}

// Persistent queues (kQueueFlagPersistent): destroying one caches its resources; creating a
// persistent queue from the cache is much cheaper than a fresh creation, and so is the
// destruction that caches it.
TEST_P(QueueTest, PersistentQueueFromTheCacheIsCheaper) {
  QueueConfig persistent;
  persistent.flags = kQueueFlagPersistent;
  auto cost = [&](auto&& fn) {
    const uint64_t before = dev().HostClockNs();
    fn();
    return dev().HostClockNs() - before;
  };
  QueueId q = 0;
  const uint64_t fresh_create = cost([&] { ACLSIM_EXPECT_OK(dev().CreateQueue(persistent, &q)); });
  const uint64_t cache_destroy = cost([&] { ACLSIM_EXPECT_OK(dev().DestroyQueue(q, false)); });
  const uint64_t cached_create = cost([&] { ACLSIM_EXPECT_OK(dev().CreateQueue(persistent, &q)); });
  QueueId plain = 0;
  const uint64_t plain_create = cost([&] { ACLSIM_EXPECT_OK(dev().CreateQueue({}, &plain)); });
  const uint64_t plain_destroy = cost([&] { ACLSIM_EXPECT_OK(dev().DestroyQueue(plain, false)); });
  EXPECT_LT(cached_create, fresh_create);
  EXPECT_LT(cached_create, plain_create);
  EXPECT_LT(cache_destroy, plain_destroy);
  // With the cache empty again, a persistent creation costs a full creation.
  QueueId second = 0;
  const uint64_t uncached = cost([&] { ACLSIM_EXPECT_OK(dev().CreateQueue(persistent, &second)); });
  EXPECT_EQ(uncached, fresh_create);
  ACLSIM_EXPECT_OK(dev().DestroyQueue(second, false));
  ACLSIM_EXPECT_OK(dev().DestroyQueue(q, false));
}

// A queue created from the cache is a fresh queue: idle, no tasks, no error, working.
TEST_P(QueueTest, PersistentQueueFromTheCacheStartsFresh) {
  auto d_fail = MakeDriver({{"fault_fail_task", "2"}});
  ASSERT_NE(d_fail, nullptr);
  auto device = OpenDevice(*d_fail, 0);
  ASSERT_NE(device, nullptr);
  device->SetFailureHandler([](const TaskFailure&) {});
  QueueConfig persistent;
  persistent.flags = kQueueFlagPersistent;
  QueueId q = 0;
  ACLSIM_ASSERT_OK(device->CreateQueue(persistent, &q));
  SubmitOk(*device, q, HostFuncTask([] {}));
  SubmitOk(*device, q, HostFuncTask([] {}));  // task 2 fails: the queue holds an error
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (!device->QueryQueue(q).idle && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_FALSE(device->QueryQueue(q).error.ok());
  ACLSIM_ASSERT_OK(device->DestroyQueue(q, false));
  ACLSIM_ASSERT_OK(device->CreateQueue(persistent, &q));
  QueueState state = device->QueryQueue(q);
  EXPECT_TRUE(state.idle);
  EXPECT_EQ(state.last_task_id, 0u);
  EXPECT_TRUE(state.error.ok());
  std::atomic<bool> ran{false};
  SubmitOk(*device, q, HostFuncTask([&ran] { ran = true; }));
  ACLSIM_EXPECT_OK(device->SyncQueue(q, kSyncLimitMs));
  EXPECT_TRUE(ran.load());
}

// Cached persistent queues keep their stream ids (they count toward max_streams) until a
// non-persistent creation reclaims one.
TEST_P(QueueTest, CachedPersistentQueuesCountTowardTheLimit) {
  const uint32_t limit = dev().props().max_streams;
  QueueConfig persistent;
  persistent.flags = kQueueFlagPersistent;
  std::vector<QueueId> cached;
  for (int i = 0; i < 3; ++i) {
    QueueId q = 0;
    ACLSIM_ASSERT_OK(dev().CreateQueue(persistent, &q));
    cached.push_back(q);
  }
  for (QueueId q : cached) ACLSIM_ASSERT_OK(dev().DestroyQueue(q, false));
  // Plain creations: the free ids first, then the 3 cached ones are reclaimed.
  std::vector<QueueId> queues;
  for (uint32_t i = 0; i < limit; ++i) {
    QueueId q = 0;
    Status status = dev().CreateQueue({}, &q);
    ASSERT_TRUE(status.ok()) << "queue " << i << " of " << limit << ": " << status.message();
    queues.push_back(q);
  }
  QueueId extra = 0;
  ACLSIM_EXPECT_CODE(dev().CreateQueue({}, &extra), StatusCode::kNoStreamResource);
  ACLSIM_EXPECT_CODE(dev().CreateQueue(persistent, &extra), StatusCode::kNoStreamResource);
  std::sort(queues.begin(), queues.end());
  EXPECT_EQ(std::unique(queues.begin(), queues.end()), queues.end()) << "a queue id was reused";
}

ACLSIM_CONFORMANCE_SUITE(QueueTest);

}  // namespace
}  // namespace aclsim::driver::conformance
