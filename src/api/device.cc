// acl_rt.h: devices.
#include <unistd.h>

#include <cstring>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

Result<std::shared_ptr<core::Device>> CurrentDevice(core::Runtime& runtime) {
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime.CurrentContext());
  return context->device();
}

// aclrtSetDeviceSatMode's mode: the init's (Runtime::attachments), so aclFinalize restores
// the default.
struct SatMode {
  std::atomic<int> value{ACL_RT_OVERFLOW_MODE_SATURATION};
};

}  // namespace

aclError aclrtSetDevice(int32_t deviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return runtime->SetDevice(deviceId);
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return runtime->ResetDevice(deviceId, /*force=*/false);
  });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return runtime->ResetDevice(deviceId, /*force=*/true);
  });
}

aclError aclrtGetDevice(int32_t* deviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(deviceId, "deviceId"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    *deviceId = device->id();
    return Status::Ok();
  });
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(runMode, "runMode"));
    *runMode = ACL_HOST;  // the program runs on the host, the (simulated) device is separate
    return Status::Ok();
  });
}

aclError aclrtSynchronizeDevice(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
    return backend->SyncDevice(-1);
  });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckSyncTimeout(timeout));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
    return backend->SyncDevice(timeout);
  });
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int ts = api::EnumValue(tsId);
    if (ts != ACL_TS_ID_AICORE && ts != ACL_TS_ID_AIVECTOR) {
      return Err(StatusCode::kInvalidParam, "tsId {} is not ACL_TS_ID_AICORE or _AIVECTOR", ts);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return Status::Ok();  // one task scheduler serves both engines in the simulator
  });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(count, "count"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    *count = runtime->device_count();
    return Status::Ok();
  });
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(canAccessPeer, "canAccessPeer"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(deviceId));
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(peerDeviceId));
    if (deviceId == peerDeviceId) {
      return Err(StatusCode::kInvalidParam, "deviceId and peerDeviceId are both {}", deviceId);
    }
    *canAccessPeer = 1;  // all devices of one backend share an interconnect (HCCS)
    return Status::Ok();
  });
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (flags != 0) return Err(StatusCode::kInvalidParam, "flags must be 0, got {}", flags);
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(peerDeviceId));
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    if (device->id() == peerDeviceId) {
      return Err(StatusCode::kInvalidParam, "peer device {} is the current device", peerDeviceId);
    }
    device->SetPeerAccess(peerDeviceId, true);
    return Status::Ok();
  });
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(peerDeviceId));
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    if (!device->PeerAccessEnabled(peerDeviceId)) {
      return Err(StatusCode::kInvalidParam, "peer access from device {} to {} is not enabled",
                 device->id(), peerDeviceId);
    }
    device->SetPeerAccess(peerDeviceId, false);
    return Status::Ok();
  });
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(status, "status"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(peerDeviceId));
    ACLSIM_ASSIGN_OR_RETURN(auto device, runtime->OpenedDevice(deviceId));
    *status = device->PeerAccessEnabled(peerDeviceId) ? 1 : 0;
    return Status::Ok();
  });
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int value = api::EnumValue(mode);
    if (value != ACL_RT_OVERFLOW_MODE_SATURATION && value != ACL_RT_OVERFLOW_MODE_INFNAN) {
      return Err(StatusCode::kInvalidParam, "overflow mode {} is not SATURATION or INFNAN", value);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    runtime->attachments().Get<SatMode>()->value.store(value);
    return Status::Ok();
  });
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(mode, "mode"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    *mode =
        static_cast<aclrtFloatOverflowMode>(runtime->attachments().Get<SatMode>()->value.load());
    return Status::Ok();
  });
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(deviceStatus, "deviceStatus"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(deviceId));
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    // A device that is open and was lost (fault injection) is abnormal until it is reset.
    auto device = runtime->OpenedDevice(deviceId);
    if (device.ok()) {
      auto backend = device.value()->backend();
      if (backend.ok() && !backend.value()->Health().ok()) {
        *deviceStatus = ACL_RT_DEVICE_STATUS_ABNORMAL;
      }
    }
    return Status::Ok();
  });
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pid, "pid"));
    *pid = static_cast<int32_t>(getpid());
    return Status::Ok();
  });
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto props, runtime->DeviceProps(static_cast<int32_t>(deviceId)));
    switch (api::EnumValue(attr)) {
      case ACL_DEV_ATTR_AICPU_CORE_NUM:
        *value = props.aicpu_num;
        break;
      case ACL_DEV_ATTR_AICORE_CORE_NUM:
      case ACL_DEV_ATTR_CUBE_CORE_NUM:
        *value = props.aicore_num;
        break;
      case ACL_DEV_ATTR_VECTOR_CORE_NUM:
        *value = props.vector_core_num;
        break;
      case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
        *value = static_cast<int64_t>(props.ub_bytes);
        break;
      case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
        *value = static_cast<int64_t>(props.hbm_bytes);
        break;
      case ACL_DEV_ATTR_L2_CACHE_SIZE:
        *value = static_cast<int64_t>(props.l2_bytes);
        break;
      case ACL_DEV_ATTR_NPU_ARCH:
        *value = props.npu_arch;
        break;
      case ACL_DEV_ATTR_PHY_CHIP_ID:
        *value = runtime->PhysicalId(static_cast<int32_t>(deviceId));
        break;
      case ACL_DEV_ATTR_IS_VIRTUAL:
        *value = 0;
        break;
      case ACL_DEV_ATTR_SMP_ID:
      case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
      case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
      case ACL_DEV_ATTR_SUPER_POD_ID:
      case ACL_DEV_ATTR_MAINBOARD_ID:
        *value = 0;
        break;
      default:
        return Err(StatusCode::kFeatureUnsupported,
                   "device attribute {} is not available on the simulated {}", api::EnumValue(attr),
                   props.soc_name);
    }
    return Status::Ok();
  });
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto props, runtime->DeviceProps(static_cast<int32_t>(deviceId)));
    switch (api::EnumValue(deviceInfo)) {
      case ACL_DEVICE_INFO_AI_CORE_NUM:
        *value = props.aicore_num;
        break;
      case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = props.vector_core_num;
        break;
      case ACL_DEVICE_INFO_L2_SIZE:
        *value = static_cast<int64_t>(props.l2_bytes);
        break;
      default:
        return Err(StatusCode::kInvalidParam, "deviceInfo {} is not an aclDeviceInfo",
                   api::EnumValue(deviceInfo));
    }
    return Status::Ok();
  });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(leastPriority, "leastPriority"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(greatestPriority, "greatestPriority"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, CurrentDevice(*runtime));
    *leastPriority = device->props().stream_priority_least;
    *greatestPriority = device->props().stream_priority_greatest;
    return Status::Ok();
  });
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(uuid, "uuid"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(deviceId));
    // Stable per physical device: "aclsim-npu" + the physical id.
    std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
    std::memcpy(uuid->bytes, "aclsim-npu", 10);
    uint32_t physical = runtime->PhysicalId(deviceId);
    std::memcpy(uuid->bytes + 12, &physical, sizeof(physical));
    return Status::Ok();
  });
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(static_cast<int32_t>(deviceId)));
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(static_cast<int32_t>(otherDeviceId)));
    *value = ACL_RT_DEVS_TOPOLOGY_HCCS;  // one simulated server: all devices on HCCS
    return Status::Ok();
  });
}

namespace {

// Logical ids are user ids here (no container remapping); physical ids come from
// ASCEND_RT_VISIBLE_DEVICES.
aclError ConvertId(const char* name, int32_t in, int32_t* out, bool to_physical) {
  return api::ApiCall(name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(out, "output id"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    if (to_physical) {
      ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(in));
      *out = static_cast<int32_t>(runtime->PhysicalId(in));
      return Status::Ok();
    }
    for (uint32_t id = 0; id < runtime->device_count(); ++id) {
      if (static_cast<int32_t>(runtime->PhysicalId(static_cast<int32_t>(id))) == in) {
        *out = static_cast<int32_t>(id);
        return Status::Ok();
      }
    }
    return Err(StatusCode::kInvalidDevice, "physical device {} is not visible to this process", in);
  });
}

aclError SameId(const char* name, int32_t in, int32_t* out) {
  return api::ApiCall(name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(out, "output id"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(in));
    *out = in;
    return Status::Ok();
  });
}

}  // namespace

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
  return SameId(__func__, userDevid, logicDevId);
}
aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
  return SameId(__func__, logicDevId, userDevid);
}
aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
  return ConvertId(__func__, phyDevId, logicDevId, /*to_physical=*/false);
}
aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
  return ConvertId(__func__, logicDevId, phyDevId, /*to_physical=*/true);
}
aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
  return ConvertId(__func__, phyDevId, userDevId, /*to_physical=*/false);
}
aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
  return ConvertId(__func__, userDevId, phyDevId, /*to_physical=*/true);
}
