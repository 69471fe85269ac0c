#include "api/aclnn/nn_call.h"

#include <fmt/format.h>

#include <string>

#include "aclnn/opdev/op_errno.h"
#include "core/objects.h"
#include "core/runtime.h"
#include "dfx/error_message.h"
#include "dfx/log.h"

namespace aclsim::api {

aclnnStatus ToNnStatus(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return ACLNN_SUCCESS;
    case StatusCode::kNullPointer:
      return ACLNN_ERR_PARAM_NULLPTR;
    case StatusCode::kInvalidParam:
    case StatusCode::kInvalidHandle:
    case StatusCode::kOpInputNotMatch:
    case StatusCode::kOpOutputNotMatch:
    case StatusCode::kOpAttrNotMatch:
    case StatusCode::kOpTypeNotMatch:
    case StatusCode::kUnsupportedDataType:
    case StatusCode::kFormatNotMatch:
    case StatusCode::kOpUnsupportedDynamic:
      return ACLNN_ERR_PARAM_INVALID;
    case StatusCode::kNotSupported:
    case StatusCode::kFeatureUnsupported:
      return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
    case StatusCode::kInternal:
    case StatusCode::kBadAlloc:
      return ACLNN_ERR_INNER;
    default:
      return ACLNN_ERR_RUNTIME_ERROR;
  }
}

aclnnStatus RecordNnFailure(const char* api, const Status& status) {
  const aclnnStatus code = ToNnStatus(status);
  if (dfx::LogEnabled(dfx::Module::kAscendCl, dfx::Level::kError)) {
    dfx::LogWrite(dfx::Module::kAscendCl, dfx::Level::kError, __FILE__, __LINE__, api,
                  fmt::format("error code {}: {}", code, status.message()));
  }
  dfx::SetRecentError(fmt::format("{} failed, error code {}: {}", api, code, status.message()));
  return code;
}

Result<const core::nn::NnTensor*> NnArgs::Tensor(const aclTensor* handle, const char* what,
                                                 bool optional) {
  ACLSIM_ASSIGN_OR_RETURN(auto tensor, NnObject<core::nn::NnTensor>(handle, what, optional));
  const core::nn::NnTensor* raw = tensor.get();
  if (tensor) held_.push_back(std::move(tensor));
  return raw;
}

Result<const core::nn::NnScalar*> NnArgs::Scalar(const aclScalar* handle, const char* what,
                                                 bool optional) {
  ACLSIM_ASSIGN_OR_RETURN(auto scalar, NnObject<core::nn::NnScalar>(handle, what, optional));
  const core::nn::NnScalar* raw = scalar.get();
  if (scalar) held_.push_back(std::move(scalar));
  return raw;
}

Result<std::vector<int64_t>> NnArgs::Ints(const aclIntArray* handle, const char* what) {
  ACLSIM_ASSIGN_OR_RETURN(auto array, NnObject<core::nn::NnIntArray>(handle, what));
  return array->values;
}

Result<std::vector<const core::nn::NnTensor*>> NnArgs::Tensors(const aclTensorList* handle,
                                                               const char* what) {
  ACLSIM_ASSIGN_OR_RETURN(auto list, NnObject<core::nn::NnTensorList>(handle, what));
  std::vector<const core::nn::NnTensor*> members;
  for (size_t i = 0; i < list->members.size(); ++i) {
    const std::string name = fmt::format("{}[{}]", what, i);
    ACLSIM_ASSIGN_OR_RETURN(auto tensor,
                            Tensor(static_cast<const aclTensor*>(list->members[i]), name.c_str()));
    members.push_back(tensor);
  }
  held_.push_back(std::move(list));
  return members;
}

aclnnStatus SecondPhase(const char* api, void* workspace, uint64_t workspace_size,
                        aclOpExecutor* executor, aclrtStream stream) noexcept {
  return NnCall(api, [&]() -> Status {
    if (executor == nullptr) return Err(StatusCode::kNullPointer, "executor is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto found, NnObject<core::nn::Executor>(executor, "executor"));
    const bool repeatable = found->repeatable.load();
    // A single-use executor is freed by its launch, whatever the launch's outcome.
    if (!repeatable) {
      ACLSIM_RETURN_IF_ERROR(core::RetireHandle<core::nn::Executor>(executor, "executor").status());
    }
    if (workspace_size > 0 && workspace == nullptr) {
      return Err(StatusCode::kNullPointer, "workspace is NULL but workspaceSize is {}",
                 workspace_size);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Current());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    found->launched.store(true);
    return found->Launch(*resolved, workspace, workspace_size);
  });
}

aclnnStatus NnNotSupported(const char* api) noexcept {
  return RecordNnFailure(
      api, Status(StatusCode::kNotSupported,
                  "the operator is not supported by aclsim yet (see docs/aclnn.md for the list)"));
}

}  // namespace aclsim::api
