// The one table from internal StatusCode to the documented aclError values.
#include <string>

#include "acl/acl_base.h"
#include "api/api_call.h"
#include "dfx/error_message.h"
#include "dfx/log.h"

namespace aclsim::api {
namespace {

aclError MapCode(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return ACL_SUCCESS;
    case StatusCode::kInvalidParam:
      return ACL_ERROR_INVALID_PARAM;
    case StatusCode::kUninitialized:
      return ACL_ERROR_UNINITIALIZE;
    case StatusCode::kRepeatInitialize:
      return ACL_ERROR_REPEAT_INITIALIZE;
    case StatusCode::kRepeatFinalize:
      return ACL_ERROR_REPEAT_FINALIZE;
    case StatusCode::kInvalidFile:
      return ACL_ERROR_INVALID_FILE;
    case StatusCode::kParseFile:
      return ACL_ERROR_PARSE_FILE;
    case StatusCode::kInvalidDevice:
      return ACL_ERROR_RT_INVALID_DEVICEID;
    case StatusCode::kInvalidHandle:
      return ACL_ERROR_RT_INVALID_HANDLE;
    case StatusCode::kContextNull:
      return ACL_ERROR_RT_CONTEXT_NULL;
    case StatusCode::kStreamContext:
      return ACL_ERROR_RT_STREAM_CONTEXT;
    case StatusCode::kBadAlloc:
      return ACL_ERROR_BAD_ALLOC;
    case StatusCode::kDeviceOom:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case StatusCode::kMemoryFree:
      return ACL_ERROR_RT_MEMORY_FREE;
    case StatusCode::kInvalidMemoryType:
      return ACL_ERROR_RT_INVALID_MEMORY_TYPE;
    case StatusCode::kAddrUnaligned:
      return ACL_ERROR_RT_ADDR_UNALIGNED;
    case StatusCode::kNotSupported:
      return ACL_ERROR_API_NOT_SUPPORT;
    case StatusCode::kFeatureUnsupported:
      return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    case StatusCode::kStreamSyncTimeout:
      return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    case StatusCode::kEventSyncTimeout:
      return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
    case StatusCode::kWaitTimeout:
      return ACL_ERROR_WAIT_CALLBACK_TIMEOUT;
    case StatusCode::kNoStreamResource:
      return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    case StatusCode::kNoEventResource:
      return ACL_ERROR_RT_NO_EVENT_RESOURCE;
    case StatusCode::kEventNotComplete:
      return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
    case StatusCode::kEventTimestampInvalid:
      return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
    case StatusCode::kRepeatSubscribe:
      return ACL_ERROR_REPEAT_SUBSCRIBE;
    case StatusCode::kStreamNotSubscribe:
      return ACL_ERROR_STREAM_NOT_SUBSCRIBE;
    case StatusCode::kThreadNotSubscribe:
      return ACL_ERROR_THREAD_NOT_SUBSCRIBE;
    case StatusCode::kResourceNotMatch:
      return ACL_ERROR_RESOURCE_NOT_MATCH;
    case StatusCode::kPeerAccessDenied:
      return ACL_ERROR_RT_NO_PERMISSION;
    case StatusCode::kTaskFailed:
      return ACL_ERROR_RT_TS_ERROR;
    case StatusCode::kDeviceTaskAbort:
      return ACL_ERROR_RT_DEVICE_TASK_ABORT;
    case StatusCode::kSysParamNotSet:
      return ACL_ERROR_RT_SYSPARAMOPT_NOT_SET;
    case StatusCode::kOpTypeNotMatch:
      return ACL_ERROR_OP_TYPE_NOT_MATCH;
    case StatusCode::kOpInputNotMatch:
      return ACL_ERROR_OP_INPUT_NOT_MATCH;
    case StatusCode::kOpOutputNotMatch:
      return ACL_ERROR_OP_OUTPUT_NOT_MATCH;
    case StatusCode::kOpAttrNotMatch:
      return ACL_ERROR_OP_ATTR_NOT_MATCH;
    case StatusCode::kOpNotFound:
      return ACL_ERROR_OP_NOT_FOUND;
    case StatusCode::kOpLoadFailed:
      return ACL_ERROR_OP_LOAD_FAILED;
    case StatusCode::kReadModelFailure:
      return ACL_ERROR_READ_MODEL_FAILURE;
    case StatusCode::kParseModel:
      return ACL_ERROR_PARSE_MODEL;
    case StatusCode::kUnsupportedDataType:
      return ACL_ERROR_UNSUPPORTED_DATA_TYPE;
    case StatusCode::kFormatNotMatch:
      return ACL_ERROR_FORMAT_NOT_MATCH;
    case StatusCode::kOpUnsupportedDynamic:
      return ACL_ERROR_OP_UNSUPPORTED_DYNAMIC;
    case StatusCode::kInvalidModelId:
      return ACL_ERROR_INVALID_MODEL_ID;
    case StatusCode::kModelSizeInvalid:
      return ACL_ERROR_MODEL_SIZE_INVALID;
    case StatusCode::kModelInputNotMatch:
      return ACL_ERROR_MODEL_INPUT_NOT_MATCH;
    case StatusCode::kModelOutputNotMatch:
      return ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
    case StatusCode::kModelNotDynamic:
      return ACL_ERROR_MODEL_NOT_DYNAMIC;
    case StatusCode::kWriteFile:
      return ACL_ERROR_WRITE_FILE;
    case StatusCode::kInvalidProfilingConfig:
      return ACL_ERROR_INVALID_PROFILING_CONFIG;
    case StatusCode::kProfAlreadyRun:
      return ACL_ERROR_PROF_ALREADY_RUN;
    case StatusCode::kProfNotRun:
      return ACL_ERROR_PROF_NOT_RUN;
    case StatusCode::kProfRepeatSubscribe:
      return ACL_ERROR_PROF_REPEAT_SUBSCRIBE;
    case StatusCode::kProfApiConflict:
      return ACL_ERROR_PROF_API_CONFLICT;
    case StatusCode::kDumpAlreadyRun:
      return ACL_ERROR_DUMP_ALREADY_RUN;
    case StatusCode::kDumpNotRun:
      return ACL_ERROR_DUMP_NOT_RUN;
    case StatusCode::kInvalidDumpConfig:
      return ACL_ERROR_INVALID_DUMP_CONFIG;
    case StatusCode::kNullPointer:
      return ACL_ERROR_INVALID_PARAM;
    case StatusCode::kInternal:
      return ACL_ERROR_INTERNAL_ERROR;
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

thread_local aclError tls_last_error = ACL_SUCCESS;

}  // namespace

aclError ToAclError(const Status& status) {
  if (status.ok()) return ACL_SUCCESS;
  if (status.detail() != 0) return static_cast<aclError>(status.detail());
  return MapCode(status.code());
}

aclError RecordFailureKeepLastError(const char* api, const Status& status) {
  const aclError code = ToAclError(status);
  if (dfx::LogEnabled(dfx::Module::kAscendCl, dfx::Level::kError)) {
    dfx::LogWrite(dfx::Module::kAscendCl, dfx::Level::kError, __FILE__, __LINE__, api,
                  fmt::format("error code {}: {}", code, status.message()));
  }
  dfx::SetRecentError(fmt::format("{} failed, error code {}: {}", api, code, status.message()));
  return code;
}

aclError RecordFailure(const char* api, const Status& status) {
  const aclError code = RecordFailureKeepLastError(api, status);
  tls_last_error = code;
  return code;
}

aclError RecordNotSupported(const char* api) {
  return RecordFailure(
      api, Err(StatusCode::kNotSupported,
               "{} is not supported by aclsim yet (see the API table in README.md)", api));
}

aclError LastError(bool clear) {
  aclError code = tls_last_error;
  if (clear) tls_last_error = ACL_SUCCESS;
  return code;
}

Status FromException(const std::exception* error) {
  if (error == nullptr) return Status(StatusCode::kInternal, "unknown exception inside aclsim");
  if (dynamic_cast<const std::bad_alloc*>(error) != nullptr) {
    return Status(StatusCode::kBadAlloc, "host memory exhausted");
  }
  return Err(StatusCode::kInternal, "internal error: {}", error->what());
}

}  // namespace aclsim::api
