// Shared helpers for the public C API tests.
//
// These tests use only the public headers and libascendcl.so, as an application would.
// Each test runs in its own process under ctest in the release build (gtest_discover_tests);
// the sanitizer builds run a whole executable in one process (cmake/AclsimTests.cmake), so
// the helpers leave the runtime finalised after every test.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

namespace acltest {

// The pending recent-error messages (and clears them); "" if there are none.
inline std::string TakeRecentErrors() {
  const char* msg = aclGetRecentErrMsg();
  return msg == nullptr ? std::string() : std::string(msg);
}

// Drops pending recent-error messages so the next failure's message is the only one.
inline void ClearRecentErrors() { (void)aclGetRecentErrMsg(); }

// Checks that the newest recent-error message is non-empty and names `function`.
inline ::testing::AssertionResult RecentErrorNames(const char* function) {
  const std::string all = TakeRecentErrors();
  if (all.empty()) {
    return ::testing::AssertionFailure() << "no recent-error message after " << function;
  }
  const std::string newest = all.substr(0, all.find('\n'));
  if (newest.find(function) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "recent-error message does not name " << function << ": \"" << newest << "\"";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace acltest

// Calls fn(args...) and expects the exact aclError `want` plus a recent-error message that
// names fn.
#define EXPECT_ACL_ERR(want, fn, ...)                                             \
  do {                                                                            \
    acltest::ClearRecentErrors();                                                 \
    const aclError acl_got_ = fn(__VA_ARGS__);                                    \
    EXPECT_EQ(acl_got_, static_cast<aclError>(want)) << #fn "(" #__VA_ARGS__ ")"; \
    EXPECT_TRUE(acltest::RecentErrorNames(#fn)) << #fn "(" #__VA_ARGS__ ")";      \
  } while (0)

// Expects a recent-error message naming `fn` (for functions that return a value, not an
// aclError). Call ClearRecentErrors() before the call under test.
#define EXPECT_RECENT_ERROR_NAMES(fn) EXPECT_TRUE(acltest::RecentErrorNames(#fn))

#define ACL_EXPECT_OK_IMPL(check, call)                                           \
  do {                                                                            \
    const aclError acl_got_ = (call);                                             \
    check(acl_got_, ACL_SUCCESS) << #call << ": " << acltest::TakeRecentErrors(); \
  } while (0)
#define EXPECT_ACL_OK(call) ACL_EXPECT_OK_IMPL(EXPECT_EQ, call)
#define ASSERT_ACL_OK(call) ACL_EXPECT_OK_IMPL(ASSERT_EQ, call)

namespace acltest {

// Properties of pinned HBM for aclrtMallocPhysical on `device` (2 MiB pages by default).
inline aclrtPhysicalMemProp HbmPhysicalProp(int32_t device = 0,
                                            aclrtMemAttr attr = ACL_HBM_MEM_HUGE) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = attr;
  prop.location.id = static_cast<uint32_t>(device);
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  return prop;
}

// A one-shot gate: host functions block in Wait() until the test calls Release().
class Latch {
 public:
  void Release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return open_; });
  }
  // aclrtHostFunc / aclrtCallback adapter: args is a Latch*.
  static void WaitFn(void* latch) { static_cast<Latch*>(latch)->Wait(); }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// Sets an environment variable for the lifetime of the object (restores the old value).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = getenv(name);
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    if (value == nullptr) {
      unsetenv(name);
    } else {
      setenv(name, value, 1);
    }
  }
  ~ScopedEnv() {
    if (had_old_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::string old_;
  bool had_old_ = false;
};

// A file in a fresh temporary directory, removed again with it.
class TempFile {
 public:
  explicit TempFile(const std::string& contents, const char* name = "acl.json") {
    char pattern[] = "/tmp/aclsim-api-XXXXXX";
    const char* dir = mkdtemp(pattern);
    if (dir != nullptr) dir_ = dir;
    path_ = dir_ + "/" + name;
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::remove(path_.c_str());
    rmdir(dir_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const char* path() const { return path_.c_str(); }

 private:
  std::string dir_;
  std::string path_;
};

// A recognisable byte pattern: byte i of pattern `seed`.
inline uint8_t PatternByte(size_t i, uint32_t seed) {
  uint32_t x = static_cast<uint32_t>(i) * 2654435761u + seed * 40503u + 17u;
  return static_cast<uint8_t>(x >> 13);
}
inline std::vector<uint8_t> Pattern(size_t bytes, uint32_t seed) {
  std::vector<uint8_t> data(bytes);
  for (size_t i = 0; i < bytes; ++i) data[i] = PatternByte(i, seed);
  return data;
}

// Index of the first differing byte of two buffers, or -1 when every byte matches.
inline long FirstMismatch(const void* a, const void* b, size_t bytes) {
  const auto* x = static_cast<const uint8_t*>(a);
  const auto* y = static_cast<const uint8_t*>(b);
  for (size_t i = 0; i < bytes; ++i) {
    if (x[i] != y[i]) return static_cast<long>(i);
  }
  return -1;
}

// Uploads pattern `seed` to `dev` with synchronous copies and reads it back; true when every
// byte matches.
inline bool RoundTrip(void* dev, size_t bytes, uint32_t seed) {
  std::vector<uint8_t> in = Pattern(bytes, seed), out(bytes, 0);
  EXPECT_ACL_OK(aclrtMemcpy(dev, bytes, in.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  return FirstMismatch(in.data(), out.data(), bytes) == -1;
}

// Pins host memory the test owns (a std::vector's, typically) with aclrtHostRegisterV2 for
// the object's lifetime, so that asynchronous copies between it and the device are legal:
// the memory checker (ACLSIM_MEMCHECK=1) reports async copies from pageable host memory.
// Registration does not change the memory, the copies or their simulated times. Needs a
// current context; destroy it (end its scope) before aclFinalize. The vector must not be
// resized while pinned.
class PinnedHost {
 public:
  PinnedHost(const void* ptr, size_t bytes) : ptr_(const_cast<void*>(ptr)) {
    EXPECT_ACL_OK(aclrtHostRegisterV2(ptr_, bytes, ACL_HOST_REG_PINNED));
  }
  template <typename T>
  explicit PinnedHost(const std::vector<T>& data)
      : PinnedHost(data.data(), data.size() * sizeof(T)) {}
  ~PinnedHost() { EXPECT_ACL_OK(aclrtHostUnregister(ptr_)); }
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;

 private:
  void* ptr_;
};

// True when ACLSIM_MEMCHECK turns the memory checker on (as it does for a runtime whose
// aclInit config does not set "memcheck").
inline bool MemcheckFromEnvironment() {
  const char* value = getenv("ACLSIM_MEMCHECK");
  return value != nullptr && std::strcmp(value, "0") != 0;
}

// A JSON config selecting the backend options, e.g. AclsimConfig("\"device_count\": 2").
inline std::string AclsimConfig(const std::string& members) {
  return "{\"aclsim\": {" + members + "}}";
}

// `bytes` of device memory at `dev`, copied to the host.
inline std::vector<uint8_t> Download(const void* dev, size_t bytes) {
  std::vector<uint8_t> out(bytes, 0);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  return out;
}

// Free and total bytes of the current device's HBM (aclrtGetMemInfo).
inline size_t FreeHbm() {
  size_t free_bytes = 0, total = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  return free_bytes;
}
inline size_t TotalHbm() {
  size_t free_bytes = 0, total = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  return total;
}

// A stream held back by a wait on an event that is recorded later: work enqueued on it
// stays in flight until Release().
class HeldStream {
 public:
  HeldStream() {
    EXPECT_ACL_OK(aclrtCreateStream(&stream_));
    EXPECT_ACL_OK(aclrtCreateStream(&other_));
    EXPECT_ACL_OK(aclrtCreateEvent(&gate_));
    EXPECT_ACL_OK(aclrtStreamWaitEvent(stream_, gate_));
  }
  ~HeldStream() {
    (void)aclrtDestroyEvent(gate_);
    (void)aclrtDestroyStream(stream_);
    (void)aclrtDestroyStream(other_);
  }
  aclrtStream stream() const { return stream_; }
  // Lets the held work run (without waiting for it).
  void Open() { EXPECT_ACL_OK(aclrtRecordEvent(gate_, other_)); }
  // Lets the held work run and waits for it.
  void Release() {
    Open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  }

 private:
  aclrtStream stream_ = nullptr;
  aclrtStream other_ = nullptr;
  aclrtEvent gate_ = nullptr;
};

// Runtime initialised with aclInit(NULL), device 0 set. TearDown releases everything.
// A report thread: runs aclrtProcessReport until destroyed (subscribe streams to id()).
// A thread that serves report callbacks (aclrtProcessReport) or, given aclrtProcessHostFunc,
// subscribed host functions, until destroyed.
class ReportThread {
 public:
  explicit ReportThread(aclError (*process)(int32_t) = aclrtProcessReport)
      : thread_([this, process] {
          while (!stop_.load()) {
            if (process(10) == ACL_ERROR_THREAD_NOT_SUBSCRIBE) {
              std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
          }
        }) {}
  ~ReportThread() {
    stop_.store(true);
    thread_.join();
  }
  ReportThread(const ReportThread&) = delete;
  ReportThread& operator=(const ReportThread&) = delete;
  uint64_t id() { return static_cast<uint64_t>(thread_.native_handle()); }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

class AclTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ClearRecentErrors();
  }
  void TearDown() override { Shutdown(); }

 public:
  // Resets every device that may be set and finalises; harmless if already finalised.
  static void Shutdown() {
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) == ACL_SUCCESS) {
      for (uint32_t id = 0; id < count; ++id) (void)aclrtResetDeviceForce(static_cast<int32_t>(id));
    }
    (void)aclFinalize();
    ClearRecentErrors();
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

// No runtime at SetUp; the test initialises it (often with its own config). TearDown
// finalises whatever is left.
class AclNoInitTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearRecentErrors(); }
  void TearDown() override { AclTest::Shutdown(); }
};

// An exception callback for aclrtSetExceptionInfoCallback(OnException): counts its calls and
// keeps the ids of the last exception (read them with g_exceptions.mu held).
struct Exceptions {
  std::mutex mu;
  int calls = 0;
  uint32_t code = 0;
  uint32_t task = 0, stream = 0, device = 0, thread = 0;
};
inline Exceptions g_exceptions;

inline void OnException(aclrtExceptionInfo* info) {
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  ++g_exceptions.calls;
  g_exceptions.code = aclrtGetErrorCodeFromExceptionInfo(info);
  g_exceptions.task = aclrtGetTaskIdFromExceptionInfo(info);
  g_exceptions.stream = aclrtGetStreamIdFromExceptionInfo(info);
  g_exceptions.device = aclrtGetDeviceIdFromExceptionInfo(info);
  g_exceptions.thread = aclrtGetThreadIdFromExceptionInfo(info);
}

inline void ResetExceptions() {
  std::lock_guard<std::mutex> lock(g_exceptions.mu);
  g_exceptions.calls = 0;
  g_exceptions.code = g_exceptions.task = g_exceptions.stream = g_exceptions.device = 0;
  g_exceptions.thread = 0;
}

}  // namespace acltest
