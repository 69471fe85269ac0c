// Limits, timeouts, queue destruction, device destruction, failures and fault injection.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using namespace aclsim::sim::testing;

// A latch a host function blocks on until the test opens it.
class Gate {
 public:
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return open_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

TEST(SimLifecycleTest, SyncTimeoutsWithABlockingHostFunction) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  driver::EventId event = NewEvent(*device);
  Gate gate;
  SubmitOk(*device, q, HostFunc([&gate] { gate.Wait(); }));
  SubmitOk(*device, q, EventTask(TaskKind::kEventRecord, event));
  Status queue = device->SyncQueue(q, 20);
  EXPECT_EQ(queue.code(), StatusCode::kStreamSyncTimeout);
  EXPECT_NE(queue.message().find("20 ms"), std::string::npos) << queue.message();
  EXPECT_NE(queue.message().find("queue"), std::string::npos);
  Status ev = device->SyncEvent(event, 20);
  EXPECT_EQ(ev.code(), StatusCode::kEventSyncTimeout);
  EXPECT_NE(ev.message().find("event"), std::string::npos);
  EXPECT_EQ(device->SyncDevice(20).code(), StatusCode::kStreamSyncTimeout);
  gate.Open();
  EXPECT_OK(device->SyncQueue(q, -1));
  EXPECT_OK(device->SyncEvent(event, 0));
  EXPECT_OK(device->SyncDevice(1000000));
}

TEST(SimLifecycleTest, StreamLimitIsTheSocsLimit) {
  auto driver = MakeBackend("sim", {{"soc", "Ascend310P3"}});
  auto device = Open(*driver);
  std::vector<QueueId> queues;
  for (uint32_t i = 0; i < device->props().max_streams; ++i) {
    QueueId q = 0;
    ASSERT_OK(device->CreateQueue({}, &q));
    queues.push_back(q);
  }
  QueueId extra = 0;
  Status status = device->CreateQueue({}, &extra);
  EXPECT_EQ(status.code(), StatusCode::kNoStreamResource);
  EXPECT_NE(status.message().find("1024"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("Ascend310P3"), std::string::npos) << status.message();
  ASSERT_OK(device->DestroyQueue(queues[5], false));
  ASSERT_OK(device->CreateQueue({}, &extra));
  EXPECT_EQ(extra, queues[5]);  // ids are reused, lowest first
}

TEST(SimLifecycleTest, EventLimitIsTheSocsLimit) {
  auto driver = MakeBackend("sim", {{"soc", "Ascend310P3"}});
  auto device = Open(*driver);
  for (uint32_t i = 0; i < 1023; ++i) NewEvent(*device);
  driver::EventId extra = 0;
  Status status = device->CreateEvent(0, &extra);
  EXPECT_EQ(status.code(), StatusCode::kNoEventResource);
  EXPECT_NE(status.message().find("1023"), std::string::npos) << status.message();
  ASSERT_OK(device->DestroyEvent(7));
  ASSERT_OK(device->CreateEvent(0, &extra));
}

class SimLifecycleBackendTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SimLifecycleBackendTest, ForcedDestroyDropsUnstartedWork) {
  auto driver = MakeBackend(GetParam());
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  QueueId other = NewQueue(*device);
  driver::EventId event = NewEvent(*device);
  std::atomic<uint64_t> started{0};
  std::atomic<int> ran{0};
  SubmitOk(*device, q, External(&started));  // running: destroy waits for it
  for (int i = 0; i < 3; ++i) SubmitOk(*device, q, HostFunc([&] { ran++; }));
  SubmitOk(*device, q, EventTask(TaskKind::kEventRecord, event));
  SubmitOk(*device, other, EventTask(TaskKind::kEventWait, event));
  while (started.load() == 0) std::this_thread::yield();

  auto destroyed = std::async(std::launch::async, [&] { return device->DestroyQueue(q, true); });
  // The dropped record completes (as aborted) and wakes the waiter on the other queue.
  while (!device->QueryEvent(event).complete) std::this_thread::yield();
  EXPECT_OK(device->SyncQueue(other, -1));
  device->CompleteExternal(started.load(), Status::Ok());
  EXPECT_OK(destroyed.get());
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(device->Submit(q, HostFunc([] {}), nullptr).code(), StatusCode::kInvalidHandle);
}

TEST_P(SimLifecycleBackendTest, DestroyWithoutForceWaitsForIdle) {
  auto driver = MakeBackend(GetParam());
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  std::atomic<uint64_t> started{0};
  std::atomic<int> ran{0};
  SubmitOk(*device, q, External(&started));
  SubmitOk(*device, q, HostFunc([&] { ran = 1; }));
  while (started.load() == 0) std::this_thread::yield();
  auto destroyed = std::async(std::launch::async, [&] { return device->DestroyQueue(q, false); });
  device->CompleteExternal(started.load(), Status::Ok());
  EXPECT_OK(destroyed.get());
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(SimLifecycleBackendTest, FaultInjectionReachesTheHandlerAndSyncQueue) {
  auto driver = MakeBackend(GetParam(), {{"fault_fail_task", "2"}});
  auto device = Open(*driver);
  std::mutex mu;
  std::vector<driver::TaskFailure> failures;
  device->SetFailureHandler([&](const driver::TaskFailure& f) {
    std::lock_guard<std::mutex> lock(mu);
    failures.push_back(f);
  });
  QueueId q = NewQueue(*device);
  std::atomic<int> kernel_ran{0}, after_ran{0};
  SubmitOk(*device, q, HostFunc([] {}));
  EXPECT_EQ(SubmitOk(*device, q,
                     Kernel(
                         4, 100, 0, [&] { kernel_ran = 1; }, "MatMul")),
            2u);
  SubmitOk(*device, q, HostFunc([&] { after_ran = 1; }));
  while (!device->QueryQueue(q).idle) std::this_thread::yield();
  EXPECT_FALSE(device->QueryQueue(q).error.ok());

  Status status = device->SyncQueue(q, -1);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed);
  EXPECT_NE(status.message().find("device 0"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("queue " + std::to_string(q)), std::string::npos);
  EXPECT_NE(status.message().find("task 2"), std::string::npos);
  EXPECT_NE(status.message().find("MatMul"), std::string::npos);
  EXPECT_OK(device->SyncQueue(q, -1));  // reported once
  EXPECT_EQ(kernel_ran.load(), 0);      // failed instead of executing
  EXPECT_EQ(after_ran.load(), 1);       // the queue continued
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].device_id, 0u);
  EXPECT_EQ(failures[0].queue, q);
  EXPECT_EQ(failures[0].task_id, 2u);
  EXPECT_EQ(failures[0].error_code, 507015u);
}

TEST_P(SimLifecycleBackendTest, FailedCopiesAndHostFunctionsUseTheirCodes) {
  auto driver = MakeBackend(GetParam(), {{"fault_fail_task", "1"}});
  auto device = Open(*driver);
  std::vector<uint32_t> codes;
  std::mutex mu;
  device->SetFailureHandler([&](const driver::TaskFailure& f) {
    std::lock_guard<std::mutex> lock(mu);
    codes.push_back(f.error_code);
  });
  QueueId q = NewQueue(*device);
  uint8_t a[8] = {1}, b[8] = {};
  SubmitOk(*device, q, Copy(b, a, 8, CopyDir::kHostToHost));  // task 1: injected
  SubmitOk(*device, q, HostFunc([] { throw std::runtime_error("boom"); }));
  std::atomic<uint64_t> started{0};
  SubmitOk(*device, q, External(&started));
  while (started.load() == 0) std::this_thread::yield();
  device->CompleteExternal(started.load(), Err(StatusCode::kInternal, "external said no"));
  Status status = device->SyncQueue(q, -1);
  EXPECT_EQ(status.code(), StatusCode::kTaskFailed);  // the first failure
  EXPECT_NE(status.message().find("fault injected"), std::string::npos) << status.message();
  EXPECT_EQ(b[0], 0);
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(codes, (std::vector<uint32_t>{507013, 507000, 507000}));
}

TEST_P(SimLifecycleBackendTest, SyncDeviceReportsAFailureOnce) {
  auto driver = MakeBackend(GetParam(), {{"fault_fail_task", "1"}});
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  SubmitOk(*device, q, HostFunc([] {}));
  EXPECT_EQ(device->SyncDevice(-1).code(), StatusCode::kTaskFailed);
  EXPECT_OK(device->SyncDevice(-1));
  EXPECT_OK(device->SyncQueue(q, -1));
}

TEST_P(SimLifecycleBackendTest, ClosingADeviceDropsBlockedWork) {
  auto driver = MakeBackend(GetParam(), {{"device_count", "2"}});
  auto device = Open(*driver);
  auto other = Open(*driver, 1);
  QueueId q = NewQueue(*device);
  QueueId q1 = NewQueue(*other);
  driver::EventId never = NewEvent(*device);
  driver::EventId remote = NewEvent(*device);
  std::atomic<int> ran{0};
  std::atomic<uint64_t> started{0};
  SubmitOk(*device, q, EventTask(TaskKind::kEventWait, never));  // never recorded
  SubmitOk(*device, q, HostFunc([&] { ran = 1; }));
  QueueId q2 = NewQueue(*device);
  SubmitOk(*device, q2, External(&started));                         // never completed
  SubmitOk(*other, q1, EventTask(TaskKind::kEventWait, remote, 0));  // waits on device 0
  while (started.load() == 0) std::this_thread::yield();
  device.reset();  // must not hang
  EXPECT_EQ(ran.load(), 0);
  EXPECT_OK(other->SyncQueue(q1, -1));  // released by the close
}

TEST_P(SimLifecycleBackendTest, SyncOnADroppedRecordReportsTheAbort) {
  auto driver = MakeBackend(GetParam());
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  driver::EventId never = NewEvent(*device);
  driver::EventId event = NewEvent(*device);
  SubmitOk(*device, q, EventTask(TaskKind::kEventWait, never));
  SubmitOk(*device, q, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device->DestroyQueue(q, true));
  EXPECT_EQ(device->SyncEvent(event, -1).code(), StatusCode::kDeviceTaskAbort);
  EXPECT_TRUE(device->QueryEvent(event).complete);
}

INSTANTIATE_TEST_SUITE_P(Backends, SimLifecycleBackendTest, ::testing::Values("sim", "sim-inline"),
                         BackendParamName);

TEST(SimLifecycleTest, OptionsAreValidated) {
  driver::DriverRegistry registry;
  RegisterSimBackends(registry);
  EXPECT_TRUE(registry.Has("sim"));
  EXPECT_TRUE(registry.Has("sim-inline"));
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"device_count", "abc"},
                                                        {"device_count", "0"},
                                                        {"workers", "-1"},
                                                        {"workers", "2x"},
                                                        {"hbm_bytes", "12"},
                                                        {"fault_fail_task", ""}}) {
    auto created = registry.Create("sim", {{key, value}});
    ASSERT_FALSE(created.ok()) << key << "=" << value;
    EXPECT_EQ(created.status().code(), StatusCode::kInvalidParam);
    EXPECT_NE(created.status().message().find(key), std::string::npos);
  }
  auto created = registry.Create("sim-inline", {{"device_count", "3"}, {"unrelated", "x"}});
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(created.value()->DeviceCount(), 3u);
  EXPECT_EQ(created.value()->name(), "sim-inline");
}

}  // namespace
}  // namespace aclsim::sim
