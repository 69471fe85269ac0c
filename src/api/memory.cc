// acl_rt.h: memory (first cut: malloc/free, pinned host memory, copies, memsets, info).
#include "acl/acl.h"
#include "api/api_call.h"
#include "core/memory_ops.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

Result<core::CopyKind> ToCopyKind(const aclrtMemcpyKind& memcpy_kind) {
  const int kind = api::EnumValue(memcpy_kind);
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return core::CopyKind::kHostToHost;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return core::CopyKind::kHostToDevice;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return core::CopyKind::kDeviceToHost;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      return core::CopyKind::kDeviceToDevice;
    case ACL_MEMCPY_DEFAULT:
      return core::CopyKind::kDefault;
  }
  return Err(StatusCode::kInvalidParam, "kind {} is not an aclrtMemcpyKind", kind);
}

Status Malloc(void** devPtr, size_t size, const aclrtMemMallocPolicy& policy, const char* name,
              core::SizeRounding rounding) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
  ACLSIM_ASSIGN_OR_RETURN(core::Runtime * runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(
      *devPtr, core::DeviceMalloc(*runtime, size, static_cast<uint32_t>(api::EnumValue(policy)),
                                  name, -1, rounding));
  return Status::Ok();
}

}  // namespace

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  // The common case without the API call's frame (the fast path declines while profiling,
  // so there is nothing to trace); anything else, a failure included, takes the full path.
  if (devPtr != nullptr) {
    void* ptr = nullptr;
    try {
      ptr = core::TryDeviceMallocCached(size, static_cast<uint32_t>(api::EnumValue(policy)),
                                        "aclrtMalloc", core::SizeRounding::kPad32);
    } catch (...) {  // std::bad_alloc of the allocator's bookkeeping: the full path reports it
      ptr = nullptr;
    }
    if (ptr != nullptr) {
      *devPtr = ptr;
      return ACL_SUCCESS;
    }
  }
  return api::ApiCall(__func__, [&]() {
    return Malloc(devPtr, size, policy, "aclrtMalloc", core::SizeRounding::kPad32);
  });
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api::ApiCall(__func__, [&]() {
    return Malloc(devPtr, size, policy, "aclrtMallocAlign32", core::SizeRounding::kAlign32);
  });
}

aclError aclrtFree(void* devPtr) {
  try {
    if (core::TryDeviceFree(devPtr)) return ACL_SUCCESS;  // as aclrtMalloc's fast path
  } catch (...) {
    return api::ApiCall(__func__, []() -> Status { throw; });  // reported as the full path does
  }
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(core::Runtime * runtime, core::Runtime::Current());
    return core::DeviceFree(*runtime, devPtr);
  });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(hostPtr, "hostPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*hostPtr, core::HostMalloc(*runtime, size));
    return Status::Ok();
  });
}

aclError aclrtFreeHost(void* hostPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::HostFree(*runtime, hostPtr);
  });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto copy_kind, ToCopyKind(kind));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::Memcpy(*runtime, dst, destMax, src, count, copy_kind);
  });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto copy_kind, ToCopyKind(kind));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::MemcpyAsync(*runtime, dst, destMax, src, count, copy_kind, stream);
  });
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto copy_kind, ToCopyKind(kind));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::MemcpyAsync(*runtime, dst, destMax, src, count, copy_kind, stream);
  });
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto copy_kind, ToCopyKind(kind));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::Memcpy2d(*runtime, dst, dpitch, src, spitch, width, height, copy_kind, nullptr,
                          /*async=*/false);
  });
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto copy_kind, ToCopyKind(kind));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::Memcpy2d(*runtime, dst, dpitch, src, spitch, width, height, copy_kind, stream,
                          /*async=*/true);
  });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::Memset(*runtime, devPtr, maxCount, value, count, nullptr, /*async=*/false);
  });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::Memset(*runtime, devPtr, maxCount, value, count, stream, /*async=*/true);
  });
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::MemsetD32(*runtime, ptr, memSize, value, N, nullptr, /*async=*/false);
  });
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::MemsetD32(*runtime, ptr, memSize, value, N, stream, /*async=*/true);
  });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(free, "free"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(total, "total"));
    bool hbm = true;
    bool huge = false;
    switch (api::EnumValue(attr)) {
      case ACL_DDR_MEM:
      case ACL_DDR_MEM_NORMAL:
      case ACL_DDR_MEM_P2P_NORMAL:
        hbm = false;
        break;
      case ACL_DDR_MEM_HUGE:
      case ACL_DDR_MEM_P2P_HUGE:
        hbm = false;
        huge = true;
        break;
      case ACL_HBM_MEM:
      case ACL_HBM_MEM_NORMAL:
      case ACL_HBM_MEM_P2P_NORMAL:
      case ACL_MEM_NORMAL:
      case ACL_MEM_P2P_NORMAL:
        break;
      case ACL_HBM_MEM_HUGE:
      case ACL_HBM_MEM_P2P_HUGE:
      case ACL_HBM_MEM_HUGE1G:
      case ACL_HBM_MEM_P2P_HUGE1G:
      case ACL_MEM_HUGE:
      case ACL_MEM_HUGE1G:
      case ACL_MEM_P2P_HUGE:
      case ACL_MEM_P2P_HUGE1G:
        huge = true;
        break;
      default:
        return Err(StatusCode::kInvalidParam, "attr {} is not an aclrtMemAttr",
                   api::EnumValue(attr));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::MemInfo(*runtime, hbm, huge, free, total);
  });
}
