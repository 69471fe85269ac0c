#include "feature/host_memory.h"

#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "core/device.h"
#include "core/memory_ops.h"

namespace aclsim::feature {
namespace {

constexpr const char* kManagedApi = "aclrtMemAllocManaged";
constexpr uint32_t kAttachGlobal = 0x1;  // ACL_RT_MEM_ATTACH_GLOBAL

// Registered host ranges: start -> (bytes, device that maps it or null).
struct Registration {
  size_t bytes = 0;
  uint32_t flags = 0;
  std::weak_ptr<core::Device> device;
};
// A runtime attachment (core/attachments.h): aclFinalize forgets every registration.
struct Registrations {
  std::mutex mu;
  std::map<uintptr_t, Registration> by_start;
};

// Advice and prefetches of managed allocations, by allocation start.
struct ManagedState {
  bool read_mostly = false;
  ManagedLocation preferred{0, 0};  // type 0: none
  std::set<int32_t> accessed_by;
  ManagedLocation last_prefetch{0, 0};
};
// A device attachment: a reset of the device forgets the advice of its allocations.
struct ManagedStates {
  std::mutex mu;
  std::map<const void*, ManagedState> by_start;
};

// The managed states of the device holding `ptr` (a live device address).
std::shared_ptr<ManagedStates> ManagedStatesOf(core::Runtime& runtime, const void* ptr) {
  auto device = runtime.DeviceOfAddress(ptr, 1);
  return device ? device->attachments().Get<ManagedStates>() : std::make_shared<ManagedStates>();
}

enum LocationType { kInvalid = 0, kDevice = 1, kHost = 2, kHostNuma = 3, kHostNumaCurrent = 4 };

Status CheckLocation(core::Runtime& runtime, ManagedLocation location) {
  if (location.type == kDevice) return runtime.OpenedDevice(location.id).status();
  if (location.type >= kHost && location.type <= kHostNumaCurrent) return Status::Ok();
  return Err(StatusCode::kInvalidParam,
             "location.type {} is not a device or host aclrtMemManagedLocationType", location.type);
}

// The managed allocation holding [ptr, ptr+size).
Result<core::Allocation> ManagedRange(core::Runtime& runtime, const void* ptr, size_t size) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "ptr must not be NULL");
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  auto device = runtime.DeviceOfAddress(ptr, 1);
  auto allocation = device ? device->FindLive(ptr, size) : std::nullopt;
  if (!allocation || std::strcmp(allocation->api, kManagedApi) != 0) {
    return Err(StatusCode::kInvalidParam,
               "[{}, +{}) is not inside one allocation of aclrtMemAllocManaged", ptr, size);
  }
  return *allocation;
}

int32_t LocationId(ManagedLocation location) {
  if (location.type == 0) return -2;                   // none (CUDA's cudaInvalidDeviceId)
  return location.type == kDevice ? location.id : -1;  // -1: the host
}

}  // namespace

Result<void*> HostRegister(core::Runtime& runtime, void* ptr, uint64_t size, uint32_t flags) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "ptr must not be NULL");
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  const uint32_t known = kHostRegMapped | kHostRegIoMemory | kHostRegReadOnly | kHostRegPinned;
  if ((flags & ~known) != 0) {
    return Err(StatusCode::kInvalidParam, "flag {:#x} has bits that are not ACL_HOST_REG_*", flags);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime.CurrentContext());
  const auto start = reinterpret_cast<uintptr_t>(ptr);
  if (runtime.DeviceOfAddress(ptr, 1)) {
    return Err(StatusCode::kInvalidParam, "{} is device memory, not host memory", ptr);
  }
  auto registrations = runtime.attachments().Get<Registrations>();
  std::lock_guard<std::mutex> lock(registrations->mu);
  auto& by_start = registrations->by_start;
  auto next = by_start.lower_bound(start);
  const bool overlaps =
      (next != by_start.end() && next->first < start + size) ||
      (next != by_start.begin() && std::prev(next)->first + std::prev(next)->second.bytes > start);
  if (overlaps || runtime.host_memory().FindContaining(ptr)) {
    return Err(StatusCode::kInvalidParam,
               "[{}, +{}) overlaps memory already registered or allocated by aclrtMallocHost", ptr,
               size);
  }
  core::Allocation allocation;
  allocation.base = ptr;
  allocation.size = size;
  allocation.reserved = size;
  allocation.api = core::kHostRegisterApi;
  runtime.host_memory().Insert(allocation);
  Registration registration;
  registration.bytes = size;
  registration.flags = flags;
  if ((flags & kHostRegMapped) != 0) {
    registration.device = context->device();
    context->device()->mapped().Insert(allocation);
  }
  by_start[start] = registration;
  return ptr;
}

Result<void*> HostDevicePointer(core::Runtime& runtime, void* host, uint32_t flags) {
  if (host == nullptr) return Err(StatusCode::kInvalidParam, "pHost must not be NULL");
  if (flags != 0) return Err(StatusCode::kInvalidParam, "flag {:#x} must be 0", flags);
  const auto addr = reinterpret_cast<uintptr_t>(host);
  auto registrations = runtime.attachments().Get<Registrations>();
  std::lock_guard<std::mutex> lock(registrations->mu);
  auto it = registrations->by_start.upper_bound(addr);
  if (it == registrations->by_start.begin() || (--it, addr >= it->first + it->second.bytes)) {
    return Err(StatusCode::kInvalidParam, "{} is not inside memory registered by aclrtHostRegister",
               host);
  }
  if ((it->second.flags & kHostRegMapped) == 0) {
    return Err(StatusCode::kInvalidParam,
               "{} was registered without ACL_HOST_REG_MAPPED: it has no device address", host);
  }
  return host;
}

Status HostUnregister(core::Runtime& runtime, void* ptr) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "ptr must not be NULL");
  Registration registration;
  {
    auto registrations = runtime.attachments().Get<Registrations>();
    std::lock_guard<std::mutex> lock(registrations->mu);
    auto it = registrations->by_start.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == registrations->by_start.end()) {
      return Err(StatusCode::kInvalidParam,
                 "{} is not the start of memory registered by aclrtHostRegister", ptr);
    }
    registration = it->second;
    registrations->by_start.erase(it);
  }
  (void)runtime.host_memory().Erase(ptr);
  if (auto device = registration.device.lock()) (void)device->mapped().Erase(ptr);
  return Status::Ok();
}

Result<void*> AllocManaged(core::Runtime& runtime, uint64_t size, uint32_t flags) {
  if (flags != kAttachGlobal) {
    return Err(StatusCode::kInvalidParam, "flag {:#x} is not ACL_RT_MEM_ATTACH_GLOBAL", flags);
  }
  ACLSIM_ASSIGN_OR_RETURN(void* ptr,
                          core::DeviceMalloc(runtime, size, core::kPolicyHugeFirst, kManagedApi));
  auto states = ManagedStatesOf(runtime, ptr);
  std::lock_guard<std::mutex> lock(states->mu);
  states->by_start.erase(ptr);  // advice of an earlier allocation at this address
  return ptr;
}

Status PrefetchManaged(core::Runtime& runtime, const void* ptr, size_t size,
                       ManagedLocation location, uint32_t flags, const void* stream) {
  if (flags != 0) return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0", flags);
  ACLSIM_ASSIGN_OR_RETURN(core::Allocation allocation, ManagedRange(runtime, ptr, size));
  ACLSIM_RETURN_IF_ERROR(CheckLocation(runtime, location));
  ACLSIM_RETURN_IF_ERROR(runtime.ResolveStream(stream, "stream").status());
  auto states = ManagedStatesOf(runtime, allocation.base);
  std::lock_guard<std::mutex> lock(states->mu);
  states->by_start[allocation.base].last_prefetch = location;
  return Status::Ok();
}

Status AdviseManaged(core::Runtime& runtime, const void* ptr, uint64_t size, int advice,
                     ManagedLocation location) {
  ACLSIM_ASSIGN_OR_RETURN(core::Allocation allocation, ManagedRange(runtime, ptr, size));
  if (advice < 0 || advice > 5) {
    return Err(StatusCode::kInvalidParam, "advise {} is not an aclrtMemManagedAdviseType", advice);
  }
  if (advice >= 2) ACLSIM_RETURN_IF_ERROR(CheckLocation(runtime, location));
  auto states = ManagedStatesOf(runtime, allocation.base);
  std::lock_guard<std::mutex> lock(states->mu);
  ManagedState& state = states->by_start[allocation.base];
  switch (advice) {
    case 0:
      state.read_mostly = true;
      break;
    case 1:
      state.read_mostly = false;
      break;
    case 2:
      state.preferred = location;
      break;
    case 3:
      state.preferred = ManagedLocation{};
      break;
    case 4:
      state.accessed_by.insert(LocationId(location));
      break;
    default:
      state.accessed_by.erase(LocationId(location));
      break;
  }
  return Status::Ok();
}

Status ManagedAttr(core::Runtime& runtime, int attribute, const void* ptr, size_t size, void* data,
                   size_t data_size) {
  ACLSIM_ASSIGN_OR_RETURN(core::Allocation allocation, ManagedRange(runtime, ptr, size));
  if (data == nullptr) return Err(StatusCode::kInvalidParam, "data must not be NULL");
  if (attribute < 1 || attribute > 8) {
    return Err(StatusCode::kInvalidParam, "attribute {} is not an aclrtMemManagedRangeAttribute",
               attribute);
  }
  if (data_size < sizeof(int32_t) || data_size % sizeof(int32_t) != 0) {
    return Err(StatusCode::kInvalidParam, "dataSize {} is too small or not a multiple of 4",
               data_size);
  }
  auto states = ManagedStatesOf(runtime, allocation.base);
  std::lock_guard<std::mutex> lock(states->mu);
  const ManagedState state = states->by_start[allocation.base];
  auto* out = static_cast<int32_t*>(data);
  switch (attribute) {
    case 1:
      *out = state.read_mostly ? 1 : 0;
      break;
    case 2:
      *out = LocationId(state.preferred);
      break;
    case 3: {  // every device given SET_ACCESSED_BY, then -2 (none) to fill the array
      const size_t slots = data_size / sizeof(int32_t);
      size_t i = 0;
      for (int32_t id : state.accessed_by) {
        if (i < slots) out[i++] = id;
      }
      for (; i < slots; ++i) out[i] = -2;
      break;
    }
    case 4:
      *out = state.preferred.type;
      break;
    case 5:
      *out = state.preferred.id;
      break;
    case 6:
      *out = LocationId(state.last_prefetch);
      break;
    case 7:
      *out = state.last_prefetch.type;
      break;
    default:
      *out = state.last_prefetch.id;
      break;
  }
  return Status::Ok();
}

}  // namespace aclsim::feature
