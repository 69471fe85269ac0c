// Events: lifetime, limits, record/wait ordering (also across devices), reset, queries,
// SyncEvent and timestamps.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class EventTest : public DriverTest {};

TEST_P(EventTest, CreateAndDestroy) {
  std::vector<EventId> events;
  for (int i = 0; i < 16; ++i) events.push_back(NewEvent(dev()));
  for (size_t i = 0; i < events.size(); ++i) {
    for (size_t j = i + 1; j < events.size(); ++j) EXPECT_NE(events[i], events[j]);
  }
  for (EventId e : events) ACLSIM_EXPECT_OK(dev().DestroyEvent(e));
  EXPECT_FALSE(dev().DestroyEvent(events.front()).ok());
}

// Flags (ACL_EVENT_SYNC 0x1, ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x2, ACL_EVENT_TIME_LINE 0x8)
// are informational for the backend; any combination creates a working event.
TEST_P(EventTest, EventFlagsAreAccepted) {
  QueueId q = NewQueue(dev());
  for (uint32_t flags : {0x0u, 0x1u, 0x2u, 0x8u, 0xBu}) {
    EventId e = 0;
    ACLSIM_ASSERT_OK(dev().CreateEvent(flags, &e));
    SubmitOk(dev(), q, RecordTask(e));
    ACLSIM_EXPECT_OK(dev().SyncEvent(e, kSyncLimitMs));
    EXPECT_TRUE(dev().QueryEvent(e).complete);
    ACLSIM_EXPECT_OK(dev().DestroyEvent(e));
  }
}

TEST_P(EventTest, EventLimitIsNoEventResource) {
  const uint32_t limit = dev().props().max_events;
  std::vector<EventId> events;
  events.reserve(limit);
  for (uint32_t i = 0; i < limit; ++i) {
    EventId e = 0;
    Status status = dev().CreateEvent(0, &e);
    ASSERT_TRUE(status.ok()) << "event " << i << " of " << limit << ": " << status.message();
    events.push_back(e);
  }
  EventId extra = 0;
  ACLSIM_EXPECT_CODE(dev().CreateEvent(0, &extra), StatusCode::kNoEventResource);
  ACLSIM_ASSERT_OK(dev().DestroyEvent(events[limit / 2]));
  ACLSIM_EXPECT_OK(dev().CreateEvent(0, &extra));
  ACLSIM_EXPECT_CODE(dev().CreateEvent(0, &extra), StatusCode::kNoEventResource);
}

TEST_P(EventTest, QueryEventBeforeAndAfterRecord) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  Device::EventState state = dev().QueryEvent(e);
  EXPECT_FALSE(state.recorded);
  EXPECT_TRUE(state.complete);  // "true if never recorded"

  Blocker blocker(dev(), q);
  SubmitOk(dev(), q, RecordTask(e));
  state = dev().QueryEvent(e);
  EXPECT_TRUE(state.recorded);
  EXPECT_FALSE(state.complete);

  blocker.Release();
  SyncOk(dev(), q);
  state = dev().QueryEvent(e);
  EXPECT_TRUE(state.recorded);
  EXPECT_TRUE(state.complete);
}

TEST_P(EventTest, RecordCompletesWithoutSync) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), q, HostFuncTask([] {}));
  SubmitOk(dev(), q, RecordTask(e));
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (!dev().QueryEvent(e).complete && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(dev().QueryEvent(e).complete);
}

TEST_P(EventTest, WaitOrdersAcrossQueues) {
  QueueId producer = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId e = NewEvent(dev());
  Log log;
  Blocker blocker(dev(), producer);
  SubmitOk(dev(), producer, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), producer, RecordTask(e));
  SubmitOk(dev(), consumer, WaitTask(e, 0));
  SubmitOk(dev(), consumer, HostFuncTask([&log] { log.Add(2); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "the waiting queue ran before the record";
  EXPECT_FALSE(dev().QueryQueue(consumer).idle);
  blocker.Release();
  SyncOk(dev(), consumer);
  SyncOk(dev(), producer);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

// A wait submitted before any record of its event waits for the record submitted next.
TEST_P(EventTest, WaitSubmittedBeforeItsRecord) {
  QueueId producer = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId e = NewEvent(dev());
  Log log;
  SubmitOk(dev(), consumer, WaitTask(e, 0));
  SubmitOk(dev(), consumer, HostFuncTask([&log] { log.Add(2); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "a wait for a record not yet submitted did not wait";
  EXPECT_FALSE(dev().QueryQueue(consumer).idle);
  ACLSIM_EXPECT_CODE(dev().SyncQueue(consumer, kShortTimeoutMs), StatusCode::kStreamSyncTimeout);

  Blocker blocker(dev(), producer);
  SubmitOk(dev(), producer, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), producer, RecordTask(e));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u);
  blocker.Release();
  SyncOk(dev(), consumer);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

// A wait binds to the latest record submitted before it: a later record does not hold it.
TEST_P(EventTest, WaitBindsToTheLatestRecordBeforeIt) {
  QueueId producer = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), producer, RecordTask(e));  // R1, completes at once
  SyncOk(dev(), producer);
  std::atomic<bool> consumer_ran{false};
  SubmitOk(dev(), consumer, WaitTask(e, 0));  // bound to R1
  SubmitOk(dev(), consumer, HostFuncTask([&consumer_ran] { consumer_ran = true; }));
  Blocker blocker(dev(), producer);
  SubmitOk(dev(), producer, RecordTask(e));  // R2, held
  ACLSIM_EXPECT_OK(dev().SyncQueue(consumer, kSyncLimitMs));
  EXPECT_TRUE(consumer_ran.load());
  blocker.Release();
  SyncOk(dev(), producer);
}

// ... and a wait submitted after a second record waits for that one, not the first.
TEST_P(EventTest, WaitAfterRerecordWaitsForTheNewRecord) {
  QueueId producer = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId e = NewEvent(dev());
  Log log;
  SubmitOk(dev(), producer, RecordTask(e));  // R1
  SyncOk(dev(), producer);
  Blocker blocker(dev(), producer);
  SubmitOk(dev(), producer, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), producer, RecordTask(e));  // R2, held
  SubmitOk(dev(), consumer, WaitTask(e, 0));
  SubmitOk(dev(), consumer, HostFuncTask([&log] { log.Add(2); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "the wait used an older record";
  blocker.Release();
  SyncOk(dev(), consumer);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

TEST_P(EventTest, ResetReturnsTheEventToNotRecorded) {
  QueueId q = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), q, RecordTask(e));
  SyncOk(dev(), q);
  EXPECT_TRUE(dev().QueryEvent(e).recorded);
  SubmitOk(dev(), q, ResetTask(e));
  SyncOk(dev(), q);
  Device::EventState state = dev().QueryEvent(e);
  EXPECT_FALSE(state.recorded);
  EXPECT_TRUE(state.complete);
  ACLSIM_EXPECT_OK(dev().SyncEvent(e, kShortTimeoutMs));  // nothing to wait for

  // A wait after the reset does not use the old record: it waits for the next one.
  Log log;
  SubmitOk(dev(), consumer, WaitTask(e, 0));
  SubmitOk(dev(), consumer, HostFuncTask([&log] { log.Add(2); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "a wait after a reset used the record before the reset";
  Blocker blocker(dev(), q);
  SubmitOk(dev(), q, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), q, RecordTask(e));
  blocker.Release();
  SyncOk(dev(), consumer);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

// driver.h: "an event reset takes effect when it is submitted (later waits wait for a new
// record)" -- even while the reset itself is still queued behind other work.
TEST_P(EventTest, ResetTakesEffectWhenSubmitted) {
  QueueId held_queue = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  QueueId producer = NewQueue(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), held_queue, RecordTask(e));
  SyncOk(dev(), held_queue);
  Blocker blocker(dev(), held_queue);
  SubmitOk(dev(), held_queue, ResetTask(e));  // queued, not executed
  Device::EventState state = dev().QueryEvent(e);
  EXPECT_FALSE(state.recorded);
  EXPECT_TRUE(state.complete);
  ACLSIM_EXPECT_OK(dev().SyncEvent(e, kShortTimeoutMs));  // no record since the reset

  Log log;
  SubmitOk(dev(), consumer, WaitTask(e, 0));
  SubmitOk(dev(), consumer, HostFuncTask([&log] { log.Add(2); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "a wait after a submitted reset used the old record";
  SubmitOk(dev(), producer, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), producer, RecordTask(e));
  // The new record releases the wait although the reset has not executed yet.
  ACLSIM_EXPECT_OK(dev().SyncQueue(consumer, kSyncLimitMs));
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
  EXPECT_FALSE(dev().QueryQueue(held_queue).idle);
  blocker.Release();
  SyncOk(dev(), held_queue);
}

// driver.h: "DestroyEvent releases waits that are still waiting for a first record".
TEST_P(EventTest, DestroyEventReleasesWaitsForAFirstRecord) {
  QueueId q = NewQueue(dev());
  QueueId other_device_queue = 0;
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  other_device_queue = NewQueue(*d1);
  EventId e = NewEvent(dev());
  std::atomic<int> ran{0};
  SubmitOk(dev(), q, WaitTask(e, 0));
  SubmitOk(dev(), q, HostFuncTask([&ran] { ran++; }));
  SubmitOk(*d1, other_device_queue, WaitTask(e, 0));
  SubmitOk(*d1, other_device_queue, HostFuncTask([&ran] { ran++; }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(ran.load(), 0);
  ACLSIM_ASSERT_OK(dev().DestroyEvent(e));
  ACLSIM_EXPECT_OK(dev().SyncQueue(q, kSyncLimitMs));
  ACLSIM_EXPECT_OK(d1->SyncQueue(other_device_queue, kSyncLimitMs));
  EXPECT_EQ(ran.load(), 2);
}

// driver.h: "a sync on dropped (forced) work returns kDeviceTaskAbort".
TEST_P(EventTest, SyncEventOnADroppedRecordIsDeviceTaskAbort) {
  QueueId q = NewQueue(dev());
  EventId never = NewEvent(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), q, WaitTask(never, 0));
  SubmitOk(dev(), q, RecordTask(e));
  ACLSIM_ASSERT_OK(dev().DestroyQueue(q, true));
  ACLSIM_EXPECT_CODE(dev().SyncEvent(e, kSyncLimitMs), StatusCode::kDeviceTaskAbort);
}

TEST_P(EventTest, SyncEventWaitsForTheRecord) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  ACLSIM_EXPECT_OK(dev().SyncEvent(e, kShortTimeoutMs));  // never recorded: returns at once
  Blocker blocker(dev(), q);
  std::atomic<bool> before{false};
  SubmitOk(dev(), q, HostFuncTask([&before] { before = true; }));
  SubmitOk(dev(), q, RecordTask(e));
  ACLSIM_EXPECT_CODE(dev().SyncEvent(e, kShortTimeoutMs), StatusCode::kEventSyncTimeout);
  blocker.ReleaseLater(std::chrono::milliseconds(20));
  ACLSIM_EXPECT_OK(dev().SyncEvent(e, -1));
  EXPECT_TRUE(before.load());
  EXPECT_TRUE(dev().QueryEvent(e).complete);
  blocker.Join();
}

// SyncEvent waits for the record submitted before the call only, not for later tasks.
TEST_P(EventTest, SyncEventDoesNotWaitForLaterTasks) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  SubmitOk(dev(), q, RecordTask(e));
  Blocker blocker(dev(), q);
  ACLSIM_EXPECT_OK(dev().SyncEvent(e, kSyncLimitMs));
  blocker.Release();
  SyncOk(dev(), q);
}

TEST_P(EventTest, TimestampsAreMonotonicAlongAQueue) {
  QueueId q = NewQueue(dev());
  constexpr int kEvents = 12;
  std::vector<EventId> events;
  for (int i = 0; i < kEvents; ++i) events.push_back(NewEvent(dev()));
  std::vector<uint8_t> host(1 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  for (int i = 0; i < kEvents; ++i) {
    if (i % 3 == 1)
      SubmitOk(dev(), q, CopyTask(d, host.data(), host.size(), CopyDir::kHostToDevice));
    if (i % 3 == 2) SubmitOk(dev(), q, HostFuncTask([] {}));
    SubmitOk(dev(), q, RecordTask(events[i]));
  }
  SyncOk(dev(), q);
  uint64_t previous = 0;
  for (int i = 0; i < kEvents; ++i) {
    const uint64_t ts = Timestamp(dev(), events[i]);
    EXPECT_GE(ts, previous) << "event " << i;
    previous = ts;
  }
}

// The waiting queue's later work is not timed before the record it waited for.
TEST_P(EventTest, WaitingQueueTimestampsFollowTheRecord) {
  QueueId producer = NewQueue(dev());
  QueueId consumer = NewQueue(dev());
  EventId produced = NewEvent(dev());
  EventId consumed = NewEvent(dev());
  std::vector<uint8_t> host(4 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  SubmitOk(dev(), producer, CopyTask(d, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), producer, RecordTask(produced));
  SubmitOk(dev(), consumer, WaitTask(produced, 0));
  SubmitOk(dev(), consumer, RecordTask(consumed));
  SyncOk(dev(), consumer);
  SyncOk(dev(), producer);
  EXPECT_GE(Timestamp(dev(), consumed), Timestamp(dev(), produced));
}

TEST_P(EventTest, CrossDeviceWaitOrdersWork) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(*d1);
  EventId e0 = NewEvent(dev());
  EventId e1 = NewEvent(*d1);
  Log log;
  Blocker blocker(dev(), q0);
  SubmitOk(dev(), q0, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(dev(), q0, RecordTask(e0));
  SubmitOk(*d1, q1, WaitTask(e0, 0));  // device 1 waits for device 0's event
  SubmitOk(*d1, q1, HostFuncTask([&log] { log.Add(2); }));
  SubmitOk(*d1, q1, RecordTask(e1));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u) << "device 1 did not wait for device 0's event";
  EXPECT_FALSE(d1->QueryQueue(q1).idle);
  blocker.Release();
  ACLSIM_EXPECT_OK(d1->SyncQueue(q1, kSyncLimitMs));
  SyncOk(dev(), q0);
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
  // One simulated clock per backend: device 1's later record is not before device 0's.
  EXPECT_GE(Timestamp(*d1, e1), Timestamp(dev(), e0));
}

TEST_P(EventTest, CrossDeviceWaitBeforeRecordAndBothDirections) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(*d1);
  EventId e0 = NewEvent(dev());
  EventId e1 = NewEvent(*d1);
  Log log;
  // Device 0 waits for device 1, which waits for device 0; the waits come first.
  SubmitOk(dev(), q0, WaitTask(e1, 1));
  SubmitOk(dev(), q0, HostFuncTask([&log] { log.Add(2); }));
  SubmitOk(*d1, q1, WaitTask(e0, 0));
  SubmitOk(*d1, q1, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(*d1, q1, RecordTask(e1));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(log.Size(), 0u);
  QueueId q0b = NewQueue(dev());
  SubmitOk(dev(), q0b, RecordTask(e0));
  SyncOk(dev(), q0);
  ACLSIM_EXPECT_OK(d1->SyncQueue(q1, kSyncLimitMs));
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

// Device 1 waiting on one of its own events names itself as the event's device.
TEST_P(EventTest, WaitOnSecondDevicesOwnEvent) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId a = NewQueue(*d1);
  QueueId b = NewQueue(*d1);
  EventId e = NewEvent(*d1);
  Log log;
  Blocker blocker(*d1, a);
  SubmitOk(*d1, a, HostFuncTask([&log] { log.Add(1); }));
  SubmitOk(*d1, a, RecordTask(e));
  SubmitOk(*d1, b, WaitTask(e, 1));
  SubmitOk(*d1, b, HostFuncTask([&log] { log.Add(2); }));
  blocker.Release();
  ACLSIM_EXPECT_OK(d1->SyncQueue(b, kSyncLimitMs));
  EXPECT_EQ(log.Get(), (std::vector<int>{1, 2}));
}

// Many queues waiting on one record, and one queue waiting on many records.
TEST_P(EventTest, FanOutAndFanIn) {
  constexpr int kQueues = 6;
  QueueId source = NewQueue(dev());
  QueueId sink = NewQueue(dev());
  EventId start = NewEvent(dev());
  std::vector<QueueId> queues;
  std::vector<EventId> done;
  std::atomic<int> branches{0};
  std::atomic<int> seen_at_sink{-1};
  Blocker blocker(dev(), source);
  SubmitOk(dev(), source, RecordTask(start));
  for (int i = 0; i < kQueues; ++i) {
    queues.push_back(NewQueue(dev()));
    done.push_back(NewEvent(dev()));
    SubmitOk(dev(), queues[i], WaitTask(start, 0));
    SubmitOk(dev(), queues[i], HostFuncTask([&branches] { branches++; }));
    SubmitOk(dev(), queues[i], RecordTask(done[i]));
    SubmitOk(dev(), sink, WaitTask(done[i], 0));
  }
  SubmitOk(dev(), sink, HostFuncTask([&] { seen_at_sink = branches.load(); }));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(branches.load(), 0);
  blocker.Release();
  SyncOk(dev(), sink);
  EXPECT_EQ(seen_at_sink.load(), kQueues);
  ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
}

ACLSIM_CONFORMANCE_SUITE(EventTest);

}  // namespace
}  // namespace aclsim::driver::conformance
