// acl_rt.h: what a pointer is (aclrtPointerGetAttributes, aclrtMemGetAddressRange) and frees
// that wait for the device first (aclrtFreeWithDevSync, aclrtFreeHostWithDevSync).
#include <optional>
#include <utility>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/device.h"
#include "core/memory_ops.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// The allocation containing `ptr`: device memory of an open device (with its id), or pinned
// host memory (device -1); nullopt for anything else.
struct Owner {
  core::Allocation allocation;
  int32_t device = -1;
};

std::optional<Owner> OwnerOf(core::Runtime& runtime, const void* ptr) {
  // Host first: registered host memory is also live memory of the device that maps it.
  if (auto allocation = runtime.host_memory().FindContaining(ptr)) return Owner{*allocation, -1};
  for (const auto& device : runtime.OpenedDevices()) {
    if (auto allocation = device->FindContainingLive(ptr)) {
      return Owner{*allocation, device->id()};
    }
  }
  return std::nullopt;
}

}  // namespace

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ptr, "ptr"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attributes, "attributes"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    *attributes = aclrtPtrAttributes{};
    const auto owner = OwnerOf(*runtime, ptr);
    if (!owner) {  // ordinary host memory the runtime does not know
      attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
      return Status::Ok();
    }
    if (owner->device >= 0) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      attributes->location.id = static_cast<uint32_t>(owner->device);
      attributes->pageSize = static_cast<uint32_t>(owner->allocation.page_bytes);
    } else {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
      attributes->pageSize = 4096;
    }
    return Status::Ok();
  });
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ptr, "ptr"));
    if (pbase == nullptr && psize == nullptr) {
      return Err(StatusCode::kInvalidParam, "pbase and psize are both NULL: nothing to return");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    const auto owner = OwnerOf(*runtime, ptr);
    if (!owner) {
      return Err(StatusCode::kInvalidParam,
                 "ptr {} is not inside memory allocated by aclrtMalloc* or aclrtMallocHost*", ptr);
    }
    if (pbase != nullptr) *pbase = owner->allocation.base;
    if (psize != nullptr) *psize = owner->allocation.size;
    return Status::Ok();
  });
}

aclError aclrtFreeWithDevSync(void* devPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    // Work queued on the owning device may still use the memory: wait for all of it. The
    // memory is freed even if that work failed; the failure is then what the call returns.
    Status synced;
    if (auto device = runtime->DeviceOfAddress(devPtr, 1)) {
      ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
      synced = backend->SyncDevice(-1);
    }
    ACLSIM_RETURN_IF_ERROR(core::DeviceFree(*runtime, devPtr));
    return synced;
  });
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(hostPtr, "hostPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    // Any device may have copies from or to it queued (freed even if that work failed, as
    // aclrtFreeWithDevSync).
    Status synced;
    for (const auto& device : runtime->OpenedDevices()) {
      ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
      Status status = backend->SyncDevice(-1);
      if (synced.ok()) synced = std::move(status);
    }
    ACLSIM_RETURN_IF_ERROR(core::HostFree(*runtime, hostPtr));
    return synced;
  });
}
