// BackendConfig: the sim backends' options, parsed and validated.
//
// Keys (driver::BackendOptions; unknown keys are ignored, as the registry specifies):
//   soc              SoC profile name (default "Ascend910B2"; see SocNames())
//   device_count     devices exposed, 1..64 (default 8)
//   hbm_bytes        override the profile's HBM capacity, 4 KiB..4 TiB (rounded down to 4 KiB)
//   ddr_bytes        override the profile's DDR capacity, 0..4 TiB (0 = no DDR pool)
//   workers          worker threads per device, 1..64 (default 2; unused by sim-inline)
//   fault_fail_task  N > 0: each device's task with id N fails instead of executing (0 = off)
// Numbers are unsigned decimal integers; anything else is kInvalidParam naming the key.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "driver/registry.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

struct BackendConfig {
  bool inline_mode = false;   // "sim-inline"
  driver::DeviceProps props;  // the profile's, with capacity overrides applied
  CostParams cost;
  uint32_t device_count = 8;
  uint32_t workers = 2;
  uint64_t fault_fail_task = 0;
};

Result<BackendConfig> ParseBackendConfig(const driver::BackendOptions& options, bool inline_mode);

}  // namespace aclsim::sim
