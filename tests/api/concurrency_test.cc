// Several host threads using the API at once: private streams, a shared stream, events
// handed between threads, and concurrent creation/destruction of resources.
#include <atomic>
#include <future>
#include <memory>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::FirstMismatch;
using acltest::Pattern;
using acltest::PinnedHost;

class ConcurrencyTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context_));
  }
  // Runs fn(index) on `count` threads, each with the test's context current.
  template <typename Fn>
  void RunThreads(int count, Fn fn) {
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([this, fn, i] {
        ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
        fn(i);
      });
    }
    for (auto& thread : threads) thread.join();
  }
  aclrtContext context_ = nullptr;
};

TEST_F(ConcurrencyTest, EightThreadsWithOwnStreamsCopyAndVerify) {
  constexpr size_t kBytes = 64 << 10;
  constexpr int kRounds = 50;
  std::atomic<int> mismatches{0};
  RunThreads(8, [&](int thread) {
    aclrtStream stream = nullptr;
    void *a = nullptr, *b = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint8_t> out(kBytes);
    PinnedHost pinned_out(out);
    for (int round = 0; round < kRounds; ++round) {
      const std::vector<uint8_t> in = Pattern(kBytes, static_cast<uint32_t>(thread * 1000 + round));
      PinnedHost pinned_in(in);
      std::fill(out.begin(), out.end(), 0);
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(a, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
      ASSERT_ACL_OK(aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(out.data(), kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
      ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
      if (FirstMismatch(in.data(), out.data(), kBytes) != -1) ++mismatches;
    }
    EXPECT_ACL_OK(aclrtFree(a));
    EXPECT_ACL_OK(aclrtFree(b));
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(ConcurrencyTest, FourThreadsShareOneStream) {
  constexpr size_t kSlice = 32 << 10;
  constexpr int kThreads = 4, kRounds = 25;
  aclrtStream shared = nullptr;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&shared));
  ASSERT_ACL_OK(aclrtMalloc(&dev, kSlice * kThreads, ACL_MEM_MALLOC_HUGE_FIRST));
  std::atomic<int> mismatches{0};
  RunThreads(kThreads, [&](int thread) {
    char* slice = static_cast<char*>(dev) + kSlice * thread;
    std::vector<uint8_t> out(kSlice);
    PinnedHost pinned_out(out);
    for (int round = 0; round < kRounds; ++round) {
      const std::vector<uint8_t> in = Pattern(kSlice, static_cast<uint32_t>(thread * 100 + round));
      PinnedHost pinned_in(in);
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(slice, kSlice, in.data(), kSlice, ACL_MEMCPY_HOST_TO_DEVICE, shared));
      ASSERT_ACL_OK(
          aclrtMemcpyAsync(out.data(), kSlice, slice, kSlice, ACL_MEMCPY_DEVICE_TO_HOST, shared));
      ASSERT_ACL_OK(aclrtSynchronizeStream(shared));
      if (FirstMismatch(in.data(), out.data(), kSlice) != -1) ++mismatches;
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyStream(shared));
}

TEST_F(ConcurrencyTest, EventsRecordedOnOneThreadAreWaitedOnAnother) {
  constexpr size_t kBytes = 256 << 10;
  constexpr int kRounds = 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes * kRounds, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<std::vector<uint8_t>> inputs;
  for (int round = 0; round < kRounds; ++round) inputs.push_back(Pattern(kBytes, 500 + round));
  std::vector<std::unique_ptr<PinnedHost>> pinned_inputs;
  for (const auto& input : inputs) pinned_inputs.push_back(std::make_unique<PinnedHost>(input));
  // The producer hands each recorded event to the consumer through a promise.
  std::vector<std::promise<aclrtEvent>> handoff(kRounds);
  std::atomic<int> mismatches{0};
  std::thread producer([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    for (int round = 0; round < kRounds; ++round) {
      aclrtEvent event = nullptr;
      ASSERT_ACL_OK(aclrtCreateEvent(&event));
      ASSERT_ACL_OK(aclrtMemcpyAsync(static_cast<char*>(dev) + kBytes * round, kBytes,
                                     inputs[round].data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                     stream));
      ASSERT_ACL_OK(aclrtRecordEvent(event, stream));
      handoff[round].set_value(event);
    }
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  std::thread consumer([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    std::vector<uint8_t> out(kBytes);
    PinnedHost pinned_out(out);
    for (int round = 0; round < kRounds; ++round) {
      aclrtEvent event = handoff[round].get_future().get();
      ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, event));
      ASSERT_ACL_OK(aclrtMemcpyAsync(out.data(), kBytes, static_cast<char*>(dev) + kBytes * round,
                                     kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
      ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
      if (FirstMismatch(inputs[round].data(), out.data(), kBytes) != -1) ++mismatches;
      EXPECT_ACL_OK(aclrtDestroyEvent(event));
    }
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  producer.join();
  consumer.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(ConcurrencyTest, ThreadsSynchronizeOnAnotherThreadsEvent) {
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  acltest::Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, acltest::Latch::WaitFn, &latch));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream));
  std::atomic<int> done{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 4; ++i) {
    waiters.emplace_back([&] {
      EXPECT_ACL_OK(aclrtSynchronizeEvent(event));
      aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
      EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
      EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
      ++done;
    });
  }
  EXPECT_EQ(done.load(), 0);
  latch.Release();
  for (auto& waiter : waiters) waiter.join();
  EXPECT_EQ(done.load(), 4);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(ConcurrencyTest, ThreadsCreateAndDestroyResourcesConcurrently) {
  std::atomic<int> failures{0};
  RunThreads(6, [&](int thread) {
    for (int round = 0; round < 40; ++round) {
      aclrtStream stream = nullptr;
      aclrtEvent event = nullptr;
      void* dev = nullptr;
      aclDataBuffer* buffer = nullptr;
      if (aclrtCreateStream(&stream) != ACL_SUCCESS) ++failures;
      if (aclrtCreateEvent(&event) != ACL_SUCCESS) ++failures;
      if (aclrtMalloc(&dev, 4096 * (thread + 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        ++failures;
      }
      buffer = aclCreateDataBuffer(dev, 4096);
      if (buffer == nullptr) ++failures;
      if (aclrtMemsetAsync(dev, 4096, round, 4096, stream) != ACL_SUCCESS) ++failures;
      if (aclrtRecordEvent(event, stream) != ACL_SUCCESS) ++failures;
      if (aclrtSynchronizeEvent(event) != ACL_SUCCESS) ++failures;
      if (aclDestroyDataBuffer(buffer) != ACL_SUCCESS) ++failures;
      if (aclrtFree(dev) != ACL_SUCCESS) ++failures;
      if (aclrtDestroyEvent(event) != ACL_SUCCESS) ++failures;
      if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  uint32_t streams = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streams));
  EXPECT_EQ(streams, 1984u - 2);  // every stream came back
}

TEST_F(ConcurrencyTest, ThreadsUseDifferentDevices) {
  constexpr size_t kBytes = 128 << 10;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int device = 0; device < 4; ++device) {
    threads.emplace_back([&, device] {
      ASSERT_ACL_OK(aclrtSetDevice(device));
      aclrtStream stream = nullptr;
      void* dev = nullptr;
      ASSERT_ACL_OK(aclrtCreateStream(&stream));
      ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      for (int round = 0; round < 20; ++round) {
        const std::vector<uint8_t> in = Pattern(kBytes, static_cast<uint32_t>(device * 50 + round));
        std::vector<uint8_t> out(kBytes, 0);
        PinnedHost pinned_in(in), pinned_out(out);
        ASSERT_ACL_OK(
            aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        ASSERT_ACL_OK(
            aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
        if (FirstMismatch(in.data(), out.data(), kBytes) != -1) ++mismatches;
      }
      EXPECT_ACL_OK(aclrtFree(dev));
      EXPECT_ACL_OK(aclrtDestroyStream(stream));
      EXPECT_ACL_OK(aclrtResetDevice(device));
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
