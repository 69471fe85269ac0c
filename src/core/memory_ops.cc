#include "core/memory_ops.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/memory_checker.h"
#include "core/streams.h"
#include "dfx/log.h"
#include "dfx/profiler.h"

namespace aclsim::core {
namespace {

constexpr size_t kHugeFirstThreshold = size_t{1} << 20;  // > 1 MiB goes to 2 MiB pages
constexpr size_t kHostAlignment = 64;

Result<std::shared_ptr<Device>> CurrentDevice(Runtime& runtime) {
  auto context = runtime.CurrentContext();
  if (!context.ok()) return context.status();
  return (*context)->device();
}

Status CheckPolicy(uint32_t policy) {
  const uint32_t known =
      0xff | kPolicyTypeLowBandwidth | kPolicyTypeHighBandwidth | kPolicyReadOnly;
  if ((policy & ~known) != 0 || (policy & 0xff) > kPolicyHuge1gOnlyP2p) {
    return Err(StatusCode::kInvalidParam, "memory policy 0x{:x} is not an aclrtMemMallocPolicy",
               policy);
  }
  if ((policy & kPolicyTypeLowBandwidth) && (policy & kPolicyTypeHighBandwidth)) {
    return Err(StatusCode::kInvalidParam,
               "memory policy 0x{:x} asks for both low- and high-bandwidth memory", policy);
  }
  return Status::Ok();
}

// CANN's rounding (memory_ops.h) of `size` (at most 2^62); the allocator then works in
// 512-byte blocks.
size_t RoundedSize(size_t size, SizeRounding rounding) {
  const size_t aligned = (size + 31) / 32 * 32;
  return rounding == SizeRounding::kAlign32 ? aligned : aligned + 32;
}

Allocation Record(size_t size, uint32_t policy, const char* api) {
  Allocation info;
  info.size = size;
  info.policy = policy;
  info.api = api;
  return info;
}

// While profiling: the device's memory in use after an allocation or free (a counter track).
void SampleMemoryForProfile(Device& device) {
  if (!dfx::prof::Profiler::Active()) return;
  auto& profiler = dfx::prof::Profiler::Get();
  dfx::prof::MemoryRecord sample;
  sample.device_id = static_cast<uint32_t>(device.id());
  auto backend = device.backend();
  sample.ns = backend.ok() ? (*backend)->HostClockNs() : 0;
  const HeapStats heap = device.memory().Peek();
  sample.bytes_in_use = heap.allocated;
  sample.bytes_reserved = heap.reserved;
  sample.bytes_free = heap.free;
  sample.largest_free = heap.largest_free;
  profiler.AddMemory(sample);
}

}  // namespace

Result<void*> DeviceMalloc(Runtime& runtime, size_t size, uint32_t policy, const char* api,
                           int32_t device_id, SizeRounding rounding) {
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  ACLSIM_RETURN_IF_ERROR(CheckPolicy(policy));
  // The current context keeps its device alive for this call (no reference taken).
  std::shared_ptr<Device> opened;
  Device* device = nullptr;
  if (device_id >= 0) {
    ACLSIM_ASSIGN_OR_RETURN(opened, runtime.OpenedDevice(device_id));
    device = opened.get();
  } else {
    ACLSIM_ASSIGN_OR_RETURN(Context * context, runtime.CurrentContextPtr());
    device = context->device().get();
  }

  const uint32_t page_policy = policy & 0xff;
  driver::PageSize page = driver::PageSize::k4K;
  bool may_fall_back = false;
  switch (page_policy) {
    case kPolicyHugeFirst:
    case kPolicyHugeFirstP2p:
      if (size > kHugeFirstThreshold) {
        page = driver::PageSize::k2M;
        may_fall_back = true;
      }
      break;
    case kPolicyHugeOnly:
    case kPolicyHugeOnlyP2p:
      page = driver::PageSize::k2M;
      break;
    case kPolicyHuge1gOnly:
    case kPolicyHuge1gOnlyP2p:
      page = driver::PageSize::k1G;
      break;
    default:
      break;
  }
  driver::MemPool pool =
      (policy & kPolicyTypeLowBandwidth) ? driver::MemPool::kDdr : driver::MemPool::kHbm;

  if (size > (size_t{1} << 62)) {
    return Err(StatusCode::kDeviceOom, "cannot allocate {} bytes of device memory", size);
  }
  const size_t bytes = RoundedSize(size, rounding);
  // Fault injection and a lost device see every allocation, also one the cache would serve.
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  ACLSIM_RETURN_IF_ERROR(backend->CheckAllocation(size));
  const Allocation info = Record(size, policy, api);
  CachingAllocator& heap = device->memory();
  Result<void*> ptr = heap.Allocate(pool, page, bytes, info);
  if (!ptr.ok() && pool == driver::MemPool::kDdr &&
      ptr.status().code() == StatusCode::kFeatureUnsupported) {
    ACLSIM_LOG_DEBUG(dfx::Module::kRuntime, "{} has no DDR pool; serving {} bytes from HBM",
                     device->props().soc_name, size);
    pool = driver::MemPool::kHbm;
    ptr = heap.Allocate(pool, page, bytes, info);
  }
  if (!ptr.ok() && may_fall_back && ptr.status().code() == StatusCode::kDeviceOom) {
    ptr = heap.Allocate(pool, driver::PageSize::k4K, bytes, info);
  }
  if (ptr.ok() && MemoryChecker::On()) {
    MemoryChecker::Instance().OnAllocate(*device, *ptr);
  }
  if (ptr.ok()) SampleMemoryForProfile(*device);
  return ptr;
}

void* TryDeviceMallocCached(size_t size, uint32_t policy, const char* api, SizeRounding rounding) {
  // HUGE_FIRST and NORMAL_ONLY (P2P or not) of HBM: 4 KiB pages up to 1 MiB.
  const uint32_t page_policy = policy & ~kPolicyTypeHighBandwidth;
  const bool normal_pages = page_policy == kPolicyHugeFirst || page_policy == kPolicyNormalOnly ||
                            page_policy == kPolicyHugeFirstP2p ||
                            page_policy == kPolicyNormalOnlyP2p;
  if (!normal_pages || size - 1 >= kHugeFirstThreshold || MemoryChecker::On() ||
      dfx::prof::Profiler::Active()) {
    return nullptr;
  }
  Device* device = Runtime::CurrentDeviceIfCached();
  if (device == nullptr || device->allocations_checked()) return nullptr;
  return device->memory().TryAllocateCached(driver::MemPool::kHbm, driver::PageSize::k4K,
                                            RoundedSize(size, rounding), Record(size, policy, api));
}

bool TryDeviceFree(void* ptr) {
  if (ptr == nullptr || MemoryChecker::On() || dfx::prof::Profiler::Active()) return false;
  // Memory of the current device (DeviceFree finds the device of any other address; and
  // frees blocks of a device that exported some by IPC).
  Device* device = Runtime::CurrentDeviceIfCached();
  return device != nullptr && !device->ipc_shares().any() && device->Covers(ptr, 1) &&
         device->memory().TryFree(ptr);
}

namespace {

// aclrtFree of a block exported by IPC: retired (core/ipc_shares.h), and with the last exported
// block of its segment, the segment unshared and its retired blocks freed.
Status FreeExported(Device& device, const IpcShares::FreePlan& plan, void* ptr) {
  if (plan.already_freed) {
    return Err(StatusCode::kMemoryFree, "{} was already freed (it was exported by IPC)", ptr);
  }
  if (plan.release.empty()) return Status::Ok();  // another block of its segment is exported
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device.backend());
  device.segments().WaitIdle();  // no task writes the pages while they move
  ACLSIM_RETURN_IF_ERROR(backend->UnshareRange(reinterpret_cast<const void*>(plan.segment)));
  for (void* block : plan.release) ACLSIM_RETURN_IF_ERROR(device.memory().Free(block).status());
  return Status::Ok();
}

}  // namespace

Status DeviceFree(Runtime& runtime, void* ptr, FreeOrder order) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "devPtr must not be NULL");
  Device* device = runtime.DeviceOfAddressPtr(ptr, 1);
  if (device == nullptr) {
    return Err(StatusCode::kMemoryFree, "{} is not device memory of any set device", ptr);
  }
  if (device->ipc_shares().any()) {
    const IpcShares::FreePlan plan = device->ipc_shares().OnFree(ptr);
    if (plan.exported) return FreeExported(*device, plan, ptr);
  }
  auto freed = device->memory().Free(ptr);
  if (!freed.ok()) return freed.status();
  SampleMemoryForProfile(*device);
  if (MemoryChecker::On()) {
    auto [violation, stream] = MemoryChecker::Instance().OnFree(*device, *freed);
    if (!violation.empty() && order == FreeOrder::kUser) {
      ACLSIM_RETURN_IF_ERROR(MemoryChecker::Report(stream, violation));
    }
  }
  return Status::Ok();
}

Result<void*> HostMalloc(Runtime& runtime, size_t size) {
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  // Rounding up must not wrap around (SIZE_MAX would round to 0 bytes).
  if (size > SIZE_MAX - (kHostAlignment - 1)) {
    return Err(StatusCode::kBadAlloc, "host allocation of {} bytes failed", size);
  }
  const size_t rounded = (size + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void* ptr = std::aligned_alloc(kHostAlignment, rounded);
  if (ptr == nullptr) {
    return Err(StatusCode::kBadAlloc, "host allocation of {} bytes failed", size);
  }
  Allocation allocation;
  allocation.base = ptr;
  allocation.size = size;
  allocation.reserved = rounded;
  allocation.api = "aclrtMallocHost";
  runtime.host_memory().Insert(allocation);
  return ptr;
}

Status HostFree(Runtime& runtime, void* ptr) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "hostPtr must not be NULL");
  auto found = runtime.host_memory().FindContaining(ptr);
  if (found && found->base == ptr && std::strcmp(found->api, kHostRegisterApi) == 0) {
    return Err(StatusCode::kMemoryFree,
               "{} is the user's memory registered by aclrtHostRegister: release it with "
               "aclrtHostUnregister",
               ptr);
  }
  if (!runtime.host_memory().Erase(ptr)) {
    return Err(StatusCode::kMemoryFree,
               "{} was not allocated by aclrtMallocHost (or was already freed)", ptr);
  }
  std::free(ptr);
  return Status::Ok();
}

Status MemInfo(Runtime& runtime, bool hbm, bool huge, size_t* free_bytes, size_t* total_bytes) {
  auto device = CurrentDevice(runtime);
  if (!device.ok()) return device.status();
  auto backend = (*device)->backend();
  if (!backend.ok()) return backend.status();
  const driver::MemPool pool = hbm ? driver::MemPool::kHbm : driver::MemPool::kDdr;
  (*backend)->PoolUsage(pool, free_bytes, total_bytes);
  // Memory the caching allocator holds but does not use is free for aclrtMalloc.
  const size_t cached = (*device)->memory().CachedBytes(hbm ? MemRegion::kHbm : MemRegion::kDdr);
  *free_bytes += cached;
  if (huge) {
    size_t huge_free = 0;
    (*backend)->HugePageUsage(pool, &huge_free, total_bytes);
    *free_bytes = std::min(*free_bytes, huge_free + cached);
  }
  return Status::Ok();
}

}  // namespace aclsim::core
