// acl_rt.h: allocation variants (configured, cached, for the task scheduler, configured host
// memory), the cache maintenance of cached device memory (aclrtMemFlush / Invalidate) and
// per-region usage (aclrtGetMemUsageInfo).
//
// The simulated device's memory is host memory seen by both sides at once, so flushing and
// invalidating have nothing to do beyond checking that the range is device memory; cached
// allocations otherwise behave as aclrtMalloc's.
#include <cstdio>
#include <optional>
#include <vector>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/device.h"
#include "core/memory_ops.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// What an aclrtMallocConfig asks for (NULL: nothing).
struct MallocConfig {
  std::optional<int32_t> device_id;  // ACL_RT_MEM_ATTR_DEVICE_ID
};

Result<MallocConfig> ParseConfig(const aclrtMallocConfig* cfg, bool device_memory) {
  MallocConfig parsed;
  if (cfg == nullptr) return parsed;
  if (cfg->numAttrs > 0 && cfg->attrs == nullptr) {
    return Err(StatusCode::kInvalidParam, "cfg->attrs is NULL but cfg->numAttrs is {}",
               cfg->numAttrs);
  }
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtMallocAttribute& attr = cfg->attrs[i];
    switch (api::EnumValue(attr.attr)) {
      case ACL_RT_MEM_ATTR_RSV:
      case ACL_RT_MEM_ATTR_MODULE_ID:  // the caller's module, for accounting: not used
      case ACL_RT_MEM_ATTR_VA_FLAG:
        break;
      case ACL_RT_MEM_ATTR_DEVICE_ID:
        if (!device_memory) {
          return Err(StatusCode::kInvalidParam,
                     "cfg->attrs[{}]: ACL_RT_MEM_ATTR_DEVICE_ID does not apply to host memory", i);
        }
        parsed.device_id = static_cast<int32_t>(attr.value.deviceId);
        break;
      default:
        return Err(StatusCode::kInvalidParam,
                   "cfg->attrs[{}].attr {} is not an aclrtMallocAttrType", i,
                   api::EnumValue(attr.attr));
    }
  }
  return parsed;
}

Status MallocWithConfig(void** devPtr, size_t size, const aclrtMemMallocPolicy& policy,
                        const aclrtMallocConfig* cfg, const char* name) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
  ACLSIM_ASSIGN_OR_RETURN(MallocConfig config, ParseConfig(cfg, true));
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  ACLSIM_ASSIGN_OR_RETURN(
      *devPtr, core::DeviceMalloc(*runtime, size, static_cast<uint32_t>(api::EnumValue(policy)),
                                  name, config.device_id.value_or(-1)));
  return Status::Ok();
}

// aclrtMemFlush / aclrtMemInvalidate: the range must lie in one device allocation.
Status CheckCachedRange(const void* devPtr, size_t size) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  for (const auto& device : runtime->OpenedDevices()) {
    if (device->FindLive(devPtr, size)) return Status::Ok();
  }
  return Err(StatusCode::kInvalidParam,
             "devPtr {} (+{} bytes) is not inside a live device allocation of an open device",
             devPtr, size);
}

}  // namespace

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api::ApiCall(__func__, [&]() {
    return MallocWithConfig(devPtr, size, policy, nullptr, "aclrtMallocCached");
  });
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig* cfg) {
  return api::ApiCall(__func__, [&]() {
    return MallocWithConfig(devPtr, size, policy, cfg, "aclrtMallocWithCfg");
  });
}

aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg) {
  return api::ApiCall(__func__, [&]() {
    return MallocWithConfig(devPtr, size, policy, cfg, "aclrtMallocForTaskScheduler");
  });
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ptr, "ptr"));
    ACLSIM_RETURN_IF_ERROR(ParseConfig(cfg, false).status());
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*ptr, core::HostMalloc(*runtime, static_cast<size_t>(size)));
    return Status::Ok();
  });
}

aclError aclrtMemFlush(void* devPtr, size_t size) {
  return api::ApiCall(__func__, [&]() { return CheckCachedRange(devPtr, size); });
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
  return api::ApiCall(__func__, [&]() { return CheckCachedRange(devPtr, size); });
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                              size_t* outputNum) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(outputNum, "outputNum"));
    if (inputNum > 0) ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(memUsageInfo, "memUsageInfo"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, runtime->OpenedDevice(deviceId));
    // One entry per memory region of the device: HBM, and DDR where the SoC has it.
    std::vector<core::MemRegion> regions = {core::MemRegion::kHbm};
    if (device->props().ddr_bytes > 0) regions.push_back(core::MemRegion::kDdr);
    size_t filled = 0;
    for (; filled < regions.size() && filled < inputNum; ++filled) {
      const core::RegionUsage usage = device->memory().Usage(regions[filled]);
      aclrtMemUsageInfo& info = memUsageInfo[filled];
      info = aclrtMemUsageInfo{};
      std::snprintf(info.name, sizeof(info.name), "%s", core::MemRegionName(regions[filled]));
      info.curMemSize = usage.current;
      info.memPeakSize = usage.peak;
    }
    *outputNum = filled;
    return Status::Ok();
  });
}
