// acl/acl_ext.h: aclsim's extensions -- fixed-block pools (src/feature/block_pool.h) and the
// host/device prefetch (src/feature/host_memory.h).
#include "acl/acl.h"
#include "acl/acl_ext.h"
#include "api/api_call.h"
#include "core/model_runner.h"
#include "core/runtime.h"
#include "feature/block_pool.h"
#include "feature/host_memory.h"

using aclsim::Status;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace feature = aclsim::feature;

aclError aclextBlockPoolCreate(aclextBlockPool* pool, size_t totalSize, size_t blockSize,
                               aclrtMemMallocPolicy policy) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pool, "pool"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(
        *pool, feature::CreateBlockPool(*runtime, totalSize, blockSize,
                                        static_cast<uint32_t>(api::EnumValue(policy))));
    return Status::Ok();
  });
}

aclError aclextBlockPoolAlloc(aclextBlockPool pool, void** devPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pool, "pool"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(auto found, feature::LookupBlockPool(pool));
    ACLSIM_ASSIGN_OR_RETURN(*devPtr, found->Alloc());
    return Status::Ok();
  });
}

aclError aclextBlockPoolFree(aclextBlockPool pool, void* devPtr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pool, "pool"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(auto found, feature::LookupBlockPool(pool));
    return found->Free(devPtr);
  });
}

aclError aclextBlockPoolGetInfo(aclextBlockPool pool, size_t* blockSize, size_t* blockCount,
                                size_t* freeCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pool, "pool"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(auto found, feature::LookupBlockPool(pool));
    if (blockSize != nullptr) *blockSize = found->block_size();
    if (blockCount != nullptr) *blockCount = found->block_count();
    if (freeCount != nullptr) *freeCount = found->free_count();
    return Status::Ok();
  });
}

aclError aclextBlockPoolDestroy(aclextBlockPool pool) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pool, "pool"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::DestroyBlockPool(*runtime, pool);
  });
}

aclError aclextMemPrefetchAsync(const void* ptr, size_t size, int32_t deviceId,
                                aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    feature::ManagedLocation location;
    location.type = deviceId == ACLEXT_PREFETCH_TO_HOST ? 2 : 1;  // HOST : DEVICE
    location.id = deviceId == ACLEXT_PREFETCH_TO_HOST ? 0 : deviceId;
    return feature::PrefetchManaged(*runtime, ptr, size, location, 0, stream);
  });
}

aclError aclextModelGetMemoryPlan(uint32_t modelId, size_t* arena, size_t* totalBuffers,
                                  size_t* lowerBound) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    ACLSIM_ASSIGN_OR_RETURN(auto model, core::FindModel(modelId));
    const core::CompiledModel& compiled = model->compiled();
    const core::ModelGear& gear = compiled.gears[compiled.largest_gear];
    if (arena != nullptr) *arena = gear.arena;
    if (totalBuffers != nullptr) *totalBuffers = gear.total;
    if (lowerBound != nullptr) *lowerBound = gear.lower_bound;
    return Status::Ok();
  });
}
