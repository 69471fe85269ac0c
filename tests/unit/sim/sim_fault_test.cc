// Fault injection (backend_config.h): failed allocations, AI Core exceptions, slow DMA and a
// lost device, on both sim backends.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

class SimFaultTest : public ::testing::TestWithParam<std::string> {
 protected:
  struct Failures {
    std::mutex mu;
    std::vector<driver::TaskFailure> list;
    size_t size() {
      std::lock_guard<std::mutex> lock(mu);
      return list.size();
    }
  };
  static void Watch(Device& device, Failures* failures) {
    device.SetFailureHandler([failures](const driver::TaskFailure& f) {
      std::lock_guard<std::mutex> lock(failures->mu);
      failures->list.push_back(f);
    });
  }
};

TEST_P(SimFaultTest, FailTheNthAllocation) {
  auto driver = MakeBackend(GetParam(), {{"fault_fail_alloc", "3"}});
  auto device = Open(*driver);
  // Every allocation the program asks for counts (CheckAllocation), and aclrtMallocPhysical's
  // CreatePhysical: the third of them fails, whichever path it takes.
  EXPECT_OK(device->CheckAllocation(4096));
  uint64_t handle = 0;
  EXPECT_OK(device->CreatePhysical(MemPool::kHbm, PageSize::k2M, 2 << 20, &handle));
  Status third = device->CheckAllocation(4096);
  EXPECT_EQ(third.code(), StatusCode::kDeviceOom);
  EXPECT_NE(third.message().find("fault_fail_alloc"), std::string::npos) << third.message();
  EXPECT_OK(device->CheckAllocation(4096));
  // The backend's own page allocations are not the program's: never counted.
  for (int i = 0; i < 4; ++i) {
    void* p = nullptr;
    EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 4096, &p));
    EXPECT_OK(device->FreePhysical(p));
  }
  EXPECT_OK(device->DestroyPhysical(handle));
}

TEST_P(SimFaultTest, AiCoreExceptionOnTheNthKernel) {
  auto driver = MakeBackend(GetParam(), {{"fault_aicore_exception", "2"}});
  auto device = Open(*driver);
  Failures failures;
  Watch(*device, &failures);
  QueueId q = NewQueue(*device);
  std::atomic<int> ran{0};
  SubmitOk(*device, q, HostFunc([] {}));  // not a kernel: not counted
  SubmitOk(*device, q,
           Kernel(
               1, 100, 0, [&] { ++ran; }, "first"));
  const uint64_t second = SubmitOk(*device, q,
                                   Kernel(
                                       1, 100, 0, [&] { ++ran; }, "Conv2D"));
  SubmitOk(*device, q,
           Kernel(
               1, 100, 0, [&] { ++ran; }, "third"));
  Status status = device->SyncQueue(q, -1);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed);
  EXPECT_EQ(status.detail(), 507015u);
  EXPECT_NE(status.message().find("Conv2D"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("fault_aicore_exception"), std::string::npos);
  EXPECT_EQ(ran.load(), 2);
  std::lock_guard<std::mutex> lock(failures.mu);
  ASSERT_EQ(failures.list.size(), 1u);
  EXPECT_EQ(failures.list[0].task_id, second);
  EXPECT_EQ(failures.list[0].error_code, 507015u);
}

// Simulated duration of one 8 MiB copy in `dir` with the given options.
uint64_t CopyTime(const std::string& backend, CopyDir dir, BackendOptions options) {
  auto driver = MakeBackend(backend, std::move(options));
  auto device = Open(*driver);
  constexpr size_t kBytes = 8u << 20;
  void* d = nullptr;
  EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBytes, &d));
  std::vector<uint8_t> host(kBytes);
  QueueId q = NewQueue(*device);
  const uint64_t t0 = device->HostClockNs();
  SubmitOk(*device, q,
           dir == CopyDir::kHostToDevice ? Copy(d, host.data(), kBytes, dir)
                                         : Copy(host.data(), d, kBytes, dir));
  EXPECT_OK(device->SyncQueue(q, -1));
  return device->HostClockNs() - t0;
}

TEST_P(SimFaultTest, SlowDmaEngineByAFactor) {
  const uint64_t submit = 3000;  // api_submit_cost_ns of the default profile
  const uint64_t normal = CopyTime(GetParam(), CopyDir::kHostToDevice, {}) - submit;
  const uint64_t slow =
      CopyTime(GetParam(), CopyDir::kHostToDevice, {{"fault_slow_dma", "h2d:4"}}) - submit;
  EXPECT_EQ(slow, 4 * normal);
  // Other engines are unaffected.
  EXPECT_EQ(CopyTime(GetParam(), CopyDir::kDeviceToHost, {{"fault_slow_dma", "h2d:4"}}),
            CopyTime(GetParam(), CopyDir::kDeviceToHost, {}));
}

TEST_P(SimFaultTest, LostDeviceFailsEveryLaterCallAndReportsTheTask) {
  auto driver = MakeBackend(GetParam(), {{"fault_device_lost", "2"}});
  auto device = Open(*driver);
  Failures failures;
  Watch(*device, &failures);
  QueueId q = NewQueue(*device);
  std::atomic<int> ran{0};
  std::atomic<uint64_t> started{0};
  // Task 1 holds the queue until tasks 2 and 3 are submitted.
  const uint64_t blocker = SubmitOk(*device, q, External(&started));
  const uint64_t lost_task = SubmitOk(*device, q, Kernel(1, 100, 0, [&] { ++ran; }));
  SubmitOk(*device, q, HostFunc([&] { ++ran; }));  // submitted before the loss
  while (started.load() == 0) std::this_thread::yield();
  device->CompleteExternal(blocker, Status::Ok());
  while (!device->QueryQueue(q).idle) std::this_thread::yield();
  EXPECT_EQ(ran.load(), 0);
  {
    std::lock_guard<std::mutex> lock(failures.mu);
    ASSERT_EQ(failures.list.size(), 1u);  // the exception callback fires once
    EXPECT_EQ(failures.list[0].task_id, lost_task);
    EXPECT_EQ(failures.list[0].error_code, driver::kDeviceLostCode);
  }
  auto expect_lost = [](const Status& status, const char* what) {
    EXPECT_EQ(status.detail(), driver::kDeviceLostCode) << what << ": " << status.message();
    EXPECT_NE(status.message().find("lost"), std::string::npos) << what;
  };
  uint64_t id = 0;
  expect_lost(device->Submit(q, HostFunc([] {}), &id), "Submit");
  expect_lost(device->SyncQueue(q, -1), "SyncQueue");
  expect_lost(device->SyncDevice(-1), "SyncDevice");
  void* p = nullptr;
  expect_lost(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 4096, &p), "AllocPhysical");
  QueueId q2 = 0;
  expect_lost(device->CreateQueue({}, &q2), "CreateQueue");
  driver::EventId e = 0;
  expect_lost(device->CreateEvent(0, &e), "CreateEvent");
  EXPECT_OK(device->DestroyQueue(q, false));  // teardown still works
  EXPECT_EQ(failures.size(), 1u);
}

TEST(SimFaultOptionsTest, SlowDmaNeedsAnEngineAndAFactor) {
  driver::DriverRegistry registry;
  RegisterSimBackends(registry);
  for (const char* bad : {"h2d", "x:2", "h2d:0", "h2d:abc", "d2d:1001"}) {
    auto created = registry.Create("sim", {{"fault_slow_dma", bad}});
    EXPECT_EQ(created.status().code(), StatusCode::kInvalidParam) << bad;
  }
  EXPECT_TRUE(registry.Create("sim", {{"fault_slow_dma", "peer:2"}}).ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, SimFaultTest, ::testing::Values("sim", "sim-inline"),
                         BackendParamName);

}  // namespace
}  // namespace aclsim::sim
