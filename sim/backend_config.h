// BackendConfig: the sim backends' options, parsed and validated.
//
// Keys (driver::BackendOptions; unknown keys are ignored, as the registry specifies):
//   soc              SoC profile name (default "Ascend910B2"; see SocNames())
//   device_count     devices exposed, 1..64 (default 8)
//   hbm_bytes        override the profile's HBM capacity, 4 KiB..4 TiB (rounded down to 4 KiB)
//   ddr_bytes        override the profile's DDR capacity, 0..4 TiB (0 = no DDR pool)
//   huge_page_bytes  the most bytes of each pool in huge pages (2 MiB and 1 GiB) at once,
//                    0..4 TiB (rounded down to 2 MiB; default: the pool's capacity). Beyond
//                    it huge-page allocations fail and HUGE_FIRST falls back to 4 KiB pages.
//   workers          worker threads per device, 1..64 (default 2; unused by sim-inline)
// Fault injection (per device; 0 = off):
//   fault_fail_task         N: the device's task with id N fails instead of executing
//   fault_fail_alloc        N: the device's Nth AllocPhysical fails with kDeviceOom
//   fault_aicore_exception  N: the device's Nth kernel task fails with an AI Core exception
//                           (507015) instead of executing
//   fault_slow_dma          "<engine>:<factor>": tasks on that DMA engine (h2d, d2h, d2d,
//                           peer) take factor (1..1000) times longer
//   fault_device_lost       N: when the device's task N starts the device is lost: the task
//                           fails with kDeviceLostCode (failure handler called), later tasks
//                           complete without running, and every later call fails (driver.h)
// Numbers are unsigned decimal integers; anything else is kInvalidParam naming the key.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "driver/registry.h"
#include "sim/cost_model.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

struct FaultConfig {
  uint64_t fail_task = 0;
  uint64_t fail_alloc = 0;
  uint64_t aicore_exception = 0;
  uint64_t device_lost = 0;
  EngineKind slow_dma_engine = EngineKind::kNone;
  uint64_t slow_dma_factor = 1;
};

struct BackendConfig {
  bool inline_mode = false;   // "sim-inline"
  driver::DeviceProps props;  // the profile's, with capacity overrides applied
  CostParams cost;
  uint32_t device_count = 8;
  uint32_t workers = 2;
  uint64_t huge_page_bytes = UINT64_MAX;  // UINT64_MAX: no budget but the pool's capacity
  uint64_t fault_fail_task = 0;           // == faults.fail_task (kept for existing callers)
  FaultConfig faults;
};

Result<BackendConfig> ParseBackendConfig(const driver::BackendOptions& options, bool inline_mode);

}  // namespace aclsim::sim
