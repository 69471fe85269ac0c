// Virtual memory management: address reservations, physical allocations, mappings and
// shareable handles (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem,
// aclrtMemExportToShareableHandle, ...), over the driver's virtual memory calls.
//
// A physical allocation (aclrtDrvMemHandle) belongs to the device that was current when it
// was made. Mapped ranges are live device memory: they go into the device's mapped() table,
// so copies, memsets and kernels accept them like aclrtMalloc memory.
//
// Shareable handles: a uint64_t naming the exporting process and the allocation's memory file
// (pid << 32 | descriptor). Importing opens /proc/<pid>/fd/<descriptor> -- the simulator's
// stand-in for the driver's cross-process sharing -- so it works between processes of one
// user on one host while the exporter lives. aclrtMemSetPidToShareableHandle records the
// processes it names; the simulator does not enforce the list.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "core/device.h"
#include "core/handle_table.h"
#include "core/runtime.h"

namespace aclsim::feature {

// The aclrtMemLocationType and aclrtMemAllocationType values the feature layer accepts (VMM
// allocation properties and stream-ordered pool properties).
inline constexpr uint32_t kLocationDevice = 1;    // ACL_MEM_LOCATION_TYPE_DEVICE
inline constexpr uint32_t kAllocationPinned = 0;  // ACL_MEM_ALLOCATION_TYPE_PINNED

// aclrtPhysicalMemProp, as the feature sees it.
struct PhysicalProps {
  uint32_t handle_type = 0;      // aclrtMemHandleType
  uint32_t allocation_type = 0;  // aclrtMemAllocationType (PINNED)
  uint32_t mem_attr = 1;         // aclrtMemAttr (ACL_HBM_MEM)
  uint32_t location_id = 0;      // aclrtMemLocation.id (device id)
  uint32_t location_type = 1;    // aclrtMemLocation.type (DEVICE)
};

// An aclrtDrvMemHandle.
class PhysicalMem {
 public:
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kPhysicalMem;
  PhysicalMem(std::shared_ptr<core::Device> device, uint64_t handle, size_t bytes,
              PhysicalProps props, bool imported)
      : device(std::move(device)), handle(handle), bytes(bytes), props(props), imported(imported) {}
  const std::shared_ptr<core::Device> device;
  const uint64_t handle;  // the driver's
  const size_t bytes;
  const PhysicalProps props;
  const bool imported;
};

// The granularity of reservations, physical sizes and mappings for `props`.
Result<size_t> Granularity(const PhysicalProps& props);

Result<void*> ReserveAddress(core::Runtime& runtime, size_t size, size_t alignment, void* expect,
                             uint64_t flags);
Status ReleaseAddress(core::Runtime& runtime, void* va);
// Returns the new aclrtDrvMemHandle.
Result<void*> MallocPhysical(core::Runtime& runtime, size_t size, const PhysicalProps& props,
                             uint64_t flags);
Status FreePhysical(void* handle);
Status MapMem(core::Runtime& runtime, void* va, size_t size, size_t offset, void* handle,
              uint64_t flags);
Status UnmapMem(core::Runtime& runtime, void* va);
Result<PhysicalProps> PropertiesOf(void* handle);

// aclrtMemSetAccess / aclrtMemGetAccess: access flags (NONE 0, READ 1, READWRITE 3) of a
// location (device `location_id` when `location_type` is DEVICE, else the host) to mapped
// memory. [va, va+size) must lie in one mapping; flags are recorded per mapping and location
// and read back (the simulator does not enforce them). A mapping's own device starts with
// READWRITE, every other location with NONE.
Status SetAccess(core::Runtime& runtime, void* va, size_t size, uint32_t location_type,
                 uint32_t location_id, uint64_t flags);
Result<uint64_t> GetAccess(core::Runtime& runtime, void* va, uint32_t location_type,
                           uint32_t location_id);

Result<uint64_t> ExportShareable(void* handle);
Status SetSharePids(core::Runtime& runtime, uint64_t shareable, const int32_t* pids, size_t count);
// Returns the new aclrtDrvMemHandle, on device `device_id` (open in this process).
Result<void*> ImportShareable(core::Runtime& runtime, uint64_t shareable, int32_t device_id);

}  // namespace aclsim::feature
