// acl_rt.h: report-thread callbacks, host functions, exception info.
#include <pthread.h>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/callbacks.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

// The opaque aclrtExceptionInfo handed to exception callbacks.
struct rtExceptionInfo {
  uint32_t task_id;
  uint32_t stream_id;
  uint32_t thread_id;
  uint32_t device_id;
  uint32_t error_code;
};

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (threadId == 0) return Err(StatusCode::kInvalidParam, "threadId must not be 0");
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return runtime->reports().Subscribe(threadId, resolved.get());
  });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return runtime->reports().Unsubscribe(threadId, resolved.get());
  });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(reinterpret_cast<const void*>(fn), "fn"));
    const int block = api::EnumValue(blockType);
    if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK) {
      return Err(StatusCode::kInvalidParam, "blockType {} is not an aclrtCallbackBlockType", block);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::LaunchCallback(
        *runtime, [fn, userData]() { fn(userData); }, block == ACL_CALLBACK_BLOCK, stream);
  });
}

aclError aclrtProcessReport(int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (timeout < -1) {
      return Err(StatusCode::kInvalidParam, "timeout {} ms is invalid: use -1 or >= 0", timeout);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return runtime->reports().Process(timeout);
  });
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (hostFuncThreadId == 0)
      return Err(StatusCode::kInvalidParam, "hostFuncThreadId must not be 0");
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(exeStream, "exeStream"));
    return runtime->host_funcs().Subscribe(hostFuncThreadId, resolved.get());
  });
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(exeStream, "exeStream"));
    return runtime->host_funcs().Unsubscribe(hostFuncThreadId, resolved.get());
  });
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (timeout < -1) {
      return Err(StatusCode::kInvalidParam, "timeout {} ms is invalid: use -1 or >= 0", timeout);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return runtime->host_funcs().Process(timeout);
  });
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(reinterpret_cast<const void*>(fn), "fn"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::LaunchHostFunc(
        *runtime, [fn, args]() { fn(args); }, stream);
  });
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    if (callback == nullptr) {
      runtime->exceptions().SetHandler(nullptr);
      return Status::Ok();
    }
    runtime->exceptions().SetHandler([callback](const core::ExceptionRecord& record) {
      rtExceptionInfo info{record.task_id, record.stream_id, record.thread_id, record.device_id,
                           record.error_code};
      callback(&info);
    });
    return Status::Ok();
  });
}

namespace {

// One field of an aclrtExceptionInfo; 0xFFFFFFFF (and a recorded message) for NULL.
uint32_t InfoField(const char* api, const aclrtExceptionInfo* info,
                   uint32_t rtExceptionInfo::*field) {
  return api::ValueCall<uint32_t>(api, 0xffffffffU, [&]() -> aclsim::Result<uint32_t> {
    if (info == nullptr) return Err(StatusCode::kInvalidParam, "exceptionInfo must not be NULL");
    return info->*field;
  });
}

}  // namespace

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return InfoField(__func__, info, &rtExceptionInfo::task_id);
}
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return InfoField(__func__, info, &rtExceptionInfo::stream_id);
}
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return InfoField(__func__, info, &rtExceptionInfo::thread_id);
}
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return InfoField(__func__, info, &rtExceptionInfo::device_id);
}
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return InfoField(__func__, info, &rtExceptionInfo::error_code);
}
