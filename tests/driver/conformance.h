// The driver conformance suite: shared fixture and helpers.
//
// Every test is value-parameterised by a backend name and runs against every backend listed
// in ACLSIM_CONFORMANCE_BACKENDS (IREE's CTS idea: one suite, every driver). A test builds
// its own DriverRegistry, Driver and Devices, so tests are independent and may run in any
// order or in separate processes. Tests check the contract written in driver/driver.h and
// driver/task.h, never a backend's internals.
//
// Adding a backend: register it in RegisterConformanceBackends and add its name to
// ACLSIM_CONFORMANCE_BACKENDS. Test names: DriverConformance/<Suite>.<Case>/<backend>
// (gtest allows only [A-Za-z0-9_] in a parameter name, so "sim-inline" shows as sim_inline).
//
// Conventions:
//  * Tests never assert a wall-clock time. Where a test must wait for something a backend
//    thread does, it waits with a generous wall-clock limit (kWaitLimit) so that a backend
//    bug fails the test instead of hanging it. Where a test checks that something has NOT
//    happened yet, it looks after a short pause (kSettle): a correct backend always passes,
//    an incorrect one is caught with high probability.
//  * A synchronous backend (sim-inline) runs a ready task in the thread that made it ready
//    (inside Submit, CompleteExternal, Sync*). So a host function that blocks is only ever
//    submitted from a helper thread (HeldHostFunc); otherwise a queue is held with a
//    kExternal task (Blocker), which never blocks anyone.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "driver/driver.h"
#include "driver/registry.h"

namespace aclsim::driver::conformance {

// The backends every test runs against. A new backend is one more value.
#define ACLSIM_CONFORMANCE_BACKENDS ::testing::Values("sim", "sim-inline")

// Instantiates a value-parameterised suite for every backend.
#define ACLSIM_CONFORMANCE_SUITE(suite)                                           \
  INSTANTIATE_TEST_SUITE_P(DriverConformance, suite, ACLSIM_CONFORMANCE_BACKENDS, \
                           ::aclsim::driver::conformance::BackendParamName)

// Registers every backend the suite knows into `registry`.
void RegisterConformanceBackends(DriverRegistry& registry);

// gtest parameter name for a backend: non-alphanumerics become '_'.
std::string BackendParamName(const ::testing::TestParamInfo<std::string>& info);

constexpr uint64_t kKiB = uint64_t{1} << 10;
constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// Wall-clock limits (never assertions about speed).
constexpr std::chrono::milliseconds kWaitLimit{30000};  // "this should happen": hang guard
constexpr int32_t kSyncLimitMs = 30000;                 // timeout_ms for Sync* that must succeed
constexpr std::chrono::milliseconds kSettle{30};        // pause before "not happened yet" checks
constexpr int32_t kShortTimeoutMs = 50;                 // timeout_ms for Sync* that must time out

#define ACLSIM_ASSERT_OK(expr)                                             \
  do {                                                                     \
    ::aclsim::Status _aclsim_st = (expr);                                  \
    ASSERT_TRUE(_aclsim_st.ok()) << #expr << ": " << _aclsim_st.message(); \
  } while (0)
#define ACLSIM_EXPECT_OK(expr)                                             \
  do {                                                                     \
    ::aclsim::Status _aclsim_st = (expr);                                  \
    EXPECT_TRUE(_aclsim_st.ok()) << #expr << ": " << _aclsim_st.message(); \
  } while (0)
#define ACLSIM_EXPECT_CODE(expr, expected_code)                                             \
  do {                                                                                      \
    ::aclsim::Status _aclsim_st = (expr);                                                   \
    EXPECT_EQ(_aclsim_st.code(), (expected_code)) << #expr << ": " << _aclsim_st.message(); \
  } while (0)

// --- task builders --------------------------------------------------------------------
Task CopyTask(void* dst, const void* src, size_t bytes, CopyDir dir);
Task Copy2dTask(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                size_t height, CopyDir dir);
Task MemsetTask(void* dst, int value, size_t bytes);
Task HostFuncTask(std::function<void()> fn);
Task KernelTask(std::function<void()> fn, uint32_t blocks = 1);
Task RecordTask(EventId event);
Task ResetTask(EventId event);
// A wait on `event` of device `event_device` (the device that created the event).
Task WaitTask(EventId event, uint32_t event_device);

// --- synchronisation helpers for the test itself --------------------------------------
// A one-shot flag, set from any thread.
class Flag {
 public:
  void Set();
  bool IsSet() const;
  // True once set; false if `limit` passed first.
  bool WaitFor(std::chrono::milliseconds limit = kWaitLimit) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool set_ = false;
};

// An ordered log that tasks append to from backend threads.
class Log {
 public:
  void Add(int value);
  std::vector<int> Get() const;
  size_t Size() const;

 private:
  mutable std::mutex mu_;
  std::vector<int> values_;
};

// Holds a queue: a kExternal task whose completion the test controls. external_start only
// records that it was called; Release completes the task (from the calling thread).
class Blocker {
 public:
  // Submits the task to `queue` of `device`.
  Blocker(Device& device, QueueId queue);
  // Releases the task if the test has not.
  ~Blocker();
  Blocker(const Blocker&) = delete;
  Blocker& operator=(const Blocker&) = delete;

  uint64_t task_id() const { return task_id_; }
  bool submitted() const { return submitted_; }
  // True once external_start has been called.
  bool Started() const { return started_->IsSet(); }
  bool WaitStarted() const { return started_->WaitFor(); }
  int start_calls() const { return start_calls_->load(); }
  // Waits until started, then CompleteExternal(task_id, status). Once only.
  void Release(Status status = Status::Ok());
  // As Release, from a new thread after `delay`; joined by the destructor or Join.
  void ReleaseLater(std::chrono::milliseconds delay, Status status = Status::Ok());
  void Join();

 private:
  Device& device_;
  uint64_t task_id_ = 0;
  bool submitted_ = false;
  bool released_ = false;
  std::shared_ptr<Flag> started_ = std::make_shared<Flag>();
  std::shared_ptr<std::atomic<int>> start_calls_ = std::make_shared<std::atomic<int>>(0);
  std::thread releaser_;
};

// A host function that blocks until the test opens it, submitted from a helper thread (a
// synchronous backend runs it inside that thread's Submit). Entered() tells that it runs.
class HeldHostFunc {
 public:
  HeldHostFunc(Device& device, QueueId queue);
  // Opens the function if the test has not and joins the helper.
  ~HeldHostFunc();
  HeldHostFunc(const HeldHostFunc&) = delete;
  HeldHostFunc& operator=(const HeldHostFunc&) = delete;

  bool WaitEntered() const { return entered_->WaitFor(); }
  // Lets the function return; joins the helper thread.
  void Open();
  Status submit_status() const { return submit_status_; }

 private:
  std::shared_ptr<Flag> entered_ = std::make_shared<Flag>();
  std::shared_ptr<Flag> open_ = std::make_shared<Flag>();
  Status submit_status_;
  std::thread submitter_;
};

// --- host buffers ---------------------------------------------------------------------
// `bytes` bytes of a deterministic pattern depending on `seed`.
std::vector<uint8_t> Pattern(size_t bytes, uint32_t seed);

// --- backends and devices -------------------------------------------------------------
// Options every test starts from: 2 devices of Ascend910B2, 256 MiB HBM each.
BackendOptions BaseOptions();
// Creates a backend by name through a fresh registry, with exactly `options`.
Result<std::unique_ptr<Driver>> CreateBackend(const std::string& name,
                                              const BackendOptions& options);
// Creates backend `name` with BaseOptions() overridden by `extra`. Fails the current test
// (and returns null) if creation fails.
std::unique_ptr<Driver> MakeBackend(const std::string& name, const BackendOptions& extra = {});
// Opens a device; fails the current test (and returns null) on error.
std::unique_ptr<Device> OpenDeviceOf(Driver& driver, uint32_t id);

// --- the fixture ----------------------------------------------------------------------
class DriverTest : public ::testing::TestWithParam<std::string> {
 protected:
  // The backend under test (GetParam()) with BaseOptions() overridden by `extra`.
  std::unique_ptr<Driver> MakeDriver(const BackendOptions& extra = {}) const {
    return MakeBackend(GetParam(), extra);
  }
  static std::unique_ptr<Device> OpenDevice(Driver& driver, uint32_t id) {
    return OpenDeviceOf(driver, id);
  }

  // For tests that use the default setup: driver_ with BaseOptions() and device 0 open.
  void SetUp() override;
  void TearDown() override;
  Device& dev() { return *device_; }

  // Helpers on a device; each fails the test on error.
  static QueueId NewQueue(Device& device);
  static EventId NewEvent(Device& device);
  static uint64_t SubmitOk(Device& device, QueueId queue, Task task);
  static void* Alloc(Device& device, size_t bytes, MemPool pool = MemPool::kHbm,
                     PageSize page = PageSize::k4K);
  // Syncs `queue` (with a hang guard) and expects success.
  static void SyncOk(Device& device, QueueId queue);
  // Timestamp of a completed recorded event (the test syncs first).
  static uint64_t Timestamp(Device& device, EventId event);

  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
};

}  // namespace aclsim::driver::conformance
