// Many host threads at once: every Device method may be called concurrently (driver.h).
// Run under TSan (-DACLSIM_SANITIZE=thread) these also check the backends for data races.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class ConcurrencyTest : public DriverTest {};

// 8 threads, each with its own queue (threads alternate between two devices), doing rounds
// of H2D -> D2D -> memset -> D2H with verification; one more thread polls queries meanwhile.
TEST_P(ConcurrencyTest, ThreadsWithTheirOwnQueuesCopyCorrectly) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  Device* devices[2] = {&dev(), d1.get()};
  constexpr int kThreads = 8;
  constexpr int kRounds = 40;
  constexpr size_t kBytes = 48 * kKiB;
  std::atomic<bool> stop_polling{false};
  std::atomic<int> failures{0};
  std::vector<QueueId> queues(kThreads);
  for (int t = 0; t < kThreads; ++t) queues[t] = NewQueue(*devices[t % 2]);

  std::thread poller([&] {
    while (!stop_polling.load()) {
      for (int t = 0; t < kThreads; ++t) (void)devices[t % 2]->QueryQueue(queues[t]);
      size_t free_bytes = 0;
      size_t total = 0;
      devices[0]->PoolUsage(MemPool::kHbm, &free_bytes, &total);
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Device& device = *devices[t % 2];
      const QueueId q = queues[t];
      for (int r = 0; r < kRounds; ++r) {
        // Fresh allocations every few rounds: allocation runs concurrently with copies.
        void* a = nullptr;
        void* b = nullptr;
        if (!device.AllocPhysical(MemPool::kHbm, PageSize::k4K, kBytes, &a).ok() ||
            !device.AllocPhysical(MemPool::kHbm, PageSize::k4K, kBytes, &b).ok()) {
          failures++;
          return;
        }
        const std::vector<uint8_t> src = Pattern(kBytes, static_cast<uint32_t>(t * 1000 + r));
        std::vector<uint8_t> copied(kBytes, 0);
        std::vector<uint8_t> filled(kBytes, 0);
        const int value = (t * 31 + r) & 0xFF;
        uint64_t id = 0;
        bool ok =
            device.Submit(q, CopyTask(a, src.data(), kBytes, CopyDir::kHostToDevice), &id).ok();
        ok = ok && device.Submit(q, CopyTask(b, a, kBytes, CopyDir::kDeviceToDevice), &id).ok();
        ok = ok && device.Submit(q, MemsetTask(a, value, kBytes), &id).ok();
        ok = ok &&
             device.Submit(q, CopyTask(copied.data(), b, kBytes, CopyDir::kDeviceToHost), &id).ok();
        ok = ok &&
             device.Submit(q, CopyTask(filled.data(), a, kBytes, CopyDir::kDeviceToHost), &id).ok();
        ok = ok && device.SyncQueue(q, kSyncLimitMs).ok();
        ok = ok && copied == src &&
             filled == std::vector<uint8_t>(kBytes, static_cast<uint8_t>(value));
        ok = ok && device.FreePhysical(a).ok() && device.FreePhysical(b).ok();
        if (!ok) {
          ADD_FAILURE() << "thread " << t << " round " << r;
          failures++;
          return;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  stop_polling = true;
  poller.join();
  EXPECT_EQ(failures.load(), 0);
  size_t free_bytes = 0;
  size_t total = 0;
  for (Device* device : devices) {
    device->PoolUsage(MemPool::kHbm, &free_bytes, &total);
    EXPECT_EQ(free_bytes, total);
  }
}

// Producer and consumer threads, each with its own queue, hand a device buffer back and forth
// with device-side event waits only; the host threads just order their submissions. One
// pair works on device 0; the other produces on device 0 and consumes on device 1.
TEST_P(ConcurrencyTest, CrossThreadEventWaitsHandOffABuffer) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  constexpr int kRounds = 60;
  constexpr size_t kBytes = 16 * kKiB;
  struct Pair {
    Device* producer_dev = nullptr;
    Device* consumer_dev = nullptr;
    uint32_t producer_id = 0;
    uint32_t consumer_id = 0;
    QueueId pq = 0;
    QueueId cq = 0;
    EventId ready = 0;       // producer's: the buffer holds round r
    EventId free_again = 0;  // consumer's: round r has been read
    void* buf = nullptr;     // on the producer's device
    void* local = nullptr;   // on the consumer's device
    std::vector<std::vector<uint8_t>> inputs;
    std::mutex mu;
    std::condition_variable cv;
    int produced = -1;  // last round whose record the producer has submitted
    int consumed = -1;  // last round whose record the consumer has submitted
  };
  Pair pairs[2];
  pairs[0].producer_dev = pairs[0].consumer_dev = &dev();
  pairs[1].producer_dev = &dev();
  pairs[1].consumer_dev = d1.get();
  pairs[1].consumer_id = 1;
  for (Pair& p : pairs) {
    p.pq = NewQueue(*p.producer_dev);
    p.cq = NewQueue(*p.consumer_dev);
    p.ready = NewEvent(*p.producer_dev);
    p.free_again = NewEvent(*p.consumer_dev);
    p.buf = Alloc(*p.producer_dev, kBytes);
    p.local = Alloc(*p.consumer_dev, kBytes);
    ASSERT_NE(p.buf, nullptr);
    ASSERT_NE(p.local, nullptr);
    for (int r = 0; r < kRounds; ++r) p.inputs.push_back(Pattern(kBytes, 500 + r));
  }
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (Pair& pair : pairs) {
    Pair* p = &pair;
    threads.emplace_back([p, &errors] {  // producer
      Device& d = *p->producer_dev;
      uint64_t id = 0;
      for (int r = 0; r < kRounds; ++r) {
        if (r > 0) {
          std::unique_lock<std::mutex> lock(p->mu);
          p->cv.wait(lock, [&] { return p->consumed >= r - 1; });
        }
        // The buffer is free again once the consumer has read the previous round.
        bool ok = r == 0 || d.Submit(p->pq, WaitTask(p->free_again, p->consumer_id), &id).ok();
        ok = ok &&
             d.Submit(p->pq, CopyTask(p->buf, p->inputs[r].data(), kBytes, CopyDir::kHostToDevice),
                      &id)
                 .ok();
        ok = ok && d.Submit(p->pq, RecordTask(p->ready), &id).ok();
        if (!ok) errors++;
        std::lock_guard<std::mutex> lock(p->mu);
        p->produced = r;
        p->cv.notify_all();
      }
      if (!d.SyncQueue(p->pq, kSyncLimitMs).ok()) errors++;
    });
    threads.emplace_back([p, &errors] {  // consumer
      Device& d = *p->consumer_dev;
      const CopyDir in_dir =
          p->producer_dev == p->consumer_dev ? CopyDir::kDeviceToDevice : CopyDir::kPeerToPeer;
      uint64_t id = 0;
      std::vector<uint8_t> out(kBytes);
      for (int r = 0; r < kRounds; ++r) {
        {
          std::unique_lock<std::mutex> lock(p->mu);
          p->cv.wait(lock, [&] { return p->produced >= r; });
        }
        bool ok = d.Submit(p->cq, WaitTask(p->ready, p->producer_id), &id).ok();
        ok = ok && d.Submit(p->cq, CopyTask(p->local, p->buf, kBytes, in_dir), &id).ok();
        ok = ok && d.Submit(p->cq, RecordTask(p->free_again), &id).ok();
        ok = ok &&
             d.Submit(p->cq, CopyTask(out.data(), p->local, kBytes, CopyDir::kDeviceToHost), &id)
                 .ok();
        {
          std::lock_guard<std::mutex> lock(p->mu);
          p->consumed = r;
          p->cv.notify_all();
        }
        ok = ok && d.SyncQueue(p->cq, kSyncLimitMs).ok();
        if (!ok) errors++;
        if (out != p->inputs[r]) {
          ADD_FAILURE() << "consumer read wrong data in round " << r;
          errors++;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0);
}

// Several threads submitting to ONE queue, serialised by the caller as the core does (it
// holds the stream's lock): execution follows submission order exactly.
TEST_P(ConcurrencyTest, SharedQueueFollowsCallerSerialisedOrder) {
  QueueId q = NewQueue(dev());
  std::mutex submit_mu;
  std::vector<int> submitted;
  Log executed;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 100;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const int tag = t * kPerThread + i;
        std::lock_guard<std::mutex> lock(submit_mu);
        submitted.push_back(tag);
        uint64_t id = 0;
        EXPECT_TRUE(
            dev().Submit(q, HostFuncTask([&executed, tag] { executed.Add(tag); }), &id).ok());
      }
    });
  }
  for (auto& thread : threads) thread.join();
  SyncOk(dev(), q);
  EXPECT_EQ(executed.Get(), submitted);
}

// Queues and events created and destroyed from many threads at once.
TEST_P(ConcurrencyTest, ConcurrentCreateAndDestroy) {
  constexpr int kThreads = 6;
  constexpr int kRounds = 50;
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        QueueId q = 0;
        EventId e = 0;
        uint64_t id = 0;
        if (!dev().CreateQueue({}, &q).ok() || !dev().CreateEvent(0, &e).ok()) {
          errors++;
          continue;
        }
        bool ok = dev().Submit(q, HostFuncTask([] {}), &id).ok();
        ok = ok && dev().Submit(q, RecordTask(e), &id).ok();
        ok = ok && dev().SyncEvent(e, kSyncLimitMs).ok();
        ok = ok && dev().DestroyQueue(q, r % 2 == 0).ok();
        ok = ok && dev().DestroyEvent(e).ok();
        if (!ok) errors++;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0);
}

// SyncDevice from one thread while others keep submitting to their queues.
TEST_P(ConcurrencyTest, SyncDeviceWhileOthersSubmit) {
  constexpr int kThreads = 4;
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    QueueId q = NewQueue(dev());
    threads.emplace_back([&, q] {
      uint64_t id = 0;
      while (!stop.load()) {
        if (!dev().Submit(q, HostFuncTask([] {}), &id).ok()) errors++;
        if (!dev().SyncQueue(q, kSyncLimitMs).ok()) errors++;
      }
    });
  }
  for (int i = 0; i < 50; ++i) {
    if (!dev().SyncDevice(kSyncLimitMs).ok()) errors++;
  }
  stop = true;
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0);
}

ACLSIM_CONFORMANCE_SUITE(ConcurrencyTest);

}  // namespace
}  // namespace aclsim::driver::conformance
