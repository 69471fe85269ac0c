/*
 * aclnn/aclnn_base.h -- the aclnn base API: the meta objects (acl_meta.h) and the
 * process-wide initialisation of the operator API.
 *
 * Part of aclsim, an AscendCL-compatible runtime whose device is simulated.
 * Exported by: libnnopbase.so (in aclsim the same library as libascendcl.so).
 * Names and signatures follow CANN's public aclnn API (8.1 and newer).
 */
#ifndef ACLSIM_INCLUDE_ACLNN_ACLNN_BASE_H_
#define ACLSIM_INCLUDE_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialises the operator API. configPath: NULL, "" or a JSON file (its
 * "op_debug_config" key is accepted). aclInit does the same; calling both is fine. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
/* Releases what aclnnInit set up; returns 0. aclFinalize covers it too. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_INCLUDE_ACLNN_ACLNN_BASE_H_ */
