// The entries of every operator in the aclnn manifest (api/manifest/aclnn_api.def): the
// second phase of each implemented operator (one generic launch), and both phases of each
// operator still marked STUB (ACLNN_ERR_INNER_FIND_KERNEL_ERROR with a message naming it).
#include "aclnnop/aclnn_ops_cv.h"
#include "aclnnop/aclnn_ops_math.h"
#include "aclnnop/aclnn_ops_nn.h"
#include "aclnnop/aclnn_ops_transformer.h"
#include "api/aclnn/nn_call.h"

namespace api = aclsim::api;

// Stubs name their parameters (the manifest's prototypes) without using them.
#pragma GCC diagnostic ignored "-Wunused-parameter"

extern "C" {

#define ACLNN_OP_IMPL(name, params)                                                         \
  aclnnStatus aclnn##name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                          aclrtStream stream) {                                             \
    return api::SecondPhase("aclnn" #name, workspace, workspaceSize, executor, stream);     \
  }
#define ACLNN_OP_STUB(name, params)                                                         \
  aclnnStatus aclnn##name##GetWorkspaceSize params {                                        \
    return api::NnNotSupported("aclnn" #name "GetWorkspaceSize");                           \
  }                                                                                         \
  aclnnStatus aclnn##name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                          aclrtStream stream) {                                             \
    return api::NnNotSupported("aclnn" #name);                                              \
  }
#define ACLNN_OP(status, header, lib, name, params) ACLNN_OP_##status(name, params)
#define ACLNN_HOST_IMPL(name, params)
#define ACLNN_HOST_STUB(name, params) \
  aclnnStatus aclnn##name params { return api::NnNotSupported("aclnn" #name); }
#define ACLNN_HOST(status, header, lib, name, params) ACLNN_HOST_##status(name, params)
#include "api/manifest/aclnn_api.def"
#undef ACLNN_OP
#undef ACLNN_HOST

}  // extern "C"
