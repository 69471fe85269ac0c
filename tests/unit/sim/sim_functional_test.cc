// Functional execution: copies, 2-D copies, memsets, host functions and queue order,
// against both the threaded ("sim") and the inline ("sim-inline") backend.
#include <gtest/gtest.h>

#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

class SimFunctionalTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    driver_ = MakeBackend(GetParam(), {{"workers", "4"}});
    ASSERT_NE(driver_, nullptr);
    device_ = Open(*driver_);
    ASSERT_NE(device_, nullptr);
    queue_ = NewQueue(*device_);
  }
  void* DeviceAlloc(size_t bytes) {
    void* p = nullptr;
    EXPECT_OK(device_->AllocPhysical(MemPool::kHbm, PageSize::k4K, bytes, &p));
    return p;
  }
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
  QueueId queue_ = 0;
};

TEST_P(SimFunctionalTest, CopiesMoveTheBytesInEveryDirection) {
  constexpr size_t kBytes = 1 << 16;
  std::vector<uint8_t> src(kBytes), back(kBytes, 0), h2h(kBytes, 0);
  std::iota(src.begin(), src.end(), uint8_t{7});
  void* d0 = DeviceAlloc(kBytes);
  void* d1 = DeviceAlloc(kBytes);
  SubmitOk(*device_, queue_, Copy(d0, src.data(), kBytes, CopyDir::kHostToDevice));
  SubmitOk(*device_, queue_, Copy(d1, d0, kBytes, CopyDir::kDeviceToDevice));
  SubmitOk(*device_, queue_, Copy(back.data(), d1, kBytes, CopyDir::kDeviceToHost));
  SubmitOk(*device_, queue_, Copy(h2h.data(), back.data(), kBytes, CopyDir::kHostToHost));
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  EXPECT_EQ(back, src);
  EXPECT_EQ(h2h, src);
}

TEST_P(SimFunctionalTest, PeerCopyReachesAnotherDevice) {
  auto other = Open(*driver_, 1);
  ASSERT_NE(other, nullptr);
  void* remote = nullptr;
  ASSERT_OK(other->AllocPhysical(MemPool::kHbm, PageSize::k4K, 64, &remote));
  std::vector<uint8_t> src(64, 0x3c), back(64, 0);
  void* local = DeviceAlloc(64);
  SubmitOk(*device_, queue_, Copy(local, src.data(), 64, CopyDir::kHostToDevice));
  SubmitOk(*device_, queue_, Copy(remote, local, 64, CopyDir::kPeerToPeer));
  SubmitOk(*device_, queue_, Copy(back.data(), remote, 64, CopyDir::kDeviceToHost));
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  EXPECT_EQ(back, src);
}

TEST_P(SimFunctionalTest, TwoDimensionalCopyHonoursPitches) {
  constexpr size_t kWidth = 5, kHeight = 4, kSpitch = 8, kDpitch = 16;
  std::vector<uint8_t> src(kSpitch * kHeight);
  std::iota(src.begin(), src.end(), uint8_t{1});
  std::vector<uint8_t> dst(kDpitch * kHeight, 0xee);
  Task t;
  t.kind = TaskKind::kMemcpy2d;
  t.dst = dst.data();
  t.src = src.data();
  t.dpitch = kDpitch;
  t.spitch = kSpitch;
  t.width = kWidth;
  t.height = kHeight;
  t.bytes = kWidth * kHeight;
  t.dir = CopyDir::kHostToHost;
  SubmitOk(*device_, queue_, t);
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  for (size_t row = 0; row < kHeight; ++row) {
    for (size_t col = 0; col < kDpitch; ++col) {
      const uint8_t expected = col < kWidth ? src[row * kSpitch + col] : 0xee;
      EXPECT_EQ(dst[row * kDpitch + col], expected) << row << "," << col;
    }
  }
}

TEST_P(SimFunctionalTest, TwoDimensionalCopyRejectsWidthBeyondPitch) {
  uint8_t buf[16] = {};
  Task t;
  t.kind = TaskKind::kMemcpy2d;
  t.dst = buf;
  t.src = buf;
  t.dpitch = 4;
  t.spitch = 8;
  t.width = 6;
  t.height = 2;
  EXPECT_EQ(device_->Submit(queue_, std::move(t), nullptr).code(), StatusCode::kInvalidParam);
}

TEST_P(SimFunctionalTest, MemsetFillsDeviceMemory) {
  constexpr size_t kBytes = 10000;
  void* d = DeviceAlloc(kBytes);
  std::vector<uint8_t> back(kBytes, 0);
  Task set;
  set.kind = TaskKind::kMemset;
  set.dst = d;
  set.bytes = kBytes;
  set.value = 0x7f;
  SubmitOk(*device_, queue_, set);
  SubmitOk(*device_, queue_, Copy(back.data(), d, kBytes, CopyDir::kDeviceToHost));
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  EXPECT_EQ(back, std::vector<uint8_t>(kBytes, 0x7f));
}

TEST_P(SimFunctionalTest, TasksOfAQueueRunInSubmissionOrder) {
  std::mutex mu;
  std::vector<int> order;
  constexpr int kTasks = 200;
  for (int i = 0; i < kTasks; ++i) {
    Task t = i % 2 ? HostFunc([&, i] {
      std::lock_guard<std::mutex> l(mu);
      order.push_back(i);
    })
                   : Kernel(4, 1000, 0, [&, i] {
                       std::lock_guard<std::mutex> l(mu);
                       order.push_back(i);
                     });
    SubmitOk(*device_, queue_, std::move(t));
  }
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  std::vector<int> expected(kTasks);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(order, expected);
  EXPECT_TRUE(device_->QueryQueue(queue_).idle);
  EXPECT_EQ(device_->QueryQueue(queue_).last_task_id, static_cast<uint64_t>(kTasks));
}

TEST_P(SimFunctionalTest, TaskIdsAreUniquePerDeviceAndStartAtOne) {
  QueueId other = NewQueue(*device_);
  EXPECT_EQ(SubmitOk(*device_, queue_, HostFunc([] {})), 1u);
  EXPECT_EQ(SubmitOk(*device_, other, HostFunc([] {})), 2u);
  EXPECT_EQ(SubmitOk(*device_, queue_, HostFunc([] {})), 3u);
  ASSERT_OK(device_->SyncDevice(-1));
}

TEST_P(SimFunctionalTest, PollingTheQueueSeesProgress) {
  std::atomic<int> ran{0};
  SubmitOk(*device_, queue_, HostFunc([&] { ran = 1; }));
  while (!device_->QueryQueue(queue_).idle) std::this_thread::yield();
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(SimFunctionalTest, ExternalTaskCompletesOnCompleteExternal) {
  std::atomic<uint64_t> started{0};
  std::atomic<int> after{0};
  const uint64_t id = SubmitOk(*device_, queue_, External(&started));
  SubmitOk(*device_, queue_, HostFunc([&] { after = 1; }));
  while (started.load() == 0) std::this_thread::yield();
  EXPECT_EQ(started.load(), id);
  EXPECT_FALSE(device_->QueryQueue(queue_).idle);
  EXPECT_EQ(after.load(), 0);
  device_->CompleteExternal(id, Status::Ok());
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  EXPECT_EQ(after.load(), 1);
}

TEST_P(SimFunctionalTest, ManyThreadsSubmitConcurrently) {
  constexpr int kThreads = 4, kTasks = 50;
  std::atomic<int> count{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      QueueId q = NewQueue(*device_);
      driver::EventId e = NewEvent(*device_);
      for (int k = 0; k < kTasks; ++k) {
        SubmitOk(*device_, q, HostFunc([&] { count.fetch_add(1); }));
        SubmitOk(*device_, q, EventTask(TaskKind::kEventRecord, e));
        SubmitOk(*device_, q, EventTask(TaskKind::kEventWait, e));
      }
      EXPECT_OK(device_->SyncQueue(q, -1));
      (void)device_->QueryEvent(e);
      EXPECT_OK(device_->DestroyEvent(e));
      EXPECT_OK(device_->DestroyQueue(q, false));
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(count.load(), kThreads * kTasks);
}

// Captured state whose destructor calls back into the driver (as a core object might).
struct CallsDriverWhenDestroyed {
  CallsDriverWhenDestroyed(Device* d, QueueId q, std::atomic<int>* count)
      : device(d), queue(q), destroyed(count) {}
  CallsDriverWhenDestroyed(const CallsDriverWhenDestroyed&) = delete;
  Device* device;
  QueueId queue;
  std::atomic<int>* destroyed;
  ~CallsDriverWhenDestroyed() {
    (void)device->QueryQueue(queue);
    destroyed->fetch_add(1);
  }
};

TEST_P(SimFunctionalTest, ClosureDestructorsMayCallTheDriver) {
  std::atomic<int> destroyed{0};
  QueueId doomed = NewQueue(*device_);
  driver::EventId never = NewEvent(*device_);
  {
    auto ran = std::make_shared<CallsDriverWhenDestroyed>(device_.get(), queue_, &destroyed);
    auto dropped = std::make_shared<CallsDriverWhenDestroyed>(device_.get(), queue_, &destroyed);
    SubmitOk(*device_, queue_, HostFunc([ran] {}));
    SubmitOk(*device_, doomed, EventTask(TaskKind::kEventWait, never));
    SubmitOk(*device_, doomed, HostFunc([dropped] {}));
  }
  ASSERT_OK(device_->SyncQueue(queue_, -1));
  ASSERT_OK(device_->DestroyQueue(doomed, /*force=*/true));
  while (destroyed.load() < 2) std::this_thread::yield();  // released after the lock
  EXPECT_EQ(destroyed.load(), 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, SimFunctionalTest, ::testing::Values("sim", "sim-inline"),
                         BackendParamName);

}  // namespace
}  // namespace aclsim::sim
