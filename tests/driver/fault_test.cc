// Fault injection (IREE's CTS habit: faults through backend options, not mocks). The option
// names are the sim backends' (sim/backend_config.h); a backend that does not inject faults
// is left out of this suite's instantiation.
//   fault_fail_alloc N        the device's Nth CheckAllocation / CreatePhysical fails (kDeviceOom)
//   fault_aicore_exception N  the device's Nth kernel fails (507015) instead of executing
//   fault_slow_dma e:f        tasks on DMA engine e take f times longer
//   fault_device_lost N       the device is lost when its task N starts (driver.h)
// (fault_fail_task is covered by failure_test.cc.)
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class FaultTest : public DriverTest {
 protected:
  void SetUp() override {}  // each test builds its backend with its fault options
};

constexpr uint32_t kAicoreExceptionCode = 507015;  // ACL_ERROR_RT_AICORE_EXCEPTION

TEST_P(FaultTest, NthAllocationFailsWithDeviceOom) {
  auto driver = MakeDriver({{"fault_fail_alloc", "3"}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  std::vector<void*> ok;
  for (int i = 1; i <= 5; ++i) {
    SCOPED_TRACE(i);
    void* addr = nullptr;
    Status status = device->CheckAllocation(4096);
    if (status.ok()) status = device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 4096, &addr);
    if (i == 3) {
      EXPECT_EQ(status.code(), StatusCode::kDeviceOom) << status.message();
    } else {
      EXPECT_TRUE(status.ok()) << status.message();
      ok.push_back(addr);
    }
  }
  size_t free_bytes = 0;
  size_t total = 0;
  device->PoolUsage(MemPool::kHbm, &free_bytes, &total);
  EXPECT_EQ(free_bytes, total - ok.size() * 4096);
  for (void* p : ok) ACLSIM_EXPECT_OK(device->FreePhysical(p));
}

TEST_P(FaultTest, NthKernelRaisesAnAicoreException) {
  auto driver = MakeDriver({{"fault_aicore_exception", "2"}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  std::mutex mu;
  std::vector<TaskFailure> failures;
  device->SetFailureHandler([&](const TaskFailure& f) {
    std::lock_guard<std::mutex> lock(mu);
    failures.push_back(f);
  });
  QueueId q = NewQueue(*device);
  std::atomic<int> ran{0};
  SubmitOk(*device, q, HostFuncTask([] {}));  // not a kernel: not counted
  SubmitOk(*device, q, KernelTask([&ran] { ran += 1; }));
  const uint64_t faulty = SubmitOk(*device, q, KernelTask([&ran] { ran += 10; }));
  SubmitOk(*device, q, KernelTask([&ran] { ran += 100; }));
  Status status = device->SyncQueue(q, kSyncLimitMs);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed) << status.message();
  EXPECT_EQ(status.detail(), kAicoreExceptionCode);
  EXPECT_EQ(ran.load(), 101) << "the faulty kernel ran, or the queue stopped";
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].task_id, faulty);
  EXPECT_EQ(failures[0].queue, q);
  EXPECT_EQ(failures[0].error_code, kAicoreExceptionCode);
}

// A slowed engine makes its copies take longer by the factor; other engines are unaffected.
TEST_P(FaultTest, SlowDmaStretchesThatEngineOnly) {
  constexpr size_t kBytes = 4 * kMiB;
  constexpr uint64_t kFactor = 10;
  auto measure = [&](const BackendOptions& options, CopyDir dir) -> uint64_t {
    auto driver = MakeDriver(options);
    if (driver == nullptr) return 0;
    auto device = OpenDevice(*driver, 0);
    if (device == nullptr) return 0;
    QueueId q = NewQueue(*device);
    EventId e = NewEvent(*device);
    std::vector<uint8_t> host(kBytes, 1);
    void* d = Alloc(*device, kBytes);
    auto span = [&](bool with_copy) {
      const uint64_t t0 = device->HostClockNs();
      if (with_copy) {
        SubmitOk(*device, q,
                 dir == CopyDir::kHostToDevice ? CopyTask(d, host.data(), kBytes, dir)
                                               : CopyTask(host.data(), d, kBytes, dir));
      }
      SubmitOk(*device, q, RecordTask(e));
      SyncOk(*device, q);
      return Timestamp(*device, e) - t0;
    };
    const uint64_t overhead = span(false);
    return span(true) - overhead;  // the copy's share of the span
  };
  const BackendOptions slow = {{"fault_slow_dma", "h2d:" + std::to_string(kFactor)}};
  const uint64_t h2d = measure({}, CopyDir::kHostToDevice);
  const uint64_t h2d_slow = measure(slow, CopyDir::kHostToDevice);
  const uint64_t d2h = measure({}, CopyDir::kDeviceToHost);
  const uint64_t d2h_other = measure(slow, CopyDir::kDeviceToHost);
  ASSERT_GT(h2d, 0u);
  EXPECT_GE(h2d_slow, h2d * (kFactor - 1)) << "h2d " << h2d << " slowed " << h2d_slow;
  EXPECT_LE(h2d_slow, h2d * (kFactor + 1)) << "h2d " << h2d << " slowed " << h2d_slow;
  EXPECT_EQ(d2h_other, d2h);
}

TEST_P(FaultTest, MalformedFaultOptionsAreInvalidParam) {
  for (const char* bad : {"h2d", "h2d:", "h2d:0", "h2d:1001", "x2y:2", ":3", "h2d:2x"}) {
    SCOPED_TRACE(bad);
    ACLSIM_EXPECT_CODE(CreateBackend(GetParam(), {{"fault_slow_dma", bad}}).status(),
                       StatusCode::kInvalidParam);
  }
  ACLSIM_EXPECT_CODE(CreateBackend(GetParam(), {{"fault_device_lost", "x"}}).status(),
                     StatusCode::kInvalidParam);
  ACLSIM_EXPECT_CODE(CreateBackend(GetParam(), {{"fault_fail_alloc", "-1"}}).status(),
                     StatusCode::kInvalidParam);
}

// driver.h: "a lost device fails every later call with a Status whose detail() is
// kDeviceLostCode, and reports the task that was running through the failure handler".
TEST_P(FaultTest, LostDeviceFailsLaterCallsWithTheLostCode) {
  auto driver = MakeDriver({{"fault_device_lost", "3"}});
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  std::mutex mu;
  std::vector<TaskFailure> failures;
  device->SetFailureHandler([&](const TaskFailure& f) {
    std::lock_guard<std::mutex> lock(mu);
    failures.push_back(f);
  });
  QueueId q = NewQueue(*device);
  QueueId spare = NewQueue(*device);
  EventId e = NewEvent(*device);
  auto* d = static_cast<uint8_t*>(Alloc(*device, 3 * 4096));
  ASSERT_NE(d, nullptr);
  std::memset(d, 0, 3 * 4096);
  std::atomic<int> ran{0};
  {
    // Everything is queued before the loss (a lost device refuses submissions).
    Blocker held(*device, q);                                    // 1
    SubmitOk(*device, q, MemsetTask(d, 1, 4096));                // 2
    SubmitOk(*device, q, HostFuncTask([&ran] { ran += 100; }));  // 3: the device is lost
    SubmitOk(*device, q, MemsetTask(d + 8192, 3, 4096));         // 4: completes, not run
    SubmitOk(*device, q, RecordTask(e));                         // 5
    held.Release();
  }
  Status status = device->SyncQueue(q, kSyncLimitMs);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.detail(), kDeviceLostCode) << status.message();
  EXPECT_EQ(ran.load(), 0) << "the task that lost the device ran";
  EXPECT_EQ(d[0], 1);
  EXPECT_EQ(d[8192], 0) << "a task after the loss executed";
  {
    std::lock_guard<std::mutex> lock(mu);
    ASSERT_GE(failures.size(), 1u);
    EXPECT_EQ(failures[0].task_id, 3u);
    EXPECT_EQ(failures[0].queue, q);
    EXPECT_EQ(failures[0].error_code, kDeviceLostCode);
  }
  auto expect_lost = [](const Status& st, const char* what) {
    EXPECT_FALSE(st.ok()) << what;
    EXPECT_EQ(st.detail(), kDeviceLostCode) << what << ": " << st.message();
  };
  uint64_t id = 0;
  QueueId q2 = 0;
  EventId e2 = 0;
  void* addr = nullptr;
  expect_lost(device->Submit(spare, HostFuncTask([] {}), &id), "Submit");
  expect_lost(device->CreateQueue({}, &q2), "CreateQueue");
  expect_lost(device->CreateEvent(0, &e2), "CreateEvent");
  expect_lost(device->AllocPhysical(MemPool::kHbm, PageSize::k4K, 4096, &addr), "AllocPhysical");
  expect_lost(device->SyncQueue(q, kSyncLimitMs), "SyncQueue");
  expect_lost(device->SyncQueue(spare, kSyncLimitMs), "SyncQueue(idle queue)");
  expect_lost(device->SyncEvent(e, kSyncLimitMs), "SyncEvent");
  expect_lost(device->SyncDevice(kSyncLimitMs), "SyncDevice");
}

// The loss is per device: another device of the backend keeps working.
TEST_P(FaultTest, LostDeviceDoesNotAffectOtherDevices) {
  auto driver = MakeDriver({{"fault_device_lost", "2"}});
  ASSERT_NE(driver, nullptr);
  auto d0 = OpenDevice(*driver, 0);
  auto d1 = OpenDevice(*driver, 1);
  ASSERT_NE(d0, nullptr);
  ASSERT_NE(d1, nullptr);
  d0->SetFailureHandler([](const TaskFailure&) {});
  QueueId q0 = NewQueue(*d0);
  QueueId q1 = NewQueue(*d1);
  SubmitOk(*d0, q0, HostFuncTask([] {}));
  SubmitOk(*d0, q0, HostFuncTask([] {}));  // device 0 lost
  EXPECT_EQ(d0->SyncQueue(q0, kSyncLimitMs).detail(), kDeviceLostCode);
  std::atomic<bool> ran{false};
  SubmitOk(*d1, q1, HostFuncTask([&ran] { ran = true; }));  // device 1's task 1
  ACLSIM_EXPECT_OK(d1->SyncQueue(q1, kSyncLimitMs));
  EXPECT_TRUE(ran.load());
}

ACLSIM_CONFORMANCE_SUITE(FaultTest);

}  // namespace
}  // namespace aclsim::driver::conformance
