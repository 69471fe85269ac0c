#include "feature/vmm.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "dfx/log.h"

namespace aclsim::feature {
namespace {

constexpr size_t k2M = size_t{2} << 20;
constexpr size_t k1G = size_t{1} << 30;

bool IsDdr(uint32_t attr) { return attr == 0 || attr == 2 || attr == 3 || attr == 6 || attr == 7; }
bool IsHuge1g(uint32_t attr) { return attr == 10 || attr == 11 || attr == 14 || attr == 17; }

Status CheckProps(const PhysicalProps& props) {
  if (props.mem_attr > 17) {
    return Err(StatusCode::kInvalidParam, "memAttr {} is not an aclrtMemAttr", props.mem_attr);
  }
  if (props.allocation_type != kAllocationPinned) {
    return Err(StatusCode::kInvalidParam,
               "allocationType {} is not supported (ACL_MEM_ALLOCATION_TYPE_PINNED only)",
               props.allocation_type);
  }
  if (props.location_type != kLocationDevice) {
    return Err(StatusCode::kInvalidParam,
               "location.type {} is not supported (ACL_MEM_LOCATION_TYPE_DEVICE only)",
               props.location_type);
  }
  if (props.handle_type != 0 && props.handle_type != 2) {
    return Err(StatusCode::kInvalidParam, "handleType {} is not an aclrtMemHandleType",
               props.handle_type);
  }
  return Status::Ok();
}

driver::PageSize PageOf(const PhysicalProps& props) {
  return IsHuge1g(props.mem_attr) ? driver::PageSize::k1G : driver::PageSize::k2M;
}

Status CheckGranular(const char* what, size_t value, size_t granularity) {
  if (value % granularity != 0) {
    return Err(StatusCode::kInvalidParam,
               "{} {} is not a multiple of the allocation granularity ({} bytes; see "
               "aclrtMemGetAllocationGranularity)",
               what, value, granularity);
  }
  return Status::Ok();
}

Result<std::shared_ptr<core::Device>> DeviceOfVa(core::Runtime& runtime, const void* va,
                                                 const char* what) {
  auto device = runtime.DeviceOfAddress(va, 1);
  if (!device) {
    return Err(StatusCode::kInvalidParam, "{} {} is not a device address of an open device", what,
               va);
  }
  return device;
}

// aclrtMemSetAccess flags of a device's mappings, by mapping start and location
// (type << 32 | id): a device attachment, so a reset forgets them.
struct AccessFlags {
  std::mutex mu;
  std::map<const void*, std::map<uint64_t, uint64_t>> by_mapping;
};

uint64_t LocationKey(uint32_t type, uint32_t id) { return (uint64_t{type} << 32) | id; }

// The mapping holding [va, va+size).
Result<std::pair<std::shared_ptr<core::Device>, core::Allocation>> MappingOf(core::Runtime& runtime,
                                                                             void* va,
                                                                             size_t size) {
  ACLSIM_ASSIGN_OR_RETURN(auto device, DeviceOfVa(runtime, va, "virPtr"));
  auto mapping = device->mapped().Find(va, size == 0 ? 1 : size);
  if (!mapping || std::strcmp(mapping->api, "aclrtMapMem") != 0) {
    return Err(StatusCode::kInvalidParam, "[{}, +{}) is not inside one aclrtMapMem mapping", va,
               size);
  }
  return std::make_pair(device, *mapping);
}

// aclrtMemSetPidToShareableHandle lists, by shareable handle: a runtime attachment, so
// aclFinalize forgets them.
struct SharePids {
  std::mutex mu;
  std::map<uint64_t, std::vector<int32_t>> by_handle;
};

}  // namespace

Result<size_t> Granularity(const PhysicalProps& props) {
  ACLSIM_RETURN_IF_ERROR(CheckProps(props));
  return IsHuge1g(props.mem_attr) ? k1G : k2M;
}

Result<void*> ReserveAddress(core::Runtime& runtime, size_t size, size_t alignment, void* expect,
                             uint64_t flags) {
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  ACLSIM_RETURN_IF_ERROR(CheckGranular("size", size, k2M));
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
    return Err(StatusCode::kInvalidParam, "alignment {} is not 0 or a power of two", alignment);
  }
  // CANN 7.0-8.0 document flags 0 (normal pages) and 1 (huge pages); 9.0 calls the field
  // reserved and recommends 0. llama.cpp passes 1. The simulator reserves alike for both (the
  // page size of the memory follows the physical allocations mapped in).
  if (flags > 1) {
    return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0 (normal pages) or 1 (huge pages)",
               flags);
  }
  if (expect != nullptr) {
    ACLSIM_LOG_DEBUG(dfx::Module::kRuntime,
                     "aclrtReserveMemAddress: expectPtr {} is a hint; the simulator ignores it",
                     expect);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime.CurrentContext());
  ACLSIM_ASSIGN_OR_RETURN(auto backend, context->device()->backend());
  void* va = nullptr;
  ACLSIM_RETURN_IF_ERROR(backend->ReserveAddress(size, alignment, &va));
  return va;
}

Status ReleaseAddress(core::Runtime& runtime, void* va) {
  ACLSIM_ASSIGN_OR_RETURN(auto device, DeviceOfVa(runtime, va, "virPtr"));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  return backend->ReleaseAddress(va);
}

Result<void*> MallocPhysical(core::Runtime& runtime, size_t size, const PhysicalProps& props,
                             uint64_t flags) {
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  if (flags != 0) {
    return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0 (reserved)", flags);
  }
  ACLSIM_ASSIGN_OR_RETURN(const size_t granularity, Granularity(props));
  ACLSIM_RETURN_IF_ERROR(CheckGranular("size", size, granularity));
  ACLSIM_ASSIGN_OR_RETURN(auto device,
                          runtime.OpenedDevice(static_cast<int32_t>(props.location_id)));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  const driver::MemPool pool =
      IsDdr(props.mem_attr) ? driver::MemPool::kDdr : driver::MemPool::kHbm;
  uint64_t handle = 0;
  ACLSIM_RETURN_IF_ERROR(backend->CreatePhysical(pool, PageOf(props), size, &handle));
  auto physical = core::MakeHandleObject<PhysicalMem>(device, handle, size, props, false);
  return core::PublishHandle(physical);
}

Status FreePhysical(void* handle) {
  ACLSIM_ASSIGN_OR_RETURN(auto physical, core::LookupHandle<PhysicalMem>(handle, "drvMemHandle"));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, physical->device->backend());
  ACLSIM_RETURN_IF_ERROR(backend->DestroyPhysical(physical->handle));
  return core::RetireHandle<PhysicalMem>(handle, "drvMemHandle").status();
}

Status MapMem(core::Runtime& runtime, void* va, size_t size, size_t offset, void* handle,
              uint64_t flags) {
  if (flags != 0) {
    return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0 (reserved)", flags);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto physical, core::LookupHandle<PhysicalMem>(handle, "drvMemHandle"));
  ACLSIM_ASSIGN_OR_RETURN(auto device, DeviceOfVa(runtime, va, "virPtr"));
  if (device != physical->device) {
    return Err(StatusCode::kInvalidParam,
               "virPtr {} is an address of device {}, but the physical memory is on device {}", va,
               device->id(), physical->device->id());
  }
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  ACLSIM_RETURN_IF_ERROR(backend->MapPhysical(va, size, physical->handle, offset));
  core::Allocation mapping;
  mapping.base = va;
  mapping.size = size;
  mapping.reserved = size;
  mapping.api = "aclrtMapMem";
  mapping.region = IsDdr(physical->props.mem_attr) ? core::MemRegion::kDdr : core::MemRegion::kHbm;
  mapping.page_bytes = IsHuge1g(physical->props.mem_attr) ? k1G : k2M;
  device->mapped().Insert(mapping);
  return Status::Ok();
}

Status UnmapMem(core::Runtime& runtime, void* va) {
  ACLSIM_ASSIGN_OR_RETURN(auto device, DeviceOfVa(runtime, va, "virPtr"));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  ACLSIM_RETURN_IF_ERROR(backend->UnmapPhysical(va));
  (void)device->mapped().Erase(va);
  if (auto access = device->attachments().Find<AccessFlags>()) {
    std::lock_guard<std::mutex> lock(access->mu);
    access->by_mapping.erase(va);
  }
  return Status::Ok();
}

Result<PhysicalProps> PropertiesOf(void* handle) {
  ACLSIM_ASSIGN_OR_RETURN(auto physical, core::LookupHandle<PhysicalMem>(handle, "drvMemHandle"));
  return physical->props;
}

Status SetAccess(core::Runtime& runtime, void* va, size_t size, uint32_t location_type,
                 uint32_t location_id, uint64_t flags) {
  if (flags != 0 && flags != 1 && flags != 3) {
    return Err(StatusCode::kInvalidParam, "flags {} is not an aclrtMemAccessFlags", flags);
  }
  if (location_type == kLocationDevice) {
    ACLSIM_RETURN_IF_ERROR(runtime.OpenedDevice(static_cast<int32_t>(location_id)).status());
  } else if (location_type != 0) {  // ACL_MEM_LOCATION_TYPE_HOST
    return Err(StatusCode::kInvalidParam, "location.type {} is not HOST or DEVICE", location_type);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto mapping, MappingOf(runtime, va, size));
  auto access = mapping.first->attachments().Get<AccessFlags>();
  std::lock_guard<std::mutex> lock(access->mu);
  access->by_mapping[mapping.second.base][LocationKey(location_type, location_id)] = flags;
  return Status::Ok();
}

Result<uint64_t> GetAccess(core::Runtime& runtime, void* va, uint32_t location_type,
                           uint32_t location_id) {
  ACLSIM_ASSIGN_OR_RETURN(auto mapping, MappingOf(runtime, va, 1));
  if (auto access = mapping.first->attachments().Find<AccessFlags>()) {
    std::lock_guard<std::mutex> lock(access->mu);
    auto entry = access->by_mapping.find(mapping.second.base);
    if (entry != access->by_mapping.end()) {
      auto flags = entry->second.find(LocationKey(location_type, location_id));
      if (flags != entry->second.end()) return flags->second;
    }
  }
  const bool own =
      location_type == kLocationDevice && static_cast<int32_t>(location_id) == mapping.first->id();
  return uint64_t{own ? 3u : 0u};
}

Result<uint64_t> ExportShareable(void* handle) {
  ACLSIM_ASSIGN_OR_RETURN(auto physical, core::LookupHandle<PhysicalMem>(handle, "drvMemHandle"));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, physical->device->backend());
  const int fd = backend->ExportPhysical(physical->handle);
  if (fd < 0) {
    return Err(StatusCode::kFeatureUnsupported, "this backend cannot share physical memory");
  }
  return (static_cast<uint64_t>(getpid()) << 32) | static_cast<uint32_t>(fd);
}

Status SetSharePids(core::Runtime& runtime, uint64_t shareable, const int32_t* pids, size_t count) {
  if (count == 0) return Err(StatusCode::kInvalidParam, "pidNum must be greater than 0");
  constexpr size_t kMaxPids = 65536;  // more processes than a host runs
  if (count > kMaxPids) {
    return Err(StatusCode::kInvalidParam, "pidNum {} is more than {} processes", count, kMaxPids);
  }
  auto share = runtime.attachments().Get<SharePids>();
  std::lock_guard<std::mutex> lock(share->mu);
  std::vector<int32_t>& list = share->by_handle[shareable];
  list.insert(list.end(), pids, pids + count);
  return Status::Ok();
}

Result<void*> ImportShareable(core::Runtime& runtime, uint64_t shareable, int32_t device_id) {
  const auto pid = static_cast<pid_t>(shareable >> 32);
  const auto remote_fd = static_cast<int>(shareable & 0xffffffffu);
  if (pid <= 0) {
    return Err(StatusCode::kInvalidParam, "shareableHandle {:#x} was not made by an export",
               shareable);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto device, runtime.OpenedDevice(device_id));
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  int fd = remote_fd;
  if (pid != getpid()) {
    const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(remote_fd);
    fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      return Err(StatusCode::kInvalidParam,
                 "shareableHandle {:#x}: cannot open the memory of process {} ({}); is it "
                 "still running?",
                 shareable, pid, std::strerror(errno));
    }
  }
  struct stat info {};
  const bool sized = fstat(fd, &info) == 0 && info.st_size > 0;
  uint64_t handle = 0;
  Status imported =
      sized ? backend->ImportPhysical(fd, static_cast<size_t>(info.st_size), driver::PageSize::k2M,
                                      &handle)
            : Err(StatusCode::kInvalidParam,
                  "shareableHandle {:#x} does not name shared device memory", shareable);
  if (pid != getpid()) close(fd);
  ACLSIM_RETURN_IF_ERROR(imported);
  PhysicalProps props;
  props.mem_attr = 4;  // ACL_HBM_MEM_HUGE
  props.location_id = static_cast<uint32_t>(device_id);
  auto physical = core::MakeHandleObject<PhysicalMem>(
      device, handle, static_cast<size_t>(info.st_size), props, true);
  return core::PublishHandle(physical);
}

}  // namespace aclsim::feature
