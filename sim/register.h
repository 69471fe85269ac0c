// Registration of the simulated-NPU backends.
//
// RegisterSimBackends adds two factories to a DriverRegistry:
//   "sim"         functional execution on worker threads (option `workers` per device);
//   "sim-inline"  the same timing model, but ready tasks execute synchronously in the thread
//                 that made them ready (inside Submit / CompleteExternal / Sync*).
// Both take the options documented in sim/backend_config.h (soc, device_count, hbm_bytes,
// ddr_bytes, workers, fault_*) and fail with kInvalidParam for an unknown SoC or a
// malformed value.
//
// Thread-safety: as DriverRegistry::Register.
#pragma once

#include "driver/registry.h"

namespace aclsim::sim {

void RegisterSimBackends(aclsim::driver::DriverRegistry& registry);

}  // namespace aclsim::sim
