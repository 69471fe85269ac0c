// acl_rt.h: host registration and managed memory (src/feature/host_memory.h).
#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"
#include "feature/host_memory.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace feature = aclsim::feature;

namespace {

feature::ManagedLocation LocationOf(const aclrtMemManagedLocation& location) {
  return feature::ManagedLocation{api::EnumValue(location.type), location.id};
}

}  // namespace

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType hostRegisterType,
                           void** devPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    uint32_t flags = feature::kHostRegMapped;
    switch (api::EnumValue(hostRegisterType)) {
      case ACL_HOST_REGISTER_MAPPED:
        break;
      case ACL_HOST_REGISTER_IOMEMORY:
        flags |= feature::kHostRegIoMemory;
        break;
      case ACL_HOST_REGISTER_READONLY:
        flags |= feature::kHostRegReadOnly;
        break;
      default:
        return Err(StatusCode::kInvalidParam, "hostRegisterType {} is not an aclrtHostRegisterType",
                   api::EnumValue(hostRegisterType));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*devPtr, feature::HostRegister(*runtime, ptr, size, flags));
    return Status::Ok();
  });
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::HostRegister(*runtime, ptr, size, flag).status();
  });
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pDevice, "pDevice"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*pDevice, feature::HostDevicePointer(*runtime, pHost, flag));
    return Status::Ok();
  });
}

aclError aclrtHostUnregister(void* ptr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::HostUnregister(*runtime, ptr);
  });
}

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ptr, "ptr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*ptr, feature::AllocManaged(*runtime, size, flag));
    return Status::Ok();
  });
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                      aclrtMemManagedLocation memManagedLocation, uint32_t flags,
                                      aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::PrefetchManaged(*runtime, ptr, size, LocationOf(memManagedLocation), flags,
                                    stream);
  });
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs,
                                           size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                           uint64_t flags, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ptrs, "ptrs"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(sizes, "sizes"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(prefetchLocs, "prefetchLocs"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(prefetchLocIdxs, "prefetchLocIdxs"));
    if (count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count) {
      return Err(StatusCode::kInvalidParam,
                 "count {} and numPrefetchLocs {} must be > 0 with numPrefetchLocs <= count", count,
                 numPrefetchLocs);
    }
    if (flags != 0) return Err(StatusCode::kInvalidParam, "flags {:#x} must be 0", flags);
    if (prefetchLocIdxs[0] != 0) {
      return Err(StatusCode::kInvalidParam, "prefetchLocIdxs[0] must be 0, not {}",
                 prefetchLocIdxs[0]);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    // Location l applies to the pointers from prefetchLocIdxs[l] up to the next index.
    size_t location = 0;
    for (size_t i = 0; i < count; ++i) {
      while (location + 1 < numPrefetchLocs && prefetchLocIdxs[location + 1] <= i) ++location;
      ACLSIM_RETURN_IF_ERROR(feature::PrefetchManaged(
          *runtime, ptrs[i], sizes[i], LocationOf(prefetchLocs[location]), 0, stream));
    }
    return Status::Ok();
  });
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                               aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation memManagedLocation) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::AdviseManaged(*runtime, ptr, size, api::EnumValue(advise),
                                  LocationOf(memManagedLocation));
  });
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute memManagedRangeAttribute,
                                const void* ptr, size_t size, void* data, size_t dataSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::ManagedAttr(*runtime, api::EnumValue(memManagedRangeAttribute), ptr, size, data,
                                dataSize);
  });
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes,
                                 const void* ptr, size_t size, void** data, size_t* dataSizes) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attributes, "attributes"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(data, "data"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dataSizes, "dataSizes"));
    if (numAttributes == 0) {
      return Err(StatusCode::kInvalidParam, "numAttributes must be greater than 0");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    for (size_t i = 0; i < numAttributes; ++i) {
      ACLSIM_RETURN_IF_ERROR(feature::ManagedAttr(*runtime, api::EnumValue(attributes[i]), ptr,
                                                  size, data[i], dataSizes[i]));
    }
    return Status::Ok();
  });
}
