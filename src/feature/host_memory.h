// Host memory the device may use: registration of user memory (aclrtHostRegister[V2],
// aclrtHostGetDevicePointer, aclrtHostUnregister) and managed memory (aclrtMemAllocManaged,
// aclrtMemManagedPrefetchAsync, aclrtMemManagedAdvise, aclrtMemManagedGetAttr).
//
// The simulated device reads host memory directly, so a registered range's device address is
// the host address itself. Registration makes the range pinned (async copies from it are
// fine) and, with MAPPED, live memory of the current device (kernels and copies accept it).
// Managed memory is device memory (aclrtMalloc's allocator) that host code may also touch;
// prefetches and advice are checked and recorded (aclrtMemManagedGetAttr reports them), and
// cost nothing: the simulator has no page migration.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.h"
#include "core/runtime.h"

namespace aclsim::feature {

// aclrtHostRegisterV2 flag bits (aclrtHostRegister's types map onto them).
inline constexpr uint32_t kHostRegMapped = 0x2;
inline constexpr uint32_t kHostRegIoMemory = 0x4;
inline constexpr uint32_t kHostRegReadOnly = 0x8;
inline constexpr uint32_t kHostRegPinned = 0x10000000;

// Returns the device address of the range.
Result<void*> HostRegister(core::Runtime& runtime, void* ptr, uint64_t size, uint32_t flags);
Result<void*> HostDevicePointer(core::Runtime& runtime, void* host, uint32_t flags);
Status HostUnregister(core::Runtime& runtime, void* ptr);

// aclrtMemManagedLocation, as the feature sees it.
struct ManagedLocation {
  int type = 0;  // aclrtMemManagedLocationType
  int32_t id = 0;
};

Result<void*> AllocManaged(core::Runtime& runtime, uint64_t size, uint32_t flags);
Status PrefetchManaged(core::Runtime& runtime, const void* ptr, size_t size,
                       ManagedLocation location, uint32_t flags, const void* stream);
Status AdviseManaged(core::Runtime& runtime, const void* ptr, uint64_t size, int advice,
                     ManagedLocation location);
// aclrtMemManagedGetAttr: writes the attribute's value (int32_t) to `data`.
Status ManagedAttr(core::Runtime& runtime, int attribute, const void* ptr, size_t size, void* data,
                   size_t data_size);

}  // namespace aclsim::feature
