/*
 * aclnn/acl_meta.h -- the aclnn meta API: tensor views, scalars, arrays and lists that
 * describe an operator call, and the executor objects the two-phase operator API returns.
 *
 * Part of aclsim, an AscendCL-compatible runtime whose device is simulated.
 * Exported by: libnnopbase.so (in aclsim the same library as libascendcl.so).
 * Names, signatures and status codes follow CANN's public aclnn API (8.1 and newer).
 * Unlike CANN's header this one also compiles as C99 (the `OK` constant is C++ only).
 *
 * An aclTensor is a view over device memory: view dims, strides and an offset in elements
 * (any strides, including 0 and overlapping ones), a format, and the storage dims of the
 * buffer at tensorData. Scalars and arrays are host values copied when they are created.
 * A tensor list owns its tensors: destroying the list destroys them.
 */
#ifndef ACLSIM_INCLUDE_ACLNN_ACL_META_H_
#define ACLSIM_INCLUDE_ACLNN_ACL_META_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_META
#define ACLNN_META
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
#endif

/* Every aclnn function returns an aclnnStatus: 0 on success, an ACLNN_* code otherwise
 * (aclnn/opdev/op_errno.h); aclGetRecentErrMsg() gives the message. */
typedef int32_t aclnnStatus;
#ifdef __cplusplus
constexpr aclnnStatus OK = 0;
#endif

/* Objects. Create* return NULL on a bad argument (a NULL array with a non-zero count). */
ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData);
ACL_FUNC_VISIBILITY aclScalar* aclCreateScalar(void* value, aclDataType dataType);
ACL_FUNC_VISIBILITY aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
ACL_FUNC_VISIBILITY aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
ACL_FUNC_VISIBILITY aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
ACL_FUNC_VISIBILITY aclTensorList* aclCreateTensorList(const aclTensor* const* value,
                                                       uint64_t size);
ACL_FUNC_VISIBILITY aclScalarList* aclCreateScalarList(const aclScalar* const* value,
                                                       uint64_t size);

/* Destroying NULL succeeds; a list destroys its members. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar* scalar);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray* array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList* array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList* array);

/* Getters. The shape and stride getters allocate the returned array with new[]: the
 * caller releases it with delete[]. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims,
                                                uint64_t* viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                                                   uint64_t* storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                                                  uint64_t* stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList,
                                                     uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList,
                                                     uint64_t* size);

/* Re-describes an existing tensor in place (NULL / zero-count arguments keep the old value). */
ACL_FUNC_VISIBILITY aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims,
                                              uint64_t viewDimsNum, aclDataType dataType,
                                              const int64_t* stride, int64_t offset,
                                              aclFormat format, const int64_t* storageDims,
                                              uint64_t storageDimsNum, void* tensorDataAddr);

/* Executors. A repeatable executor survives its launch and can be launched again, after its
 * tensors' addresses are updated with the aclSet*TensorAddr functions; it is freed with
 * aclDestroyAclOpExecutor. Index: the position among the call's inputs, its outputs, or
 * (aclSetTensorAddr) inputs then outputs; irIndex: the position of a tensor-list parameter. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                      aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                       aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor,
                                                             size_t irIndex,
                                                             const size_t relativeIndex,
                                                             aclTensorList* tensors, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor,
                                                              size_t irIndex,
                                                              const size_t relativeIndex,
                                                              aclTensorList* tensors, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index,
                                                 aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                                        const size_t relativeIndex,
                                                        aclTensorList* tensors, void* addr);
/* Reserved spellings: the same as their lower-case twins. */
ACL_FUNC_VISIBILITY aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                      aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                       aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor,
                                                             size_t irIndex,
                                                             const size_t relativeIndex,
                                                             aclTensorList* tensors, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor,
                                                              size_t irIndex,
                                                              const size_t relativeIndex,
                                                              aclTensorList* tensors, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index,
                                                 aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                                        const size_t relativeIndex,
                                                        aclTensorList* tensors, void* addr);

/* The device address recorded in a tensor (between a launch and the next first phase). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr);

/* Since CANN 9.x: dumps tensors (inputs, then outputs) when operator dump is on. */
ACL_FUNC_VISIBILITY aclnnStatus aclDumpOpTensors(const char* opType, const char* opName,
                                                 aclTensor** tensors, size_t inputTensorNum,
                                                 size_t outputTensorNum, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_INCLUDE_ACLNN_ACL_META_H_ */
