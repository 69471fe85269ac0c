// acl_mdl.h: the AIPP queries a model runner makes. Models that aclsim's atc writes have no
// AIPP (image pre-processing) stage, so every input reports ACL_DATA_WITHOUT_AIPP and has no
// static AIPP configuration; the AIPP configuration calls themselves are not supported.
#include "acl/acl.h"
#include "api/api_call.h"
#include "api/model_io.h"
#include "core/model_runner.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

Status CheckModelInput(uint32_t model_id, size_t index) {
  ACLSIM_RETURN_IF_ERROR(core::Runtime::Current().status());
  ACLSIM_ASSIGN_OR_RETURN(auto model, core::FindModel(model_id));
  const size_t count = api::ModelInputCount(model->compiled());
  if (index >= count) {
    return Err(StatusCode::kInvalidParam, "input index {} is out of range: model {} has {} inputs",
               index, model_id, count);
  }
  return Status::Ok();
}

}  // namespace

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* inputAippType,
                           size_t* dynamicAttachedDataIndex) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(inputAippType, "inputAippType"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dynamicAttachedDataIndex, "dynamicAttachedDataIndex"));
    ACLSIM_RETURN_IF_ERROR(CheckModelInput(modelId, index));
    *inputAippType = ACL_DATA_WITHOUT_AIPP;
    *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
    return Status::Ok();
  });
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* aippInfo) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(aippInfo, "aippInfo"));
    ACLSIM_RETURN_IF_ERROR(CheckModelInput(modelId, index));
    return Status(StatusCode::kInvalidParam,
                  fmt::format("input {} of model {} has no static AIPP (models converted by "
                              "aclsim's atc have no AIPP stage)",
                              index, modelId),
                  ACL_ERROR_NOT_STATIC_AIPP);
  });
}
