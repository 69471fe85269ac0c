/*
 * acl/acl_ext.h -- aclsim extensions to AscendCL (not part of CANN).
 *
 * Facilities the CANN runtime literature describes but AscendCL does not declare, built on
 * the same machinery as the real APIs (docs/memory.md, "Extensions"; docs/models.md):
 *  - a fixed-block device memory pool: one device allocation of totalSize bytes (from
 *    aclrtMalloc's caching allocator) handed out in blocks of blockSize bytes (rounded up
 *    to 64), allocated and returned in O(1);
 *  - a prefetch of memory shared by host and device (aclrtMemAllocManaged memory) to a
 *    device or to the host, in stream order;
 *  - the memory plan of a loaded model: the work arena the MemoryPlanner gave its
 *    intermediate tensors, against the sum of those tensors and the lower bound.
 * A program that uses them links against aclsim's libascendcl.so only; guard uses with
 * #ifdef ACLSIM_ACL_EXT_H_ to keep code portable to CANN.
 */
#ifndef ACLSIM_ACL_EXT_H_
#define ACLSIM_ACL_EXT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclextBlockPool;

/* The host, as the target of aclextMemPrefetchAsync. */
#define ACLEXT_PREFETCH_TO_HOST (-1)

/* Creates a pool of totalSize bytes on the current device, in blocks of blockSize bytes
   (rounded up to a multiple of 64; totalSize must hold at least one block). policy is an
   aclrtMalloc policy. */
ACL_FUNC_VISIBILITY aclError aclextBlockPoolCreate(aclextBlockPool* pool, size_t totalSize,
                                                   size_t blockSize,
                                                   aclrtMemMallocPolicy policy);
/* One free block; ACL_ERROR_RT_MEMORY_ALLOCATION when every block is in use. */
ACL_FUNC_VISIBILITY aclError aclextBlockPoolAlloc(aclextBlockPool pool, void** devPtr);
/* Returns a block (its start address) to the pool; ACL_ERROR_RT_MEMORY_FREE if it is not
   an allocated block of this pool. */
ACL_FUNC_VISIBILITY aclError aclextBlockPoolFree(aclextBlockPool pool, void* devPtr);
/* Block size (after rounding), number of blocks, number of free blocks (any may be NULL). */
ACL_FUNC_VISIBILITY aclError aclextBlockPoolGetInfo(aclextBlockPool pool, size_t* blockSize,
                                                    size_t* blockCount, size_t* freeCount);
/* Frees the pool's memory; refused (ACL_ERROR_INVALID_PARAM) while blocks are in use. */
ACL_FUNC_VISIBILITY aclError aclextBlockPoolDestroy(aclextBlockPool pool);

/* Prefetches [ptr, ptr+size) of aclrtMemAllocManaged memory to device deviceId, or to the
   host (ACLEXT_PREFETCH_TO_HOST), in the order of stream (NULL: the default stream).
   Equivalent to aclrtMemManagedPrefetchAsync with a device or host location. */
ACL_FUNC_VISIBILITY aclError aclextMemPrefetchAsync(const void* ptr, size_t size,
                                                    int32_t deviceId, aclrtStream stream);

/* The memory plan of loaded model modelId (its largest gear): arena = the work memory its
   intermediate tensors share (aclmdlQuerySize's workSize for that gear), totalBuffers = the
   sum of their sizes (the arena without reuse), lowerBound = the peak of live bytes (no plan
   can be smaller). Any pointer may be NULL. All 0 for a model whose shapes depend on input
   values (planned per execution). ACL_ERROR_INVALID_MODEL_ID for an unknown id. */
ACL_FUNC_VISIBILITY aclError aclextModelGetMemoryPlan(uint32_t modelId, size_t* arena,
                                                      size_t* totalBuffers, size_t* lowerBound);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACL_EXT_H_ */
