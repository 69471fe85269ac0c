// acl_op.h: single-op models (aclopSetModelDir, aclopLoad). The models are those
// `atc --singleop` writes (docs/om-format.md); they live in the process-wide registry of
// core/op_model.h and are matched by aclopExecute* before online compilation.
#include "core/op_model.h"

#include <string>

#include "acl/acl.h"
#include "api/api_call.h"
#include "dfx/log.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

aclError aclopSetModelDir(const char* modelDir) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (modelDir == nullptr || *modelDir == '\0') {
      return Err(StatusCode::kInvalidParam, "modelDir is NULL or empty");
    }
    size_t count = 0;
    ACLSIM_RETURN_IF_ERROR(core::OpModelRegistry::Process().LoadDir(modelDir, &count));
    ACLSIM_LOG_INFO(aclsim::dfx::Module::kAscendCl, "aclopSetModelDir({}): {} single-op models",
                    modelDir, count);
    return Status::Ok();
  });
}

aclError aclopLoad(const void* model, size_t modelSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (model == nullptr) return Err(StatusCode::kInvalidParam, "model is NULL");
    if (modelSize == 0) return Err(StatusCode::kInvalidParam, "modelSize is 0");
    return core::OpModelRegistry::Process().LoadBytes(model, modelSize);
  });
}
