// The simulated clock: determinism, the timing model's orderings, host clocks and waits.
//
// Timing is measured only through the interface: event timestamps and HostClockNs.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class ClockTest : public DriverTest {};

Task BigKernel(std::function<void()> fn) {
  Task t = KernelTask(std::move(fn), 8);
  t.flops = 4'000'000'000;
  t.bytes_moved = 64 * kMiB;
  return t;
}

// A fixed submission sequence over two devices, several queues and every task kind, with
// waits before records, cross-device waits, a held external task, resets and every Sync*.
// `perturb_ms` changes only wall-clock behaviour (host functions sleep, the external task is
// completed later): it must not change any simulated time. Returns every event timestamp
// and the calling thread's clock at several points. The script is race-free: buffers that
// two queues write are ordered by events or host syncs.
std::vector<uint64_t> RunScript(Driver& driver, int perturb_ms) {
  std::vector<uint64_t> out;
  auto d0 = OpenDeviceOf(driver, 0);
  auto d1 = OpenDeviceOf(driver, 1);
  if (d0 == nullptr || d1 == nullptr) return out;
  auto sleep = [perturb_ms] {
    if (perturb_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(perturb_ms));
  };
  QueueId a = 0, b = 0, c = 0;
  EXPECT_TRUE(d0->CreateQueue({}, &a).ok());
  EXPECT_TRUE(d0->CreateQueue({}, &b).ok());
  EXPECT_TRUE(d1->CreateQueue({}, &c).ok());
  std::vector<EventId> e(6), f(2);
  for (EventId& id : e) EXPECT_TRUE(d0->CreateEvent(0, &id).ok());
  for (EventId& id : f) EXPECT_TRUE(d1->CreateEvent(0, &id).ok());
  std::vector<uint8_t> src = Pattern(2 * kMiB, 1);
  std::vector<uint8_t> dst(2 * kMiB);
  std::vector<uint8_t> h2h(64 * kKiB);
  void* x = nullptr;
  void* y = nullptr;
  void* z = nullptr;
  void* w = nullptr;
  EXPECT_TRUE(d0->AllocPhysical(MemPool::kHbm, PageSize::k4K, kMiB, &w).ok());
  EXPECT_TRUE(d0->AllocPhysical(MemPool::kHbm, PageSize::k2M, 2 * kMiB, &x).ok());
  EXPECT_TRUE(d0->AllocPhysical(MemPool::kHbm, PageSize::k4K, 2 * kMiB, &y).ok());
  EXPECT_TRUE(d1->AllocPhysical(MemPool::kHbm, PageSize::k4K, 2 * kMiB, &z).ok());
  if (x == nullptr || y == nullptr || z == nullptr || w == nullptr) return out;
  auto submit = [](Device& d, QueueId q, Task t) {
    uint64_t id = 0;
    Status st = d.Submit(q, std::move(t), &id);
    EXPECT_TRUE(st.ok()) << st.message();
  };

  submit(*d0, a, RecordTask(e[0]));
  submit(*d0, a, CopyTask(x, src.data(), 2 * kMiB, CopyDir::kHostToDevice));
  submit(*d0, a, RecordTask(e[1]));
  submit(*d0, b, WaitTask(e[2], 0));  // before its record
  submit(*d0, a, BigKernel(sleep));
  submit(*d0, a, RecordTask(e[2]));
  submit(*d0, b, CopyTask(dst.data(), x, kMiB, CopyDir::kDeviceToHost));
  submit(*d0, b, MemsetTask(y, 3, 256 * kKiB));
  submit(*d0, b, WaitTask(f[0], 1));  // cross-device, before its record
  submit(*d1, c, WaitTask(e[1], 0));  // cross-device, after its record
  submit(*d1, c, CopyTask(z, x, kMiB, CopyDir::kPeerToPeer));
  submit(*d1, c, HostFuncTask(sleep));
  submit(*d1, c, RecordTask(f[0]));
  submit(*d0, b, RecordTask(e[3]));
  {
    Blocker held(*d0, a);
    submit(*d0, a, CopyTask(w, x, kMiB, CopyDir::kDeviceToDevice));
    submit(*d0, a, RecordTask(e[4]));
    held.ReleaseLater(std::chrono::milliseconds(perturb_ms));
    d0->AdvanceHostClock(12'345);
    out.push_back(d0->HostClockNs());
    EXPECT_TRUE(d0->SyncQueue(b, kSyncLimitMs).ok());
    out.push_back(d0->HostClockNs());
    EXPECT_TRUE(d0->SyncEvent(e[4], kSyncLimitMs).ok());
    out.push_back(d0->HostClockNs());
  }
  submit(*d0, b, HostFuncTask(sleep));
  submit(*d0, b, Copy2dTask(y, 4096, x, 2048, 1000, 300, CopyDir::kDeviceToDevice));
  submit(*d0, b, RecordTask(e[5]));
  submit(*d0, a, ResetTask(e[0]));
  submit(*d1, c, WaitTask(e[0], 0));  // after the reset: waits for the next record
  submit(*d1, c, CopyTask(dst.data(), z, kMiB, CopyDir::kDeviceToHost));
  submit(*d1, c, RecordTask(f[1]));
  submit(*d0, a, CopyTask(h2h.data(), src.data(), h2h.size(), CopyDir::kHostToHost));
  submit(*d0, a, HostFuncTask(sleep));
  submit(*d0, a, RecordTask(e[0]));
  EXPECT_TRUE(d1->SyncDevice(kSyncLimitMs).ok());
  out.push_back(d1->HostClockNs());
  EXPECT_TRUE(d0->SyncDevice(kSyncLimitMs).ok());
  out.push_back(d0->HostClockNs());
  for (EventId id : e) out.push_back(d0->QueryEvent(id).timestamp_ns);
  for (EventId id : f) out.push_back(d1->QueryEvent(id).timestamp_ns);
  return out;
}

// Two host threads (producer on device 0, consumer on device 1) whose interleaving is fixed
// by host-side hand-offs, ordered on the devices by cross-device event waits. Returns the
// consumer's record timestamps per round and both threads' final clocks.
std::vector<uint64_t> RunHandOff(Driver& driver, int perturb_ms) {
  constexpr int kRounds = 12;
  constexpr size_t kBytes = 256 * kKiB;
  std::vector<uint64_t> out;
  auto d0 = OpenDeviceOf(driver, 0);
  auto d1 = OpenDeviceOf(driver, 1);
  if (d0 == nullptr || d1 == nullptr) return out;
  QueueId pq = 0, cq = 0;
  EventId ready = 0, freed = 0;
  void* buf = nullptr;
  void* local = nullptr;
  EXPECT_TRUE(d0->CreateQueue({}, &pq).ok());
  EXPECT_TRUE(d1->CreateQueue({}, &cq).ok());
  EXPECT_TRUE(d0->CreateEvent(0, &ready).ok());
  EXPECT_TRUE(d1->CreateEvent(0, &freed).ok());
  EXPECT_TRUE(d0->AllocPhysical(MemPool::kHbm, PageSize::k4K, kBytes, &buf).ok());
  EXPECT_TRUE(d1->AllocPhysical(MemPool::kHbm, PageSize::k4K, kBytes, &local).ok());
  if (buf == nullptr || local == nullptr) return out;
  std::vector<uint8_t> src = Pattern(kBytes, 42);
  std::vector<uint8_t> dst(kBytes);
  std::mutex mu;
  std::condition_variable cv;
  int produced = -1;
  int consumed = -1;
  uint64_t producer_clock = 0;
  std::vector<uint64_t> stamps;
  const uint64_t main_clock = d0->HostClockNs();
  std::thread producer([&] {
    uint64_t id = 0;
    for (int r = 0; r < kRounds; ++r) {
      if (r > 0) {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return consumed >= r - 1; });
      }
      if (r > 0) {
        EXPECT_TRUE(d0->Submit(pq, WaitTask(freed, 1), &id).ok());
      }
      EXPECT_TRUE(
          d0->Submit(pq, CopyTask(buf, src.data(), kBytes, CopyDir::kHostToDevice), &id).ok());
      EXPECT_TRUE(d0->Submit(pq, RecordTask(ready), &id).ok());
      d0->AdvanceHostClock(1000);
      std::lock_guard<std::mutex> lock(mu);
      produced = r;
      cv.notify_all();
    }
    EXPECT_TRUE(d0->SyncQueue(pq, kSyncLimitMs).ok());
    producer_clock = d0->HostClockNs();
  });
  std::thread consumer([&] {
    uint64_t id = 0;
    for (int r = 0; r < kRounds; ++r) {
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return produced >= r; });
      }
      if (perturb_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(perturb_ms));
      EXPECT_TRUE(d1->Submit(cq, WaitTask(ready, 0), &id).ok());
      EXPECT_TRUE(d1->Submit(cq, CopyTask(local, buf, kBytes, CopyDir::kPeerToPeer), &id).ok());
      EXPECT_TRUE(d1->Submit(cq, RecordTask(freed), &id).ok());
      EXPECT_TRUE(
          d1->Submit(cq, CopyTask(dst.data(), local, kBytes, CopyDir::kDeviceToHost), &id).ok());
      {
        std::lock_guard<std::mutex> lock(mu);
        consumed = r;
        cv.notify_all();
      }
      EXPECT_TRUE(d1->SyncQueue(cq, kSyncLimitMs).ok());
      stamps.push_back(d1->QueryEvent(freed).timestamp_ns);
      stamps.push_back(d1->HostClockNs());
    }
  });
  producer.join();
  consumer.join();
  out = stamps;
  out.push_back(producer_clock);
  out.push_back(d0->HostClockNs() - main_clock);  // this thread's: untouched by the others
  EXPECT_EQ(dst, src);
  return out;
}

TEST_P(ClockTest, HandOffBetweenThreadsIsReproducible) {
  auto first = MakeDriver();
  auto second = MakeDriver();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const std::vector<uint64_t> a = RunHandOff(*first, 0);
  const std::vector<uint64_t> b = RunHandOff(*second, 5);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.back(), 0u);
}

TEST_P(ClockTest, SameSubmissionsGiveTheSameTimesOnFreshBackends) {
  auto first = MakeDriver();
  auto second = MakeDriver();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const std::vector<uint64_t> a = RunScript(*first, 0);
  const std::vector<uint64_t> b = RunScript(*second, 7);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  // Sanity: the script takes simulated time.
  EXPECT_GT(a.back(), 0u);
}

// --- the timing model's orderings --------------------------------------------------------

// Simulated span, from the calling thread's clock before `submit_work` to the latest
// timestamp of `ends` (events recorded by `submit_work`), after a device sync.
template <typename Fn>
uint64_t SpanNs(Device& device, const std::vector<EventId>& ends, Fn submit_work) {
  ACLSIM_EXPECT_OK(device.SyncDevice(kSyncLimitMs));  // idle device, clock past all work
  const uint64_t t0 = device.HostClockNs();
  submit_work();
  ACLSIM_EXPECT_OK(device.SyncDevice(kSyncLimitMs));
  uint64_t end = 0;
  for (EventId e : ends) {
    Device::EventState state = device.QueryEvent(e);
    EXPECT_TRUE(state.recorded && state.complete);
    end = std::max(end, state.timestamp_ns);
  }
  EXPECT_GE(end, t0);
  return end - t0;
}

TEST_P(ClockTest, LargerHostToDeviceCopyTakesLonger) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  std::vector<uint8_t> host(16 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  ASSERT_NE(d, nullptr);
  uint64_t previous = 0;
  for (size_t bytes : {size_t{4} * kKiB, size_t{256} * kKiB, size_t{2} * kMiB, size_t{16} * kMiB}) {
    const uint64_t span = SpanNs(dev(), {e}, [&] {
      SubmitOk(dev(), q, CopyTask(d, host.data(), bytes, CopyDir::kHostToDevice));
      SubmitOk(dev(), q, RecordTask(e));
    });
    EXPECT_GT(span, previous) << bytes << " bytes";
    previous = span;
  }
}

TEST_P(ClockTest, DeviceToDeviceIsFasterPerByteThanHostToDevice) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  constexpr size_t kBytes = 8 * kMiB;
  std::vector<uint8_t> host(kBytes, 1);
  void* d = Alloc(dev(), kBytes);
  void* d2 = Alloc(dev(), kBytes);
  ASSERT_NE(d, nullptr);
  ASSERT_NE(d2, nullptr);
  const uint64_t h2d = SpanNs(dev(), {e}, [&] {
    SubmitOk(dev(), q, CopyTask(d, host.data(), kBytes, CopyDir::kHostToDevice));
    SubmitOk(dev(), q, RecordTask(e));
  });
  const uint64_t d2d = SpanNs(dev(), {e}, [&] {
    SubmitOk(dev(), q, CopyTask(d2, d, kBytes, CopyDir::kDeviceToDevice));
    SubmitOk(dev(), q, RecordTask(e));
  });
  EXPECT_LT(d2d, h2d);
}

// Opposite directions use different DMA engines: on two queues they overlap (the pair ends
// sooner than the sum of the two durations); on one queue they run one after the other.
TEST_P(ClockTest, OppositeCopiesOverlapOnTwoQueuesButNotOnOne) {
  constexpr size_t kBytes = 8 * kMiB;
  QueueId q1 = NewQueue(dev());
  QueueId q2 = NewQueue(dev());
  EventId e1 = NewEvent(dev());
  EventId e2 = NewEvent(dev());
  std::vector<uint8_t> up(kBytes, 1);
  std::vector<uint8_t> down(kBytes, 0);
  void* d_up = Alloc(dev(), kBytes);
  void* d_down = Alloc(dev(), kBytes);
  ASSERT_NE(d_up, nullptr);
  ASSERT_NE(d_down, nullptr);
  auto h2d = [&] { return CopyTask(d_up, up.data(), kBytes, CopyDir::kHostToDevice); };
  auto d2h = [&] { return CopyTask(down.data(), d_down, kBytes, CopyDir::kDeviceToHost); };

  // Fixed overhead of the measurement (a record alone), then each copy alone.
  const uint64_t overhead = SpanNs(dev(), {e1}, [&] { SubmitOk(dev(), q1, RecordTask(e1)); });
  const uint64_t up_alone = SpanNs(dev(), {e1}, [&] {
    SubmitOk(dev(), q1, h2d());
    SubmitOk(dev(), q1, RecordTask(e1));
  });
  const uint64_t down_alone = SpanNs(dev(), {e1}, [&] {
    SubmitOk(dev(), q1, d2h());
    SubmitOk(dev(), q1, RecordTask(e1));
  });
  ASSERT_GT(up_alone, overhead);
  ASSERT_GT(down_alone, overhead);
  const uint64_t up_ns = up_alone - overhead;
  const uint64_t down_ns = down_alone - overhead;

  const uint64_t two_queues = SpanNs(dev(), {e1, e2}, [&] {
    SubmitOk(dev(), q1, h2d());
    SubmitOk(dev(), q2, d2h());
    SubmitOk(dev(), q1, RecordTask(e1));
    SubmitOk(dev(), q2, RecordTask(e2));
  });
  const uint64_t one_queue = SpanNs(dev(), {e1}, [&] {
    SubmitOk(dev(), q1, h2d());
    SubmitOk(dev(), q1, d2h());
    SubmitOk(dev(), q1, RecordTask(e1));
  });
  EXPECT_LT(two_queues, overhead + up_ns + down_ns) << "no overlap across queues";
  EXPECT_GE(one_queue, overhead + up_ns + down_ns) << "tasks of one queue overlapped";
  EXPECT_LT(two_queues, one_queue);
}

// driver.h: "a peer copy uses the DMA engine of the submitting queue's device". Two peer
// copies with the same source and destination devices, one submitted on each device, use
// two devices' engines and overlap.
TEST_P(ClockTest, PeerCopiesSubmittedOnDifferentDevicesOverlap) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  constexpr size_t kBytes = 16 * kMiB;
  QueueId q0 = NewQueue(dev());
  QueueId q1 = NewQueue(*d1);
  EventId e0 = NewEvent(dev());
  EventId e1 = NewEvent(*d1);
  void* src_a = Alloc(dev(), kBytes);
  void* src_b = Alloc(dev(), kBytes);
  void* dst_a = Alloc(*d1, kBytes);
  void* dst_b = Alloc(*d1, kBytes);
  ASSERT_TRUE(src_a && src_b && dst_a && dst_b);
  auto sync_both = [&] {
    ACLSIM_EXPECT_OK(dev().SyncDevice(kSyncLimitMs));
    ACLSIM_EXPECT_OK(d1->SyncDevice(kSyncLimitMs));
  };
  // span from this thread's clock to the later of the recorded events
  auto span = [&](auto submit, bool use_e0, bool use_e1) {
    sync_both();
    const uint64_t t0 = dev().HostClockNs();
    submit();
    sync_both();
    uint64_t end = 0;
    if (use_e0) end = std::max(end, Timestamp(dev(), e0));
    if (use_e1) end = std::max(end, Timestamp(*d1, e1));
    return end - t0;
  };
  const uint64_t overhead = span([&] { SubmitOk(dev(), q0, RecordTask(e0)); }, true, false);
  const uint64_t a_alone = span(
      [&] {
        SubmitOk(dev(), q0, CopyTask(dst_a, src_a, kBytes, CopyDir::kPeerToPeer));
        SubmitOk(dev(), q0, RecordTask(e0));
      },
      true, false);
  const uint64_t b_alone = span(
      [&] {
        SubmitOk(*d1, q1, CopyTask(dst_b, src_b, kBytes, CopyDir::kPeerToPeer));
        SubmitOk(*d1, q1, RecordTask(e1));
      },
      false, true);
  ASSERT_GT(a_alone, overhead);
  ASSERT_GT(b_alone, overhead);
  const uint64_t both = span(
      [&] {
        SubmitOk(dev(), q0, CopyTask(dst_a, src_a, kBytes, CopyDir::kPeerToPeer));
        SubmitOk(*d1, q1, CopyTask(dst_b, src_b, kBytes, CopyDir::kPeerToPeer));
        SubmitOk(dev(), q0, RecordTask(e0));
        SubmitOk(*d1, q1, RecordTask(e1));
      },
      true, true);
  EXPECT_LT(both, overhead + (a_alone - overhead) + (b_alone - overhead))
      << "peer copies submitted on two devices did not overlap";
}

// --- host clocks and waits ----------------------------------------------------------------

TEST_P(ClockTest, SyncQueueAdvancesTheHostClockToCompletion) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  std::vector<uint8_t> host(16 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  ASSERT_NE(d, nullptr);
  const uint64_t before = dev().HostClockNs();
  SubmitOk(dev(), q, CopyTask(d, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), q, RecordTask(e));
  const uint64_t after_submit = dev().HostClockNs();
  EXPECT_GE(after_submit, before);  // submissions cost API time
  SyncOk(dev(), q);
  const uint64_t ts = Timestamp(dev(), e);
  // A 16 MiB host-to-device copy lasts far longer than two submissions cost.
  EXPECT_LT(after_submit, ts);
  EXPECT_GE(dev().HostClockNs(), ts);
}

TEST_P(ClockTest, SyncEventAdvancesTheHostClockToTheRecord) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  std::vector<uint8_t> host(16 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  ASSERT_NE(d, nullptr);
  SubmitOk(dev(), q, CopyTask(d, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), q, RecordTask(e));
  ACLSIM_ASSERT_OK(dev().SyncEvent(e, kSyncLimitMs));
  EXPECT_GE(dev().HostClockNs(), Timestamp(dev(), e));
}

TEST_P(ClockTest, SyncDeviceAdvancesTheHostClockToTheLastCompletion) {
  QueueId q1 = NewQueue(dev());
  QueueId q2 = NewQueue(dev());
  EventId e1 = NewEvent(dev());
  EventId e2 = NewEvent(dev());
  std::vector<uint8_t> host(8 * kMiB, 1);
  void* d = Alloc(dev(), host.size());
  void* d2 = Alloc(dev(), host.size());
  SubmitOk(dev(), q1, CopyTask(d, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), q1, RecordTask(e1));
  SubmitOk(dev(), q2, CopyTask(d2, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(dev(), q2, RecordTask(e2));
  ACLSIM_ASSERT_OK(dev().SyncDevice(kSyncLimitMs));
  EXPECT_GE(dev().HostClockNs(), Timestamp(dev(), e1));
  EXPECT_GE(dev().HostClockNs(), Timestamp(dev(), e2));
}

TEST_P(ClockTest, AdvanceHostClockAddsExactly) {
  const uint64_t before = dev().HostClockNs();
  dev().AdvanceHostClock(123'456);
  EXPECT_EQ(dev().HostClockNs(), before + 123'456);
  dev().AdvanceHostClock(0);
  EXPECT_EQ(dev().HostClockNs(), before + 123'456);
}

TEST_P(ClockTest, HostClockIsSharedByTheDevicesOfABackend) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  dev().AdvanceHostClock(5'000'000);
  EXPECT_EQ(d1->HostClockNs(), dev().HostClockNs());
  d1->AdvanceHostClock(7);
  EXPECT_EQ(d1->HostClockNs(), dev().HostClockNs());
}

TEST_P(ClockTest, EachHostThreadHasItsOwnClock) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  const uint64_t mine = dev().HostClockNs();
  constexpr uint64_t kAhead = 2'000'000'000;  // 2 s of simulated time
  uint64_t other_before = 0;
  uint64_t other_after = 0;
  std::thread other([&] {
    other_before = dev().HostClockNs();
    dev().AdvanceHostClock(kAhead);
    SubmitOk(dev(), q, RecordTask(e));
    other_after = dev().HostClockNs();
    SyncOk(dev(), q);
  });
  other.join();
  EXPECT_GE(other_after, other_before + kAhead);
  // The other thread's advance did not move this thread's clock...
  EXPECT_EQ(dev().HostClockNs(), mine);
  // ...but its submission could not start before its own clock...
  const uint64_t ts = Timestamp(dev(), e);
  EXPECT_GE(ts, other_before + kAhead);
  // ...and waiting for that work brings this thread's clock up to it.
  ACLSIM_ASSERT_OK(dev().SyncEvent(e, kSyncLimitMs));
  EXPECT_GE(dev().HostClockNs(), ts);
}

// A task never starts before the submitting thread's clock: host time spent before a
// submission delays it.
TEST_P(ClockTest, WorkStartsNoEarlierThanTheSubmittingThreadsClock) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  dev().AdvanceHostClock(1'000'000'000);
  const uint64_t now = dev().HostClockNs();
  SubmitOk(dev(), q, RecordTask(e));
  SyncOk(dev(), q);
  EXPECT_GE(Timestamp(dev(), e), now);
}

// Wall-clock time spent in a host function is not simulated time.
TEST_P(ClockTest, WallClockSleepsDoNotChangeSimulatedTime) {
  QueueId q = NewQueue(dev());
  EventId e = NewEvent(dev());
  auto span = [&](int sleep_ms) {
    return SpanNs(dev(), {e}, [&] {
      SubmitOk(dev(), q, HostFuncTask([sleep_ms] {
                 std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
               }));
      SubmitOk(dev(), q, RecordTask(e));
    });
  };
  EXPECT_EQ(span(0), span(60));
}

ACLSIM_CONFORMANCE_SUITE(ClockTest);

// The two sim backends share one timing model: the same submissions give the same times.
TEST(SimBackends, InlineAndThreadedGiveEqualTimes) {
  auto threaded = MakeBackend("sim");
  auto inline_backend = MakeBackend("sim-inline");
  ASSERT_NE(threaded, nullptr);
  ASSERT_NE(inline_backend, nullptr);
  const std::vector<uint64_t> a = RunScript(*threaded, 3);
  const std::vector<uint64_t> b = RunScript(*inline_backend, 0);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(SimBackends, InlineAndThreadedGiveEqualTimesForThreadHandOff) {
  auto threaded = MakeBackend("sim");
  auto inline_backend = MakeBackend("sim-inline");
  ASSERT_NE(threaded, nullptr);
  ASSERT_NE(inline_backend, nullptr);
  const std::vector<uint64_t> a = RunHandOff(*threaded, 2);
  const std::vector<uint64_t> b = RunHandOff(*inline_backend, 0);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace aclsim::driver::conformance
