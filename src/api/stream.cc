// acl_rt.h: streams.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"
#include "core/streams.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// aclrtStreamConfigHandle is a public struct; ours is registered like any other handle.
struct StreamConfig {
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kStreamConfig;
  aclrtStreamConfigHandle value;  // first member: the handle points at it
};

Status Create(aclrtStream* stream, uint32_t priority, uint32_t flags) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(stream, "stream"));
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  if (priority > 0x7fffffffU) {
    return Err(StatusCode::kInvalidParam, "priority {} is out of range", priority);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto created,
                          core::CreateStream(*runtime, flags, static_cast<int32_t>(priority)));
  *stream = created.get();
  return Status::Ok();
}

}  // namespace

aclError aclrtCreateStream(aclrtStream* stream) {
  return api::ApiCall(__func__, [&]() { return Create(stream, 0, 0); });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  return api::ApiCall(__func__, [&]() { return Create(stream, priority, flag); });
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  return api::ValueCall<aclrtStreamConfigHandle*>(
      __func__, nullptr, [&]() -> aclsim::Result<aclrtStreamConfigHandle*> {
        auto config = core::MakeHandleObject<StreamConfig>();
        std::memset(&config->value, 0, sizeof(config->value));
        return static_cast<aclrtStreamConfigHandle*>(core::PublishHandle(config));
      });
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<StreamConfig>(handle, "handle").status();
  });
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config, core::LookupHandle<StreamConfig>(handle, "handle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attrValue, "attrValue"));
    auto copy = [&](void* field, size_t size) -> Status {
      if (valueSize != size) {
        return Err(StatusCode::kInvalidParam, "valueSize {} does not match the attribute's {}",
                   valueSize, size);
      }
      std::memcpy(field, attrValue, size);
      return Status::Ok();
    };
    switch (api::EnumValue(attr)) {
      case ACL_RT_STREAM_WORK_ADDR_PTR:
        return copy(&config->value.workptr, sizeof(void*));
      case ACL_RT_STREAM_WORK_SIZE:
        return copy(&config->value.workSize, sizeof(size_t));
      case ACL_RT_STREAM_FLAG:
        return copy(&config->value.flag, sizeof(size_t));
      case ACL_RT_STREAM_PRIORITY:
        return copy(&config->value.priority, sizeof(uint32_t));
      default:
        return Err(StatusCode::kInvalidParam, "attr {} is not an aclrtStreamConfigAttr",
                   api::EnumValue(attr));
    }
  });
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config, core::LookupHandle<StreamConfig>(handle, "handle"));
    if (config->value.flag > 0xffffffffU) {
      return Err(StatusCode::kInvalidParam, "stream flag {} is out of range", config->value.flag);
    }
    return Create(stream, config->value.priority, static_cast<uint32_t>(config->value.flag));
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::DestroyStream(*runtime, stream, /*force=*/false);
  });
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::DestroyStream(*runtime, stream, /*force=*/true);
  });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::SyncStream(*resolved, -1);
  });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckSyncTimeout(timeout));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::SyncStream(*resolved, timeout);
  });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(status, "status"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    ACLSIM_ASSIGN_OR_RETURN(bool idle, core::StreamIdle(*resolved));
    *status = idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return Status::Ok();
  });
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(priority, "priority"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    *priority = static_cast<uint32_t>(resolved->priority());
    return Status::Ok();
  });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(flags, "flags"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    *flags = resolved->flags();
    return Status::Ok();
  });
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(streamId, "streamId"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    *streamId = static_cast<int32_t>(resolved->queue());
    return Status::Ok();
  });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
      return Err(StatusCode::kInvalidParam,
                 "mode {} is not ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE", mode);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    if (stream == nullptr) {
      return Err(StatusCode::kInvalidParam, "the default stream's failure mode cannot be changed");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    resolved->set_failure_mode(mode);
    return Status::Ok();
  });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    // aclrtSetOpWaitTimeout's default (seconds, 0 = never).
    const uint64_t timeout_ms = static_cast<uint64_t>(runtime->op_wait_timeout_s()) * 1000;
    return core::StreamWaitEvent(*resolved, *found,
                                 static_cast<uint32_t>(std::min<uint64_t>(timeout_ms, UINT32_MAX)));
  });
}

namespace {

// A wait with an explicit timeout in milliseconds (0: forever).
Status WaitWithTimeout(aclrtStream stream, aclrtEvent event, uint32_t timeout_ms) {
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
  ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
  return core::StreamWaitEvent(*resolved, *found, timeout_ms);
}

}  // namespace

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    // Milliseconds (CANN's acl_rt.h); -1 and 0 wait forever.
    if (timeout < -1) {
      return Err(StatusCode::kInvalidParam,
                 "timeout {} ms is invalid: use -1 or 0 (forever) or > 0", timeout);
    }
    return WaitWithTimeout(stream, event, timeout <= 0 ? 0 : static_cast<uint32_t>(timeout));
  });
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (flag == ACL_EVENT_WAIT_EXTERNAL) {
      // Only meaningful while the stream is being captured into a graph, which aclsim does
      // not support yet.
      return Status(StatusCode::kInvalidParam,
                    "flag ACL_EVENT_WAIT_EXTERNAL needs a stream in capture mode (stream capture "
                    "is not supported)",
                    ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    }
    if (flag != ACL_EVENT_WAIT_DEFAULT) {
      return Err(StatusCode::kInvalidParam,
                 "flag {} is not ACL_EVENT_WAIT_DEFAULT (0) or ACL_EVENT_WAIT_EXTERNAL (1)", flag);
    }
    // As aclrtStreamWaitEventWithTimeout: milliseconds, 0 = forever.
    return WaitWithTimeout(stream, event, timeout);
  });
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(streamCount, "streamCount"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    const auto& device = context->device();
    // The internal copy queue counts against the limit like CANN's internal sync streams.
    size_t used = device->stream_count() + 1;
    size_t limit = device->props().max_streams;
    *streamCount = static_cast<uint32_t>(used >= limit ? 0 : limit - used);
    return Status::Ok();
  });
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    if (api::EnumValue(stmAttrType) == ACL_STREAM_ATTR_FAILURE_MODE) {
      if (value->failureMode != ACL_CONTINUE_ON_FAILURE &&
          value->failureMode != ACL_STOP_ON_FAILURE) {
        return Err(StatusCode::kInvalidParam, "failure mode {} is invalid", value->failureMode);
      }
      resolved->set_failure_mode(value->failureMode);
      return Status::Ok();
    }
    return Err(StatusCode::kFeatureUnsupported, "stream attribute {} cannot be set yet",
               api::EnumValue(stmAttrType));
  });
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    std::memset(value, 0, sizeof(*value));
    switch (api::EnumValue(stmAttrType)) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = resolved->failure_mode();
        break;
      case ACL_STREAM_ATTR_PRIORITY:
        value->streamPriority = static_cast<uint32_t>(resolved->priority());
        break;
      default:
        return Err(StatusCode::kFeatureUnsupported, "stream attribute {} is not available yet",
                   api::EnumValue(stmAttrType));
    }
    return Status::Ok();
  });
}
