// acl_rt.h: virtual memory management -- address reservations, physical allocations,
// mappings, granularity, properties and shareable handles (src/feature/vmm.h).
#include <cstring>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/device.h"
#include "core/runtime.h"
#include "feature/vmm.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace feature = aclsim::feature;

namespace {

feature::PhysicalProps PropsOf(const aclrtPhysicalMemProp& prop) {
  feature::PhysicalProps props;
  props.handle_type = static_cast<uint32_t>(api::EnumValue(prop.handleType));
  props.allocation_type = static_cast<uint32_t>(api::EnumValue(prop.allocationType));
  props.mem_attr = static_cast<uint32_t>(api::EnumValue(prop.memAttr));
  props.location_id = prop.location.id;
  props.location_type = static_cast<uint32_t>(api::EnumValue(prop.location.type));
  return props;
}

Status Reserve(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  ACLSIM_ASSIGN_OR_RETURN(*virPtr,
                          feature::ReserveAddress(*runtime, size, alignment, expectPtr, flags));
  return Status::Ok();
}

}  // namespace

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags) {
  return api::ApiCall(__func__, [&] { return Reserve(virPtr, size, alignment, expectPtr, flags); });
}

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment,
                                          void* expectPtr, uint64_t flags) {
  return api::ApiCall(__func__, [&] { return Reserve(virPtr, size, alignment, expectPtr, flags); });
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::ReleaseAddress(*runtime, virPtr);
  });
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* drvMemHandle, size_t size,
                             const aclrtPhysicalMemProp* physicalMemProp, uint64_t flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(physicalMemProp, "physicalMemProp"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(
        *drvMemHandle, feature::MallocPhysical(*runtime, size, PropsOf(*physicalMemProp), flags));
    return Status::Ok();
  });
}

aclError aclrtFreePhysical(aclrtDrvMemHandle drvMemHandle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    return feature::FreePhysical(drvMemHandle);
  });
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle drvMemHandle,
                     uint64_t flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::MapMem(*runtime, virPtr, size, offset, drvMemHandle, flags);
  });
}

aclError aclrtUnmapMem(void* virPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::UnmapMem(*runtime, virPtr);
  });
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* physicalMemProp,
                                          aclrtMemGranularityOptions option, size_t* granularity) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(physicalMemProp, "physicalMemProp"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(granularity, "granularity"));
    const int value = api::EnumValue(option);
    if (value != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
        value != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
      return Err(StatusCode::kInvalidParam, "option {} is not an aclrtMemGranularityOptions",
                 value);
    }
    ACLSIM_ASSIGN_OR_RETURN(*granularity, feature::Granularity(PropsOf(*physicalMemProp)));
    return Status::Ok();
  });
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle drvMemHandle,
                                                   aclrtPhysicalMemProp* physicalMemProp) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(physicalMemProp, "physicalMemProp"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(feature::PhysicalProps props, feature::PropertiesOf(drvMemHandle));
    *physicalMemProp = aclrtPhysicalMemProp{};
    physicalMemProp->handleType = static_cast<aclrtMemHandleType>(props.handle_type);
    physicalMemProp->allocationType = static_cast<aclrtMemAllocationType>(props.allocation_type);
    physicalMemProp->memAttr = static_cast<aclrtMemAttr>(props.mem_attr);
    physicalMemProp->location.id = props.location_id;
    physicalMemProp->location.type = static_cast<aclrtMemLocationType>(props.location_type);
    return Status::Ok();
  });
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle drvMemHandle,
                                         aclrtMemHandleType memHandleType, uint64_t flags,
                                         uint64_t* shareableHandle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(shareableHandle, "shareableHandle"));
    const int type = api::EnumValue(memHandleType);
    if (type != ACL_MEM_HANDLE_TYPE_NONE && type != ACL_MEM_HANDLE_TYPE_POSIX) {
      return Err(StatusCode::kInvalidParam, "memHandleType {} is not an aclrtMemHandleType", type);
    }
    if (flags != 0) {
      return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0 (reserved)", flags);
    }
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(*shareableHandle, feature::ExportShareable(drvMemHandle));
    return Status::Ok();
  });
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* drvMemHandle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*drvMemHandle,
                            feature::ImportShareable(*runtime, shareableHandle, deviceId));
    return Status::Ok();
  });
}

namespace {

constexpr uint64_t kFabricTag = 0x4246'6D69'736C'6361;  // "aclsimFB": our fabric handles

// The uint64_t shareable handle behind a V2 handle of `type` (DEFAULT: a uint64_t; FABRIC:
// an aclrtMemFabricHandle holding it with our tag).
Result<uint64_t> ReadShareable(const void* handle, const aclrtMemSharedHandleType& type) {
  const int value = api::EnumValue(type);
  uint64_t shareable = 0;
  if (value == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
    std::memcpy(&shareable, handle, sizeof(shareable));
    return shareable;
  }
  if (value != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    return Err(StatusCode::kInvalidParam, "shareType {} is not an aclrtMemSharedHandleType", value);
  }
  const auto* fabric = static_cast<const aclrtMemFabricHandle*>(handle);
  uint64_t tag = 0;
  std::memcpy(&shareable, fabric->data, sizeof(shareable));
  std::memcpy(&tag, fabric->data + 8, sizeof(tag));
  if (tag != kFabricTag) {
    return Err(StatusCode::kInvalidParam,
               "shareableHandle is not a fabric handle made by aclrtMemExportToShareableHandleV2");
  }
  return shareable;
}

Status CheckShareType(const aclrtMemSharedHandleType& type) {
  const int value = api::EnumValue(type);
  if (value != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && value != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    return Err(StatusCode::kInvalidParam, "shareType {} is not an aclrtMemSharedHandleType", value);
  }
  return Status::Ok();
}

}  // namespace

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle drvMemHandle, uint64_t flags,
                                           aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(shareableHandle, "shareableHandle"));
    ACLSIM_RETURN_IF_ERROR(CheckShareType(shareType));
    if ((flags & ~uint64_t{ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION}) != 0) {
      return Err(StatusCode::kInvalidParam,
                 "flags {:#x} has bits that are not ACL_RT_VMM_EXPORT_FLAG_*", flags);
    }
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(const uint64_t shareable, feature::ExportShareable(drvMemHandle));
    if (api::EnumValue(shareType) == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
      std::memcpy(shareableHandle, &shareable, sizeof(shareable));
      return Status::Ok();
    }
    aclrtMemFabricHandle fabric = {};
    std::memcpy(fabric.data, &shareable, sizeof(shareable));
    std::memcpy(fabric.data + 8, &kFabricTag, sizeof(kFabricTag));
    std::memcpy(shareableHandle, &fabric, sizeof(fabric));
    return Status::Ok();
  });
}

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                             aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* drvMemHandle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(shareableHandle, "shareableHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(drvMemHandle, "drvMemHandle"));
    if (flags != 0) return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0", flags);
    ACLSIM_ASSIGN_OR_RETURN(const uint64_t shareable, ReadShareable(shareableHandle, shareType));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    ACLSIM_ASSIGN_OR_RETURN(*drvMemHandle,
                            feature::ImportShareable(*runtime, shareable, context->device()->id()));
    return Status::Ok();
  });
}

aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                           aclrtMemSharedHandleType shareType, int32_t* pid,
                                           size_t pidNum) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(shareableHandle, "shareableHandle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pid, "pid"));
    ACLSIM_ASSIGN_OR_RETURN(const uint64_t shareable, ReadShareable(shareableHandle, shareType));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::SetSharePids(*runtime, shareable, pid, pidNum);
  });
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* memAccessDesc,
                           size_t count) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memAccessDesc, "memAccessDesc"));
    if (count == 0) return Err(StatusCode::kInvalidParam, "count must be greater than 0");
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    for (size_t i = 0; i < count; ++i) {
      const aclrtMemAccessDesc& desc = memAccessDesc[i];
      ACLSIM_RETURN_IF_ERROR(feature::SetAccess(
          *runtime, virPtr, size, static_cast<uint32_t>(api::EnumValue(desc.location.type)),
          desc.location.id, static_cast<uint64_t>(api::EnumValue(desc.flags))));
    }
    return Status::Ok();
  });
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* memLocation, uint64_t* flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(virPtr, "virPtr"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memLocation, "memLocation"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(flag, "flag"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(
        *flag, feature::GetAccess(*runtime, virPtr,
                                  static_cast<uint32_t>(api::EnumValue(memLocation->type)),
                                  memLocation->id));
    return Status::Ok();
  });
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pid, "pid"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::SetSharePids(*runtime, shareableHandle, pid, pidNum);
  });
}
