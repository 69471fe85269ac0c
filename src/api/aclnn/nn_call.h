// The C ABI conversion point of the aclnn libraries (libnnopbase / libopapi): like ApiCall
// (api/api_call.h) -- exceptions never cross the ABI, a failure's message is recorded for
// aclGetRecentErrMsg and logged -- but the result is an aclnnStatus (aclnn/opdev/op_errno.h).
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <memory>
#include <vector>

#include "aclnn/acl_meta.h"
#include "api/api_call.h"
#include "core/handle_table.h"
#include "core/nn/executor.h"
#include "core/nn/objects.h"

namespace aclsim::api {

// The aclnnStatus of a Status: kNullPointer 161001; refused arguments 161002; kNotSupported
// 561003 (no kernel); kInternal 561000; runtime failures 361001.
aclnnStatus ToNnStatus(const Status& status);

// Records a failure of `api` (message, log, last error) and returns its aclnnStatus.
aclnnStatus RecordNnFailure(const char* api, const Status& status);

template <typename Body>
aclnnStatus NnCall(const char* api, Body&& body) noexcept {
  try {
    const Status status = body();
    return status.ok() ? 0 : RecordNnFailure(api, status);
  } catch (const std::exception& error) {
    return RecordNnFailure(api, FromException(&error));
  } catch (...) {
    return RecordNnFailure(api, FromException(nullptr));
  }
}

// The object behind a handle of type T (core/nn/objects.h); null for a null handle when
// `optional`. kNullPointer for a missing required one; kInvalidParam for a stale or foreign
// handle.
template <typename T>
Result<std::shared_ptr<T>> NnObject(const void* handle, const char* what, bool optional = false) {
  if (handle == nullptr) {
    if (optional) return std::shared_ptr<T>();
    return Err(StatusCode::kNullPointer, "{} is NULL", what);
  }
  auto found = core::LookupHandle<T>(handle, what);
  if (!found.ok()) return Status(StatusCode::kInvalidParam, found.status().message());
  return found;
}

// Tensors of a call: keeps the looked-up objects alive and hands out raw pointers.
class NnArgs {
 public:
  Result<const core::nn::NnTensor*> Tensor(const aclTensor* handle, const char* what,
                                           bool optional = false);
  Result<const core::nn::NnScalar*> Scalar(const aclScalar* handle, const char* what,
                                           bool optional = false);
  Result<std::vector<int64_t>> Ints(const aclIntArray* handle, const char* what);
  // The members of a tensor list, in order (each must be a live tensor).
  Result<std::vector<const core::nn::NnTensor*>> Tensors(const aclTensorList* handle,
                                                         const char* what);

 private:
  std::vector<std::shared_ptr<void>> held_;
};

// The common tail of every first phase: checks the out-pointers, builds the executor with
// `build` (returns Result<ExecutorPtr>), publishes it and reports its workspace size.
template <typename Build>
aclnnStatus FirstPhase(const char* api, uint64_t* workspace_size, aclOpExecutor** executor,
                       Build&& build) noexcept {
  return NnCall(api, [&]() -> Status {
    if (workspace_size == nullptr) return Err(StatusCode::kNullPointer, "workspaceSize is NULL");
    if (executor == nullptr) return Err(StatusCode::kNullPointer, "executor is NULL");
    ACLSIM_ASSIGN_OR_RETURN(std::shared_ptr<core::nn::Executor> built, build());
    *workspace_size = built->workspace_size;
    *executor = static_cast<aclOpExecutor*>(core::PublishHandle(std::move(built)));
    return Status::Ok();
  });
}

// The second phase of every operator: launches `executor` on `stream` (NULL: the current
// context's default stream) with the workspace, then frees it unless it is repeatable.
aclnnStatus SecondPhase(const char* api, void* workspace, uint64_t workspace_size,
                        aclOpExecutor* executor, aclrtStream stream) noexcept;

// The entry of an operator aclsim does not support yet: ACLNN_ERR_INNER_FIND_KERNEL_ERROR
// with a message naming it.
aclnnStatus NnNotSupported(const char* api) noexcept;

}  // namespace aclsim::api
