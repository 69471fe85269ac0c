// SimDriver: the simulated-NPU backends "sim" (workers) and "sim-inline" (calling thread).
//
// A backend instance is one simulated machine: `device_count` devices of one SoC profile
// sharing one Scheduler (so cross-device event waits work) and one host-clock domain (so a
// fresh backend starts every thread's simulated clock at 0).
//
// Thread-safety: all methods may be called concurrently. Devices may outlive the driver.
#pragma once

#include <memory>
#include <string>

#include "driver/driver.h"
#include "driver/registry.h"
#include "sim/backend_config.h"
#include "sim/scheduler.h"

namespace aclsim::sim {

class SimDriver final : public driver::Driver {
 public:
  explicit SimDriver(BackendConfig config);

  std::string name() const override;
  uint32_t DeviceCount() const override { return config_.device_count; }
  // kInvalidDevice for an id >= DeviceCount().
  Result<driver::DeviceProps> Props(uint32_t physical_id) const override;
  // kInvalidDevice for a bad id or a device that is already open; kBadAlloc if the device
  // memory cannot be reserved.
  Status OpenDevice(uint32_t physical_id, std::unique_ptr<driver::Device>* device) override;

  const BackendConfig& config() const { return config_; }

 private:
  const BackendConfig config_;
  std::shared_ptr<Scheduler> scheduler_;
};

// Creates a sim backend from options (see backend_config.h); `inline_mode` selects sim-inline.
Result<std::unique_ptr<driver::Driver>> CreateSimDriver(const driver::BackendOptions& options,
                                                        bool inline_mode);

}  // namespace aclsim::sim
