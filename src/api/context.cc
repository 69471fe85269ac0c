// acl_rt.h: contexts.
#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(context, "context"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto device, runtime->EnsureOpen(deviceId));
    auto created = core::MakeHandleObject<core::Context>(device, /*is_default=*/false);
    ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
    aclsim::driver::QueueId queue = 0;
    ACLSIM_RETURN_IF_ERROR(backend->CreateQueue(aclsim::driver::QueueConfig{}, &queue));
    auto stream = core::MakeHandleObject<core::Stream>(device, queue, 0, 0, /*is_default=*/true);
    created->set_default_stream(stream);
    device->AddRef();
    device->TrackStream(stream);
    device->TrackContext(created);
    core::PublishHandle(stream);
    *context = core::PublishHandle(created);
    runtime->SetCurrentContext(created);  // CANN: the new context becomes current
    return Status::Ok();
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Context>(context, "context"));
    if (found->is_default()) {
      return Err(StatusCode::kInvalidParam,
                 "context {} is a device's default context; it is released by aclrtResetDevice",
                 context);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto retired, core::RetireHandle<core::Context>(context, "context"));
    retired->mark_retired();
    const auto& device = retired->device();
    if (auto stream = retired->default_stream()) {
      stream->mark_destroyed();
      (void)core::HandleTable::Global().Remove(stream.get(), core::HandleKind::kStream, "stream");
      device->UntrackStream(stream.get());
      if (auto backend = device->backend(); backend.ok()) {
        (void)(*backend)->DestroyQueue(stream->queue(), /*force=*/false);
      }
    }
    retired->set_default_stream(nullptr);
    device->UntrackContext(retired.get());
    if (device->DropRef()) (void)runtime->ResetDevice(device->id(), /*force=*/true);
    return Status::Ok();
  });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Context>(context, "context"));
    runtime->SetCurrentContext(found);
    return Status::Ok();
  });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(context, "context"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto current, runtime->CurrentContext());
    *context = current.get();
    return Status::Ok();
  });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(stream, "stream"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(nullptr, "stream"));
    *stream = resolved.get();
    return Status::Ok();
  });
}

namespace {

// The option's value, if it is an aclSysParamOpt.
aclsim::Result<int> CheckSysParam(const aclSysParamOpt& opt) {
  const int option = api::EnumValue(opt);
  if (option < ACL_OPT_DETERMINISTIC || option > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
    return Err(StatusCode::kInvalidParam, "opt {} is not an aclSysParamOpt", option);
  }
  return option;
}

}  // namespace

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const int option, CheckSysParam(opt));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    runtime->params().Set(option, value);
    return Status::Ok();
  });
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const int option, CheckSysParam(opt));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*value, runtime->params().Get(option));
    return Status::Ok();
  });
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const int option, CheckSysParam(opt));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    context->params().Set(option, value);
    return Status::Ok();
  });
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const int option, CheckSysParam(opt));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    ACLSIM_ASSIGN_OR_RETURN(*value, context->params().Get(option));
    return Status::Ok();
  });
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(flags, "flags"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(active, "active"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(deviceId));
    *flags = 0;
    *active = runtime->OpenedDevice(deviceId).ok() ? 1 : 0;
    return Status::Ok();
  });
}
