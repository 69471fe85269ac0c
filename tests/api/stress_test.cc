// Concurrency stress (issue 8): many host threads using the API at once -- private streams,
// a shared stream, events handed between threads, report-thread callbacks, malloc/free and
// single-op compilation of one key -- with every byte checked; and streams destroyed or
// devices reset while work is in flight (plain calls wait for it, forced ones drop what has
// not started). Sizes and round counts are kept small: these run under TSan in CI.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "acl/acl_op_compiler.h"
#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::FirstMismatch;
using acltest::Latch;
using acltest::Pattern;
using acltest::PinnedHost;
using acltest::ReportThread;

class StressTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context_));
  }
  // Runs fn(index) on `count` threads at once, each with the test's context current.
  template <typename Fn>
  void RunThreads(int count, Fn fn) {
    std::vector<std::thread> threads;
    std::atomic<int> arrived{0};
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([this, fn, i, count, &arrived] {
        ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
        ++arrived;  // start together, so that the calls really overlap
        while (arrived.load() < count) std::this_thread::yield();
        fn(i);
      });
    }
    for (auto& thread : threads) thread.join();
  }
  aclrtContext context_ = nullptr;
};

// Issue 8's acceptance program: 8 threads, each with its own stream, 300 rounds of async
// copies host -> device -> device -> host, every byte checked.
TEST_F(StressTest, EightThreadsDoThreeHundredRoundsOfAsyncCopiesEach) {
  constexpr size_t kBytes = 8 << 10;
  constexpr int kThreads = 8, kRounds = 300;
  std::atomic<int> mismatches{0}, failures{0};
  RunThreads(kThreads, [&](int thread) {
    aclrtStream stream = nullptr;
    void *a = nullptr, *b = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint8_t> in(kBytes), out(kBytes);
    {
      PinnedHost pinned_in(in), pinned_out(out);
      for (int round = 0; round < kRounds; ++round) {
        const uint32_t seed = static_cast<uint32_t>(thread * 1000 + round);
        for (size_t i = 0; i < kBytes; ++i) in[i] = acltest::PatternByte(i, seed);
        std::fill(out.begin(), out.end(), 0);
        if (aclrtMemcpyAsync(a, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream) !=
                ACL_SUCCESS ||
            aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream) !=
                ACL_SUCCESS ||
            aclrtMemcpyAsync(out.data(), kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream) !=
                ACL_SUCCESS ||
            aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
          ++failures;
          break;
        }
        if (FirstMismatch(in.data(), out.data(), kBytes) != -1) ++mismatches;
      }
    }
    EXPECT_ACL_OK(aclrtFree(a));
    EXPECT_ACL_OK(aclrtFree(b));
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

// Every thread at once: its own stream, a stream shared by all, events recorded on one
// stream and waited on the other (in both directions), a blocking report-thread callback per
// round, and a device buffer allocated and freed per round.
TEST_F(StressTest, MixedWorkloadOnEightThreads) {
  constexpr int kThreads = 8, kRounds = 25;
  constexpr size_t kSlice = 4 << 10;
  ReportThread reporter;
  aclrtStream shared = nullptr;
  void* staging = nullptr;  // one slice per thread, written on the shared stream
  ASSERT_ACL_OK(aclrtCreateStream(&shared));
  ASSERT_ACL_OK(aclrtMalloc(&staging, kSlice * kThreads, ACL_MEM_MALLOC_HUGE_FIRST));
  std::atomic<int> mismatches{0}, failures{0}, callbacks{0};
  RunThreads(kThreads, [&](int thread) {
    aclrtStream own = nullptr;
    aclrtEvent uploaded = nullptr, staged = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&own));
    ASSERT_ACL_OK(aclrtCreateEvent(&uploaded));
    ASSERT_ACL_OK(aclrtCreateEvent(&staged));
    ASSERT_ACL_OK(aclrtSubscribeReport(reporter.id(), own));
    char* slice = static_cast<char*>(staging) + kSlice * thread;
    std::vector<uint8_t> in(kSlice), out(kSlice);
    {
      PinnedHost pinned_in(in), pinned_out(out);
      for (int round = 0; round < kRounds; ++round) {
        const size_t bytes = kSlice - static_cast<size_t>(round % 7) * 512;
        const uint32_t seed = static_cast<uint32_t>(thread * 100 + round);
        for (size_t i = 0; i < kSlice; ++i) in[i] = acltest::PatternByte(i, seed);
        std::fill(out.begin(), out.end(), 0);
        void* dev = nullptr;
        auto count = [](void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); };
        const bool ok =
            aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
            aclrtMemcpyAsync(dev, bytes, in.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, own) ==
                ACL_SUCCESS &&
            aclrtRecordEvent(uploaded, own) == ACL_SUCCESS &&
            aclrtStreamWaitEvent(shared, uploaded) == ACL_SUCCESS &&
            aclrtMemcpyAsync(slice, kSlice, dev, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, shared) ==
                ACL_SUCCESS &&
            aclrtRecordEvent(staged, shared) == ACL_SUCCESS &&
            aclrtStreamWaitEvent(own, staged) == ACL_SUCCESS &&
            aclrtMemcpyAsync(out.data(), bytes, slice, bytes, ACL_MEMCPY_DEVICE_TO_HOST, own) ==
                ACL_SUCCESS &&
            aclrtLaunchCallback(count, &callbacks, ACL_CALLBACK_BLOCK, own) == ACL_SUCCESS &&
            aclrtSynchronizeStream(own) == ACL_SUCCESS && aclrtFree(dev) == ACL_SUCCESS;
        if (!ok) {
          ++failures;
          ADD_FAILURE() << "thread " << thread << " round " << round << ": "
                        << acltest::TakeRecentErrors();
          break;
        }
        if (FirstMismatch(in.data(), out.data(), bytes) != -1) ++mismatches;
      }
    }
    EXPECT_ACL_OK(aclrtUnSubscribeReport(reporter.id(), own));
    EXPECT_ACL_OK(aclrtDestroyEvent(uploaded));
    EXPECT_ACL_OK(aclrtDestroyEvent(staged));
    EXPECT_ACL_OK(aclrtDestroyStream(own));
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(callbacks.load(), kThreads * kRounds);  // blocking callbacks ran before the syncs
  EXPECT_ACL_OK(aclrtSynchronizeStream(shared));
  EXPECT_ACL_OK(aclrtFree(staging));
  EXPECT_ACL_OK(aclrtDestroyStream(shared));
}

// Threads allocate and free buffers of mixed sizes at once, keeping several alive: every
// live buffer keeps its own bytes (no two live allocations overlap) and all memory returns.
TEST_F(StressTest, ConcurrentMallocAndFreeKeepEveryBuffersBytes) {
  constexpr int kThreads = 6, kRounds = 30, kLive = 4;
  const size_t free_before = acltest::FreeHbm();
  std::atomic<int> mismatches{0}, failures{0};
  RunThreads(kThreads, [&](int thread) {
    struct Live {
      void* dev = nullptr;
      size_t bytes = 0;
      uint32_t seed = 0;
    };
    std::vector<Live> live;
    for (int round = 0; round < kRounds; ++round) {
      Live buffer;
      // 512 B .. 1 MiB: the caching allocator's small blocks, splits and whole segments.
      buffer.bytes = size_t{512} << ((thread + round) % 12);
      buffer.seed = static_cast<uint32_t>(thread * 1000 + round);
      if (aclrtMalloc(&buffer.dev, buffer.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        ++failures;
        break;
      }
      const std::vector<uint8_t> in = Pattern(buffer.bytes, buffer.seed);
      if (aclrtMemcpy(buffer.dev, buffer.bytes, in.data(), buffer.bytes,
                      ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        ++failures;
      }
      live.push_back(buffer);
      if (live.size() > kLive) {  // check and free the oldest
        const Live old = live.front();
        live.erase(live.begin());
        const std::vector<uint8_t> want = Pattern(old.bytes, old.seed);
        if (FirstMismatch(want.data(), acltest::Download(old.dev, old.bytes).data(), old.bytes) !=
            -1) {
          ++mismatches;
        }
        if (aclrtFree(old.dev) != ACL_SUCCESS) ++failures;
      }
    }
    for (const Live& old : live) {
      const std::vector<uint8_t> want = Pattern(old.bytes, old.seed);
      if (FirstMismatch(want.data(), acltest::Download(old.dev, old.bytes).data(), old.bytes) !=
          -1) {
        ++mismatches;
      }
      if (aclrtFree(old.dev) != ACL_SUCCESS) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  // Freed memory is cached; aclrtMemTrim-free check: it is reusable, so a big buffer fits.
  EXPECT_LE(free_before - acltest::FreeHbm(), size_t{64} << 20);
}

// Threads compile and run the same op (same type, shapes and attributes: one cache key) at
// once, half through aclopCompileAndExecute and half through aclopExecuteV2, each on its own
// stream with its own data.
TEST_F(StressTest, ThreadsCompileAndRunTheSameOpAtOnce) {
  constexpr int kThreads = 8, kRounds = 12;
  constexpr int64_t kElems = 1024;
  std::atomic<int> mismatches{0}, failures{0};
  RunThreads(kThreads, [&](int thread) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    const int64_t dims[1] = {kElems};
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    constexpr size_t kBytes = kElems * sizeof(float);
    void* dev[3] = {};
    aclDataBuffer* buffers[3] = {};
    for (int i = 0; i < 3; ++i) {
      ASSERT_ACL_OK(aclrtMalloc(&dev[i], kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      buffers[i] = aclCreateDataBuffer(dev[i], kBytes);
    }
    aclopAttr* attr = aclopCreateAttr();
    std::vector<float> a(kElems), b(kElems), out(kElems);
    for (int round = 0; round < kRounds; ++round) {
      for (int64_t i = 0; i < kElems; ++i) {
        a[i] = static_cast<float>(thread * 10000 + round * 100 + i % 97);
        b[i] = static_cast<float>((i * 7 + thread) % 31);
      }
      aclTensorDesc* in_desc[2] = {desc, desc};
      aclTensorDesc* out_desc[1] = {desc};
      aclError launched = ACL_SUCCESS;
      if (aclrtMemcpy(dev[0], kBytes, a.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
          aclrtMemcpy(dev[1], kBytes, b.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        ++failures;
        break;
      }
      if (thread % 2 == 0) {
        launched = aclopCompileAndExecute("Add", 2, in_desc, buffers, 1, out_desc, buffers + 2,
                                          attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream);
      } else {
        launched =
            aclopExecuteV2("Add", 2, in_desc, buffers, 1, out_desc, buffers + 2, attr, stream);
      }
      if (launched != ACL_SUCCESS || aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
          aclrtMemcpy(out.data(), kBytes, dev[2], kBytes, ACL_MEMCPY_DEVICE_TO_HOST) !=
              ACL_SUCCESS) {
        ++failures;
        ADD_FAILURE() << "thread " << thread << " round " << round << ": "
                      << acltest::TakeRecentErrors();
        break;
      }
      for (int64_t i = 0; i < kElems; ++i) {
        if (out[i] != a[i] + b[i]) {
          ++mismatches;
          break;
        }
      }
    }
    aclopDestroyAttr(attr);
    for (int i = 0; i < 3; ++i) {
      aclDestroyDataBuffer(buffers[i]);
      EXPECT_ACL_OK(aclrtFree(dev[i]));
    }
    aclDestroyTensorDesc(desc);
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

// One thread keeps submitting to a stream that another destroys: each call either succeeds
// (and its work is done before the destroy returns) or is refused with the invalid-handle
// code; nothing crashes, nothing hangs.
TEST_F(StressTest, SubmittingToAStreamWhileAnotherThreadDestroysIt) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    aclrtStream stream = nullptr;
    void* dev = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    std::atomic<bool> started{false};
    std::atomic<int> unexpected{0};
    std::thread submitter([&] {
      ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
      for (int i = 0; i < 200; ++i) {
        const aclError err = aclrtMemsetAsync(dev, 4096, i & 0xff, 4096, stream);
        started.store(true);
        if (err == ACL_SUCCESS) continue;
        if (err != ACL_ERROR_RT_INVALID_HANDLE && err != ACL_ERROR_INVALID_PARAM) ++unexpected;
        break;
      }
    });
    while (!started.load()) std::this_thread::yield();
    if (attempt % 2 == 0) {
      EXPECT_ACL_OK(aclrtDestroyStream(stream));
    } else {
      EXPECT_ACL_OK(aclrtDestroyStreamForce(stream));
    }
    submitter.join();
    EXPECT_EQ(unexpected.load(), 0) << acltest::TakeRecentErrors();
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
    EXPECT_ACL_OK(aclrtFree(dev));
  }
}

// aclrtDestroyStreamForce while a host function runs: the running one finishes (the call
// waits for it), the work queued behind it is dropped.
TEST_F(StressTest, DestroyStreamForceWaitsForTheRunningTaskAndDropsTheRest) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  Latch latch;
  std::atomic<bool> running{false}, finished{false}, later_ran{false};
  struct Args {
    Latch* latch;
    std::atomic<bool>* running;
    std::atomic<bool>* finished;
  } args{&latch, &running, &finished};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream,
      [](void* p) {
        auto* a = static_cast<Args*>(p);
        a->running->store(true);
        a->latch->Wait();
        a->finished->store(true);
      },
      &args));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream, [](void* p) { static_cast<std::atomic<bool>*>(p)->store(true); }, &later_ran));
  while (!running.load()) std::this_thread::yield();
  std::atomic<bool> destroyed{false};
  std::thread destroyer([&] {
    EXPECT_ACL_OK(aclrtDestroyStreamForce(stream));
    destroyed.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(destroyed.load());  // still waiting for the running host function
  latch.Release();
  destroyer.join();
  EXPECT_TRUE(finished.load());
  EXPECT_FALSE(later_ran.load());
}

// Plain aclrtResetDevice with work in flight waits for it: the copies queued behind a
// blocked host function land in host memory before the reset returns.
TEST_F(StressTest, ResetDeviceWaitsForWorkInFlight) {
  constexpr size_t kBytes = 64 << 10;
  aclrtStream stream = nullptr;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> in = Pattern(kBytes, 77);
  std::vector<uint8_t> out(kBytes, 0);
  PinnedHost pinned_in(in), pinned_out(out);  // host registrations outlive device resets
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, Latch::WaitFn, &latch));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  std::atomic<bool> reset{false};
  std::thread resetter([&] {
    EXPECT_ACL_OK(aclrtResetDevice(0));
    reset.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(reset.load());  // waits for the blocked stream
  latch.Release();
  resetter.join();
  EXPECT_EQ(FirstMismatch(in.data(), out.data(), kBytes), -1);
  // The device is usable again, with fresh handles.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream, stream);
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_TRUE(acltest::RoundTrip(again, kBytes, 78));
  EXPECT_ACL_OK(aclrtFree(again));
}

// aclrtResetDeviceForce with work that cannot start (the stream waits for an event nobody
// records) returns at once and drops it: the queued copy and host function never run.
TEST_F(StressTest, ResetDeviceForceDropsWorkThatCannotStart) {
  constexpr size_t kBytes = 4096;
  aclrtStream stream = nullptr;
  aclrtEvent never = nullptr;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&never));
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, kBytes, 0x5a, kBytes));
  std::vector<uint8_t> out(kBytes, 0);
  PinnedHost pinned_out(out);
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, never));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream, [](void* p) { static_cast<std::atomic<bool>*>(p)->store(true); }, &ran));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_FALSE(ran.load());
  EXPECT_EQ(std::count(out.begin(), out.end(), 0), static_cast<long>(kBytes));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream, stream);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_TRUE(acltest::RoundTrip(again, kBytes, 79));
  EXPECT_ACL_OK(aclrtFree(again));
}

// Several threads reset and set the same device while others use it through their own
// references (aclrtSetDevice counts references): work of a thread whose reference is alive
// is never lost.
TEST_F(StressTest, ReferenceCountedResetsDoNotDisturbOtherThreads) {
  constexpr size_t kBytes = 16 << 10;
  std::atomic<int> mismatches{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        if (aclrtSetDevice(1) != ACL_SUCCESS) {
          ++failures;
          ADD_FAILURE() << "aclrtSetDevice(1): " << acltest::TakeRecentErrors();
          return;
        }
        aclrtStream stream = nullptr;
        void* dev = nullptr;
        std::vector<uint8_t> in = Pattern(kBytes, static_cast<uint32_t>(t * 50 + round));
        std::vector<uint8_t> out(kBytes, 0);
        bool ok =
            aclrtCreateStream(&stream) == ACL_SUCCESS &&
            aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
            aclrtMemcpy(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
            aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) ==
                ACL_SUCCESS &&
            aclrtFree(dev) == ACL_SUCCESS && aclrtDestroyStream(stream) == ACL_SUCCESS;
        if (!ok) {
          ++failures;
          ADD_FAILURE() << "thread " << t << " round " << round << ": "
                        << acltest::TakeRecentErrors();
        }
        if (FirstMismatch(in.data(), out.data(), kBytes) != -1) ++mismatches;
        if (aclrtResetDevice(1) != ACL_SUCCESS) {
          ++failures;
          ADD_FAILURE() << "aclrtResetDevice(1): " << acltest::TakeRecentErrors();
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

// aclrtResetDeviceForce while other threads are blocked synchronising with work that can
// never run (a wait on an event nobody records): the forced reset drops the work, and every
// blocked stream, event and device synchronisation returns (with an error or success, but
// returns) instead of hanging or touching a closed device.
TEST_F(StressTest, ForcedResetReleasesThreadsBlockedInSynchronisation) {
  aclrtStream stream = nullptr;
  aclrtEvent never = nullptr, after = nullptr;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&never));
  ASSERT_ACL_OK(aclrtCreateEvent(&after));
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, never));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev, 4096, 1, 4096, stream));
  ASSERT_ACL_OK(aclrtRecordEvent(after, stream));
  std::atomic<int> entered{0}, returned{0};
  std::vector<std::thread> waiters;
  for (int kind = 0; kind < 3; ++kind) {
    waiters.emplace_back([&, kind] {
      ASSERT_ACL_OK(aclrtSetCurrentContext(context_));
      ++entered;
      if (kind == 0) (void)aclrtSynchronizeStream(stream);
      if (kind == 1) (void)aclrtSynchronizeEvent(after);
      if (kind == 2) (void)aclrtSynchronizeDevice();
      ++returned;
    });
  }
  while (entered.load() < 3) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let them block (best effort)
  EXPECT_EQ(returned.load(), 0);
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  for (auto& waiter : waiters) waiter.join();
  EXPECT_EQ(returned.load(), 3);
  // The device comes back clean.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_TRUE(acltest::RoundTrip(again, 4096, 80));
  EXPECT_ACL_OK(aclrtFree(again));
}

}  // namespace
