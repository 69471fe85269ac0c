// MemoryChecker: catches misuse of device memory that a real device would let corrupt data
// silently. Off by default; ACLSIM_MEMCHECK=1 or the aclInit JSON's "aclsim": {"memcheck": 1}
// turns it on for the process.
//
// What it checks, when the API call enqueues the work (copies, memsets, kernels):
//  * reads of aclrtMalloc / pool memory that no copy, memset or kernel output has written yet
//    ("uninitialised read"; managed, registered and mapped memory count as written, since
//    the host or an alias may write them directly);
//  * asynchronous copies between device and host memory that is not pinned (neither
//    aclrtMallocHost nor aclrtHostRegister);
//  * frees of device memory that a task enqueued earlier has not finished with (use after
//    free: the task would run on freed memory).
// Accesses outside live allocations and double or interior frees are refused by the API calls
// themselves (always, checker or not), with their error codes.
//
// A violation is logged (ERROR, module RUNTIME, "memcheck: ...") and reported as a device
// memory fault of the stream that did it: its next synchronisation returns
// ACL_ERROR_RT_DEVICE_MEM_ERROR (507053) with the message, and the exception callback gets
// the stream, task and device ids. A synchronous call that violates returns that error itself.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "core/memory_table.h"

namespace aclsim::core {

class Device;
class Stream;

// Runtime error code of a violation: ACL_ERROR_RT_DEVICE_MEM_ERROR.
inline constexpr uint32_t kMemcheckErrorCode = 507053;

class MemoryChecker {
 public:
  struct Access {
    const void* ptr;
    size_t bytes;
    bool write;
  };

  static MemoryChecker& Instance();

  bool enabled() const { return On(); }
  // The same, without touching the instance (no guard of a function-local static): for hot
  // paths.
  static bool On() { return on_.load(std::memory_order_relaxed); }
  void set_enabled(bool enabled);

  // Violations of a task's device accesses (each a message naming the address and the
  // allocation), before it is enqueued by `api`.
  std::vector<std::string> Check(Device& device, const char* api, const Access* accesses, size_t n);
  // A pageable-host violation of an asynchronous copy (empty if the host side is pinned).
  std::string CheckPinned(const void* host, size_t bytes, const char* api, bool host_is_pinned);
  // The task was enqueued on `stream` (null: the device's internal queue) as `task_id`:
  // its writes initialise memory, and it is the last user of what it touches.
  void Record(Device& device, Stream* stream, uint64_t task_id, const Access* accesses, size_t n);
  // `allocation` is being freed: a violation if its last user may still be running (the
  // message, and the stream to report it on). Forgets the allocation either way.
  std::pair<std::string, std::shared_ptr<Stream>> OnFree(Device& device,
                                                         const Allocation& allocation);
  // A new allocation starts clean.
  void OnAllocate(Device& device, const void* base);
  // [ptr, ptr+bytes) may be written outside tasks from now on (IPC export: by another
  // process): it counts as written.
  void MarkWritten(Device& device, const void* ptr, size_t bytes);
  void ForgetDevice(const Device* device);

  // Logs `message` and reports it on `stream` (a failing task: next sync, exception
  // callback); without a stream returns the error (kTaskFailed, detail 507053).
  static Status Report(const std::shared_ptr<Stream>& stream, const std::string& message);

 private:
  struct State {
    std::map<uintptr_t, uintptr_t> written;  // [start, end) ranges, disjoint, merged
    uint64_t last_task = 0;
    uint32_t last_queue = 0;  // the driver queue of last_task
    std::weak_ptr<Stream> last_stream;
  };
  using Key = std::pair<const Device*, uintptr_t>;

  static std::atomic<bool> on_;
  std::mutex mu_;
  std::map<Key, State> states_;
};

}  // namespace aclsim::core
