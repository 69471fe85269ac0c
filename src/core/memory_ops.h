// Device and host memory, first cut: allocation, copies, memsets, memory info.
//
// Allocation goes straight to the backend's page pools (the caching allocator is its own
// piece of work). Every copy and memset is checked before any byte moves: the device side
// must lie inside one live allocation, the direction must match the addresses, and the
// count must fit the destination's capacity.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.h"
#include "core/runtime.h"

namespace aclsim::core {

// aclrtMemcpyKind, as the core sees it.
enum class CopyKind { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice, kDefault };

// aclrtMemMallocPolicy bits.
constexpr uint32_t kPolicyHugeFirst = 0;
constexpr uint32_t kPolicyHugeOnly = 1;
constexpr uint32_t kPolicyNormalOnly = 2;
constexpr uint32_t kPolicyHugeFirstP2p = 3;
constexpr uint32_t kPolicyHugeOnlyP2p = 4;
constexpr uint32_t kPolicyNormalOnlyP2p = 5;
constexpr uint32_t kPolicyHuge1gOnly = 6;
constexpr uint32_t kPolicyHuge1gOnlyP2p = 7;
constexpr uint32_t kPolicyTypeLowBandwidth = 0x100;
constexpr uint32_t kPolicyTypeHighBandwidth = 0x1000;
constexpr uint32_t kPolicyReadOnly = 0x100000;

// aclrtMalloc on the current device. `api` names the caller for leak reports.
// `device_id` >= 0 allocates on that device (which must be open in this process) instead of
// the current context's.
// CANN's size rules: aclrtMalloc and friends round the size up to 32 bytes and add 32
// (kPad32); aclrtMallocAlign32 only rounds (kAlign32).
enum class SizeRounding { kPad32, kAlign32 };
Result<void*> DeviceMalloc(Runtime& runtime, size_t size, uint32_t policy, const char* api,
                           int32_t device_id = -1, SizeRounding rounding = SizeRounding::kPad32);
// DeviceMalloc's fast path for the calling thread's current device (aclrtMalloc's): a small
// request of an HBM policy served from the allocator's cache while neither the profiler nor
// the memory checker is on; nullptr, having changed nothing, when DeviceMalloc must run.
void* TryDeviceMallocCached(size_t size, uint32_t policy, const char* api, SizeRounding rounding);
// DeviceFree's fast path (aclrtFree's): true if `ptr` was the start of a live allocation of
// the current device and is freed; false, having changed nothing, when DeviceFree must run (it also
// reports what is wrong with `ptr`).
bool TryDeviceFree(void* ptr);
// How a free relates to the tasks that use the memory. kUser: aclrtFree, which does not wait,
// so a task that uses the block and has not run yet is a violation for the memory checker.
// kStreamOrdered: runtime-internal memory (a dynamic model's intermediates) freed once the
// last task that uses it is enqueued; the allocator reuses a block only after the work in
// flight at the free completes, so such tasks are no violation.
enum class FreeOrder { kUser, kStreamOrdered };
Status DeviceFree(Runtime& runtime, void* ptr, FreeOrder order = FreeOrder::kUser);
// The Allocation::api of host memory registered by aclrtHostRegister (src/feature): in the
// pinned-host table, but not freed by aclrtFreeHost.
inline constexpr const char* kHostRegisterApi = "aclrtHostRegister";
// aclrtMallocHost / aclrtFreeHost: pinned (64-byte aligned) host memory.
Result<void*> HostMalloc(Runtime& runtime, size_t size);
Status HostFree(Runtime& runtime, void* ptr);

// Synchronous copies (on the device's internal copy queue) and asynchronous ones.
Status Memcpy(Runtime& runtime, void* dst, size_t dest_max, const void* src, size_t count,
              CopyKind kind);
Status MemcpyAsync(Runtime& runtime, void* dst, size_t dest_max, const void* src, size_t count,
                   CopyKind kind, const void* stream);
Status Memcpy2d(Runtime& runtime, void* dst, size_t dpitch, const void* src, size_t spitch,
                size_t width, size_t height, CopyKind kind, const void* stream, bool async);
Status Memset(Runtime& runtime, void* dst, size_t max_count, int32_t value, size_t count,
              const void* stream, bool async);
// aclrtMemsetD32(Async): `n` 32-bit copies of `value` at a 4-byte aligned `dst`.
Status MemsetD32(Runtime& runtime, void* dst, size_t mem_size, uint32_t value, size_t n,
                 const void* stream, bool async);

// aclrtGetMemInfo: HBM (`hbm`) or DDR pool of the current device, all of it or (`huge`) what
// it can give in huge pages (the backend's huge-page budget). Free bytes include what the
// caching allocator holds unused.
Status MemInfo(Runtime& runtime, bool hbm, bool huge, size_t* free_bytes, size_t* total_bytes);

}  // namespace aclsim::core
