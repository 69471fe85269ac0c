// Runtime: the process's AscendCL runtime, from aclInit to aclFinalize.
//
// Owns the configuration, the backend driver, the opened devices, pinned host memory, the
// callback report hub, the exception hub and the data-dump state. There is at most one initialised
// Runtime per process (aclInit creates it, aclFinalize destroys it); tests may create more runtimes
// one after another. Each host thread has a current context (thread-local, as in CANN);
// without one, the "defaultDevice" of the aclInit JSON is set implicitly on first use.
//
// Thread-safety: all methods may be called concurrently. Finalize while other threads are
// still inside API calls is a user error; those calls fail cleanly, they do not crash.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"
#include "core/attachments.h"
#include "core/config.h"
#include "core/data_dump.h"
#include "core/device.h"
#include "core/exception_hub.h"
#include "core/memory_table.h"
#include "core/objects.h"
#include "core/op_cache.h"
#include "core/param_table.h"
#include "core/report_hub.h"
#include "driver/driver.h"

namespace aclsim::core {

class Runtime {
 public:
  // aclInit: kRepeatInitialize if already initialised (the first config stays in force).
  static Status Init(const char* config_path);
  // aclFinalize: releases every device (waiting for their work) and the runtime.
  // kRepeatFinalize if not initialised.
  static Status Finalize();
  static bool initialized();
  // The runtime, or kUninitialized ("call aclInit first").
  static Result<std::shared_ptr<Runtime>> Get();
  // As Get, without taking a reference, for hot paths: the pointer stays valid for the rest
  // of the calling API call (the thread's slot keeps the runtime, and the one it replaced,
  // alive).
  static Result<Runtime*> Current();
  // The device of Current()->CurrentContextPtr(), reduced to reading the thread's slots, for
  // the fastest paths (aclrtMalloc / aclrtFree): nullptr where that would do more (refresh a
  // slot, open the default device, report an error); the caller then takes its full path.
  static Device* CurrentDeviceIfCached() {
    // A context of the live runtime's generation is the live runtime's.
    const uint64_t live = live_generation_.load(std::memory_order_acquire);
    const FastContext& mine = tls_fast_context_;
    return live != 0 && mine.generation == live && mine.context != nullptr &&
                   !mine.context->retired()
               ? mine.device
               : nullptr;
  }
  // The generation of the live runtime, 0 when there is none (set by Init and Finalize).
  static inline std::atomic<uint64_t> live_generation_{0};
  // The thread's current context (SetCurrentContext) as plain pointers, for
  // CurrentDeviceIfCached: a thread_local of a trivial type needs no initialisation guard on
  // each access. The thread's strong reference (runtime.cc) keeps them valid; cleared with it.
  struct FastContext {
    uint64_t generation;
    Context* context;
    Device* device;
  };
  static inline thread_local FastContext tls_fast_context_{};

  explicit Runtime(RuntimeConfig config, std::unique_ptr<driver::Driver> driver);
  ~Runtime();

  const RuntimeConfig& config() const { return config_; }
  const driver::Driver& driver() const { return *driver_; }
  // Devices visible to this process (after ASCEND_RT_VISIBLE_DEVICES).
  uint32_t device_count() const { return static_cast<uint32_t>(physical_ids_.size()); }
  Status CheckDeviceId(int32_t id) const;
  Result<driver::DeviceProps> DeviceProps(int32_t id) const;
  uint32_t PhysicalId(int32_t id) const { return physical_ids_.at(static_cast<size_t>(id)); }

  // aclrtSetDevice: opens the device if needed, adds a reference, makes its default context
  // current on this thread.
  Status SetDevice(int32_t id);
  // aclrtResetDevice(Force): drops a reference (all of them if force) and releases the
  // device at zero.
  Status ResetDevice(int32_t id, bool force);
  // An opened device (kInvalidDevice with a hint to call aclrtSetDevice otherwise).
  Result<std::shared_ptr<Device>> OpenedDevice(int32_t id) const;
  // Opens without taking a reference (for explicit contexts, which take their own).
  Result<std::shared_ptr<Device>> EnsureOpen(int32_t id);
  // Profiling: has every opened device report the times of its traced tasks so far
  // (driver::Device::FlushTraces); the calling thread's simulated host clock (0 while no
  // device is open).
  void FlushTaskTraces() const;
  uint64_t HostClockNs() const;

  // The calling thread's current context (implicitly the default device's, if configured).
  Result<std::shared_ptr<Context>> CurrentContext();
  // As CurrentContext, without taking a reference, for leaf hot paths (aclrtMalloc): valid
  // until this thread changes its current context (its slot holds the context).
  Result<Context*> CurrentContextPtr();
  void SetCurrentContext(const std::shared_ptr<Context>& context);
  // The stream for an aclrtStream argument: NULL means the current context's default stream.
  Result<std::shared_ptr<Stream>> ResolveStream(const void* handle, const char* what);
  // The opened device whose address range contains [ptr, ptr+bytes), or nullptr.
  std::shared_ptr<Device> DeviceOfAddress(const void* ptr, size_t bytes) const;
  // As DeviceOfAddress, without taking a reference, for leaf hot paths (aclrtFree): valid until
  // this thread's next DeviceOfAddress* call (its copy of the device list holds the device).
  Device* DeviceOfAddressPtr(const void* ptr, size_t bytes) const;
  std::vector<std::shared_ptr<Device>> OpenedDevices() const;

  MemoryTable& host_memory() { return host_memory_; }
  ReportHub& reports() { return reports_; }
  // Threads that run the host functions of subscribed streams (aclrtSubscribeHostFunc).
  ReportHub& host_funcs() { return host_funcs_; }
  ExceptionHub& exceptions() { return exceptions_; }
  // aclrtSetSysParamOpt values (process level).
  ParamTable& params() { return params_; }
  uint64_t generation() const { return generation_; }
  // Compiled single ops (aclop*, aclblas*).
  OpCache& op_cache() { return op_cache_; }
  // Data dump (aclmdlInitDump / SetDump / FinalizeDump, aclopStartDumpArgs, exception dump).
  DataDump& dump() { return dump_; }
  // State of the layers above the core kept for this init (host registrations, IPC keys, share
  // pids, profiling ranges and named ids, model subscriptions: core/attachments.h); cleared by
  // Finalize.
  Attachments& attachments() { return attachments_; }

  // aclrtSetOpWaitTimeout: the default timeout (seconds, 0 = never) of the event waits
  // submitted afterwards by aclrtStreamWaitEvent.
  uint32_t op_wait_timeout_s() const { return op_wait_timeout_s_.load(); }
  void set_op_wait_timeout_s(uint32_t seconds) { op_wait_timeout_s_.store(seconds); }
  // aclrtSetOpExecuteTimeOut*: the op execute timeout (microseconds, 0 = never) of the
  // kernels submitted afterwards on every device (opened now or later).
  uint64_t op_execute_timeout_us() const { return op_execute_timeout_us_.load(); }
  void SetOpExecuteTimeoutUs(uint64_t us);

 private:
  // Opens device `id` (or returns it if open); `lock` holds mu_. Waits (releasing the lock)
  // while a ResetDevice of the same id is still releasing the old device, whose backend
  // device must be closed before it can be opened again.
  Result<std::shared_ptr<Device>> OpenLocked(int32_t id, std::unique_lock<std::mutex>& lock);

  const RuntimeConfig config_;
  std::unique_ptr<driver::Driver> driver_;
  std::vector<uint32_t> physical_ids_;  // user id -> backend id
  const uint64_t generation_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<Device>> devices_;  // by user id; null until opened
  std::atomic<uint64_t> devices_version_{1};      // bumped when a slot of devices_ changes
  std::vector<uint8_t> releasing_;                // by user id: ResetDevice is releasing it
  std::condition_variable released_cv_;           // a releasing_ entry was cleared
  MemoryTable host_memory_;
  ReportHub reports_;
  ReportHub host_funcs_;
  ExceptionHub exceptions_;
  ParamTable params_;
  OpCache op_cache_;
  DataDump dump_;
  Attachments attachments_;
  std::atomic<uint32_t> op_wait_timeout_s_{0};
  std::atomic<uint64_t> op_execute_timeout_us_{0};
};

}  // namespace aclsim::core
