#include "core/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/device_monitor.h"
#include "core/memory_checker.h"
#include "core/memory_ops.h"
#include "core/task_tracing.h"
#include "dfx/error_message.h"
#include "dfx/log.h"
#include "dfx/log_config.h"
#include "driver/registry.h"

namespace aclsim::core {
namespace {

std::mutex g_mu;                     // serialises Init/Finalize
std::shared_ptr<Runtime> g_runtime;  // read with std::atomic_load
std::atomic<uint64_t> g_generation{0};

// The thread-local slots below empty themselves when destroyed: a program may call ACL after
// its main thread's thread_locals are gone (a static object's destructor calling aclrtFree or
// aclFinalize at exit); such a call then finds an empty slot and takes the slow path, where a
// dangling one would release the runtime twice.

// The calling thread's current context, valid for one runtime generation.
struct ThreadContext {
  uint64_t generation = 0;
  // A strong reference: CurrentContextPtr hands out the raw pointer. A retired context (or one
  // of a finalised runtime) is only kept until the thread's next call that needs a context.
  std::shared_ptr<Context> context;
  ~ThreadContext();
};
thread_local ThreadContext tls_context;

ThreadContext::~ThreadContext() {
  generation = 0;
  context.reset();
  Runtime::tls_fast_context_ = {};  // (runtime.h)
}

// Runtime::Get's per-thread copy of g_runtime, valid while g_live_generation equals its
// generation (std::atomic_load of a shared_ptr takes a lock from a global pool; this does
// not). A thread keeps its copy until its next call after aclFinalize (or its exit); the
// runtime's devices are released by aclFinalize itself, not by the destructor.
std::atomic<uint64_t>& g_live_generation = Runtime::live_generation_;
struct ThreadRuntime {
  uint64_t generation = 0;
  std::shared_ptr<Runtime> runtime;
  std::shared_ptr<Runtime> previous;  // what `runtime` replaced (Current's pointers stay valid)
  ~ThreadRuntime() {
    generation = 0;
    runtime.reset();
    previous.reset();
  }
};
thread_local ThreadRuntime tls_runtime;

// DeviceOfAddress's per-thread copy of Runtime::devices_, valid while the runtime's generation
// and devices_version_ match (so a free or copy takes no lock).
struct ThreadDevices {
  uint64_t generation = 0;
  uint64_t version = 0;
  std::vector<std::shared_ptr<Device>> devices;
  ~ThreadDevices() {
    generation = 0;
    std::vector<std::shared_ptr<Device>>().swap(devices);  // no storage left behind
  }
};
thread_local ThreadDevices tls_devices;

}  // namespace

Status Runtime::Init(const char* config_path) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (std::atomic_load(&g_runtime)) {
    return Err(StatusCode::kRepeatInitialize,
               "aclInit was already called; the first configuration stays in force");
  }
  auto config = LoadRuntimeConfig(config_path);
  if (!config.ok()) return config.status();
  auto driver = driver::DriverRegistry::Global().Create(config->driver, config->backend);
  if (!driver.ok()) {
    // A backend option out of range or of the wrong type is a configuration error
    // (docs/errors.md): the "aclsim" key of the file, or the ACLSIM_* variable under it.
    if (driver.status().code() != StatusCode::kInvalidParam) return driver.status();
    return Err(StatusCode::kParseFile, "configuration (\"aclsim\" key or ACLSIM_* variable): {}",
               driver.status().message());
  }
  dfx::SetErrMsgMode(config->err_msg_mode);
  auto runtime = std::make_shared<Runtime>(std::move(*config), std::move(*driver));
  // The config's "dump" key (aclmdlSetDump's format) switches the data dump on.
  ACLSIM_RETURN_IF_ERROR(runtime->dump_.ConfigureAtInit(runtime->config().json_text,
                                                        config_path != nullptr ? config_path : ""));
  ACLSIM_LOG_INFO(dfx::Module::kAscendCl, "aclInit: backend '{}', {} device(s) of {}",
                  runtime->driver().name(), runtime->device_count(),
                  runtime->device_count() > 0 ? runtime->DeviceProps(0)->soc_name : "-");
  MemoryChecker::Instance().set_enabled(runtime->config().memcheck);
  std::atomic_store(&g_runtime, runtime);
  g_live_generation.store(runtime->generation_, std::memory_order_release);
  return Status::Ok();
}

Status Runtime::Finalize() {
  std::shared_ptr<Runtime> runtime;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_live_generation.store(0, std::memory_order_release);
    runtime = std::atomic_exchange(&g_runtime, std::shared_ptr<Runtime>());
  }
  tls_runtime = ThreadRuntime{};
  if (!runtime) {
    return Err(StatusCode::kRepeatFinalize, "aclFinalize without a successful aclInit");
  }
  // Pending callbacks are delivered, not waited for: queued ones and those the streams reach
  // while their devices drain run on the hubs' own threads (core/report_hub.h).
  runtime->reports().BeginClose();
  runtime->host_funcs().BeginClose();
  for (const auto& device : runtime->OpenedDevices()) device->Release(/*force=*/false);
  runtime->reports().EndClose();
  runtime->host_funcs().EndClose();
  runtime->attachments().Clear();  // threads may still hold the object: its state ends here
  return Status::Ok();
}

bool Runtime::initialized() { return std::atomic_load(&g_runtime) != nullptr; }

Result<Runtime*> Runtime::Current() {
  ThreadRuntime& mine = tls_runtime;
  const uint64_t live = g_live_generation.load(std::memory_order_acquire);
  if (live != 0 && mine.generation == live) return mine.runtime.get();
  auto runtime = std::atomic_load(&g_runtime);
  if (!runtime) {
    return Err(StatusCode::kUninitialized, "the runtime is not initialised: call aclInit first");
  }
  mine.generation = runtime->generation_;
  mine.previous = std::move(mine.runtime);
  mine.runtime = std::move(runtime);
  return mine.runtime.get();
}

Result<std::shared_ptr<Runtime>> Runtime::Get() {
  ACLSIM_RETURN_IF_ERROR(Current().status());
  return tls_runtime.runtime;
}

Runtime::Runtime(RuntimeConfig config, std::unique_ptr<driver::Driver> driver)
    : config_(std::move(config)),
      driver_(std::move(driver)),
      generation_(++g_generation),
      op_cache_(OpCache::MaxBytesFromEnv()) {
  const uint32_t physical = driver_->DeviceCount();
  if (config_.visible_devices) {
    for (uint32_t id : *config_.visible_devices) {
      if (id < physical) physical_ids_.push_back(id);
    }
  } else {
    for (uint32_t id = 0; id < physical; ++id) physical_ids_.push_back(id);
  }
  devices_.resize(physical_ids_.size());
  releasing_.resize(physical_ids_.size(), 0);
}

Runtime::~Runtime() {
  reports_.BeginClose();
  host_funcs_.BeginClose();
  for (const auto& device : OpenedDevices()) device->Release(/*force=*/true);
  reports_.EndClose();
  host_funcs_.EndClose();
  // aclFinalize releases aclrtMallocHost memory the application did not free (memory
  // registered with aclrtHostRegister stays the application's).
  for (const auto& [address, allocation] : host_memory_.TakeAll()) {
    if (std::strcmp(allocation.api, kHostRegisterApi) != 0) std::free(allocation.base);
  }
}

Status Runtime::CheckDeviceId(int32_t id) const {
  if (id < 0 || static_cast<uint32_t>(id) >= device_count()) {
    return Err(StatusCode::kInvalidDevice, "device id {} is out of range [0, {})", id,
               device_count());
  }
  return Status::Ok();
}

Result<driver::DeviceProps> Runtime::DeviceProps(int32_t id) const {
  ACLSIM_RETURN_IF_ERROR(CheckDeviceId(id));
  return driver_->Props(PhysicalId(id));
}

Result<std::shared_ptr<Device>> Runtime::OpenLocked(int32_t id,
                                                    std::unique_lock<std::mutex>& lock) {
  ACLSIM_RETURN_IF_ERROR(CheckDeviceId(id));
  released_cv_.wait(lock, [&] { return releasing_[static_cast<size_t>(id)] == 0; });
  auto& slot = devices_[static_cast<size_t>(id)];
  if (slot && !slot->released()) return slot;
  std::unique_ptr<driver::Device> backend;
  ACLSIM_RETURN_IF_ERROR(driver_->OpenDevice(PhysicalId(id), &backend));
  ExceptionHub* hub = &exceptions_;
  auto monitor = std::make_shared<DeviceMonitor>(id, backend->props(), dfx::LogRootFromEnv());
  // Allocations bypass the backend's CheckAllocation on aclrtMalloc's fast path unless faults
  // are armed; a device loss arms it too, so every later allocation fails as documented.
  auto allocations_checked = std::make_shared<std::atomic<bool>>(backend->AllocationFaultsArmed());
  backend->SetFailureHandler(
      [hub, id, monitor, allocations_checked](const driver::TaskFailure& failure) {
        if (failure.error_code == driver::kDeviceLostCode) allocations_checked->store(true);
        monitor->OnTaskFailure(failure);
        ExceptionRecord record;
        record.task_id = static_cast<uint32_t>(failure.task_id);
        record.stream_id = failure.queue;
        record.device_id = static_cast<uint32_t>(id);
        record.error_code = failure.error_code;
        record.message = failure.message;
        hub->Report(record);
      });
  backend->SetTaskTracer([profile = MakeTaskTracer(static_cast<uint32_t>(id)),
                          monitor](const driver::TaskTrace& trace) {
    profile(trace);
    monitor->OnTaskTraced(trace);
  });
  if (config_.watchdog_ms > 0) {
    backend->SetWatchdog(config_.watchdog_ms, [id](const std::string& report) {
      ACLSIM_LOG_ERROR(dfx::Module::kRuntime,
                       "watchdog (ACLSIM_WATCHDOG / aclInit \"aclsim\": {{\"watchdog\"}}): "
                       "device {}: {}",
                       id, report);
    });
  }
  const driver::Device* raw_backend = backend.get();
  auto device = std::make_shared<Device>(id, PhysicalId(id), std::move(backend));
  device->set_allocations_checked(allocations_checked);
  device->set_op_execute_timeout_ns(op_execute_timeout_us_.load() * 1000);
  monitor->OnOpen(raw_backend);
  device->set_monitor(monitor);
  ACLSIM_RETURN_IF_ERROR(device->Initialize());
  ACLSIM_LOG_INFO(dfx::Module::kRuntime, "opened device {} ({})", id, device->props().soc_name);
  slot = device;
  devices_version_.fetch_add(1, std::memory_order_release);
  return device;
}

void Runtime::SetOpExecuteTimeoutUs(uint64_t us) {
  std::lock_guard<std::mutex> lock(mu_);  // devices opened meanwhile see the new value
  op_execute_timeout_us_.store(us);
  for (const auto& device : devices_) {
    if (device != nullptr) device->set_op_execute_timeout_ns(us * 1000);
  }
}

Result<std::shared_ptr<Device>> Runtime::EnsureOpen(int32_t id) {
  std::unique_lock<std::mutex> lock(mu_);
  return OpenLocked(id, lock);
}

Status Runtime::SetDevice(int32_t id) {
  std::shared_ptr<Device> device;
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto opened = OpenLocked(id, lock);
    if (!opened.ok()) return opened.status();
    device = *opened;
    device->AddRef();
  }
  SetCurrentContext(device->default_context());
  return Status::Ok();
}

Status Runtime::ResetDevice(int32_t id, bool force) {
  ACLSIM_RETURN_IF_ERROR(CheckDeviceId(id));
  std::shared_ptr<Device> device;
  {
    std::lock_guard<std::mutex> lock(mu_);
    device = devices_[static_cast<size_t>(id)];
    if (!device || device->released()) {
      return Err(StatusCode::kInvalidDevice,
                 "device {} is not set: call aclrtSetDevice({}) before resetting it", id, id);
    }
    if (!force && !device->DropRef()) return Status::Ok();  // other references remain
    devices_[static_cast<size_t>(id)].reset();
    devices_version_.fetch_add(1, std::memory_order_release);
    releasing_[static_cast<size_t>(id)] = 1;  // SetDevice(id) waits until it is closed
  }
  device->Release(force);
  {
    std::lock_guard<std::mutex> lock(mu_);
    releasing_[static_cast<size_t>(id)] = 0;
  }
  released_cv_.notify_all();
  return Status::Ok();
}

Result<std::shared_ptr<Device>> Runtime::OpenedDevice(int32_t id) const {
  ACLSIM_RETURN_IF_ERROR(CheckDeviceId(id));
  std::lock_guard<std::mutex> lock(mu_);
  const auto& device = devices_[static_cast<size_t>(id)];
  if (!device || device->released()) {
    return Err(StatusCode::kInvalidDevice, "device {} is not set: call aclrtSetDevice({}) first",
               id, id);
  }
  return device;
}

void Runtime::FlushTaskTraces() const {
  for (const auto& device : OpenedDevices()) {
    auto backend = device->backend();
    if (backend.ok()) (*backend)->FlushTraces();
  }
}

uint64_t Runtime::HostClockNs() const {
  for (const auto& device : OpenedDevices()) {
    auto backend = device->backend();
    if (backend.ok()) return (*backend)->HostClockNs();
  }
  return 0;
}

std::vector<std::shared_ptr<Device>> Runtime::OpenedDevices() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<Device>> opened;
  for (const auto& device : devices_) {
    if (device && !device->released()) opened.push_back(device);
  }
  return opened;
}

Result<Context*> Runtime::CurrentContextPtr() {
  ThreadContext& mine = tls_context;
  if (mine.generation == generation_ && mine.context != nullptr && !mine.context->retired()) {
    return mine.context.get();
  }
  if (config_.default_device) {
    ACLSIM_RETURN_IF_ERROR(SetDevice(*config_.default_device));
    if (mine.context != nullptr) return mine.context.get();
  }
  return Err(StatusCode::kContextNull,
             "this thread has no current context: call aclrtSetDevice or aclrtSetCurrentContext");
}

Result<std::shared_ptr<Context>> Runtime::CurrentContext() {
  ACLSIM_RETURN_IF_ERROR(CurrentContextPtr().status());
  return tls_context.context;
}

void Runtime::SetCurrentContext(const std::shared_ptr<Context>& context) {
  tls_context.generation = generation_;
  tls_context.context = context;
  tls_fast_context_ = {generation_, context.get(), context ? context->device().get() : nullptr};
}

Result<std::shared_ptr<Stream>> Runtime::ResolveStream(const void* handle, const char* what) {
  if (handle != nullptr) return LookupHandle<Stream>(handle, what);
  auto context = CurrentContext();
  if (!context.ok()) return context.status();
  auto stream = (*context)->default_stream();
  if (!stream) {
    return Err(StatusCode::kInvalidDevice, "the current context's device was reset");
  }
  return stream;
}

Device* Runtime::DeviceOfAddressPtr(const void* ptr, size_t bytes) const {
  // On every copy and free: the thread's copy of the device list, refreshed (under the lock)
  // only when a device was opened or reset since. Covers() is lock-free and false once a
  // device is released.
  ThreadDevices& mine = tls_devices;
  const uint64_t version = devices_version_.load(std::memory_order_acquire);
  if (mine.generation != generation_ || mine.version != version) {
    std::lock_guard<std::mutex> lock(mu_);
    mine.generation = generation_;
    mine.version = devices_version_.load(std::memory_order_relaxed);
    mine.devices = devices_;
  }
  for (const auto& device : mine.devices) {
    if (device && device->Covers(ptr, bytes == 0 ? 1 : bytes)) return device.get();
  }
  return nullptr;
}

std::shared_ptr<Device> Runtime::DeviceOfAddress(const void* ptr, size_t bytes) const {
  Device* device = DeviceOfAddressPtr(ptr, bytes);
  return device != nullptr ? device->shared_from_this() : nullptr;
}

}  // namespace aclsim::core
