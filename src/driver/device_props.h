// DeviceProps: the facts of one device that the core and the API need to know.
//
// Filled by a backend (the simulator copies them from its SoC profile). Units in names.
#pragma once

#include <cstdint>
#include <string>

namespace aclsim::driver {

struct DeviceProps {
  std::string soc_name;          // e.g. "Ascend910B2" (aclrtGetSocName)
  uint32_t npu_arch = 0;         // e.g. 2201 (ACL_DEV_ATTR_NPU_ARCH)
  uint32_t aicore_num = 0;       // cube / AI Core count
  uint32_t vector_core_num = 0;  // AIV count
  uint32_t aicpu_num = 0;        // user AI CPUs
  uint64_t clock_hz = 0;         // AI Core clock
  uint64_t l2_bytes = 0;
  uint64_t ub_bytes = 0;              // unified buffer per vector core
  uint64_t hbm_bytes = 0;             // device memory (HBM) capacity
  uint64_t ddr_bytes = 0;             // low-bandwidth (DDR) capacity, 0 if none
  uint32_t max_streams = 0;           // stream limit per device (default stream included)
  uint32_t max_events = 0;            // event limit per device
  int32_t stream_priority_least = 7;  // aclrtDeviceGetStreamPriorityRange
  int32_t stream_priority_greatest = 0;
  uint32_t max_blocks_per_kernel = 65535;
};

}  // namespace aclsim::driver
