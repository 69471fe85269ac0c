// acl_rt_memory_soma.h: stream-ordered memory pools (src/feature/mem_pool.h).
#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "api/api_call.h"
#include "core/runtime.h"
#include "feature/mem_pool.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace feature = aclsim::feature;

namespace {

Status CheckAttr(const aclrtMemPoolAttr& attr) {
  const int value = api::EnumValue(attr);
  if (value < ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
      value > ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH) {
    return Err(StatusCode::kInvalidParam, "attr {} is not an aclrtMemPoolAttr", value);
  }
  return Status::Ok();
}

}  // namespace

aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(poolProps, "poolProps"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(
        *memPool,
        feature::CreatePool(*runtime, static_cast<uint32_t>(api::EnumValue(poolProps->allocType)),
                            static_cast<uint32_t>(api::EnumValue(poolProps->handleType)),
                            static_cast<uint32_t>(api::EnumValue(poolProps->location.type)),
                            poolProps->location.id, poolProps->maxSize));
    return Status::Ok();
  });
}

aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    return feature::DestroyPool(memPool);
  });
}

aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_RETURN_IF_ERROR(CheckAttr(attr));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    return feature::SetPoolAttr(memPool, static_cast<feature::PoolAttr>(api::EnumValue(attr)),
                                value);
  });
}

aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_RETURN_IF_ERROR(CheckAttr(attr));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    return feature::GetPoolAttr(memPool, static_cast<feature::PoolAttr>(api::EnumValue(attr)),
                                value);
  });
}

aclError aclrtMemPoolMallocAsync(void** devPtr, size_t size, aclrtMemPool memPool,
                                 aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*devPtr, feature::PoolMallocAsync(*runtime, size, memPool, stream));
    return Status::Ok();
  });
}

aclError aclrtMemPoolFreeAsync(void* devPtr, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::PoolFreeAsync(*runtime, devPtr, stream);
  });
}

aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memPool, "memPool"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    return feature::PoolTrimTo(memPool, minBytesToKeep);
  });
}
