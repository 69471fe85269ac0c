#include "sim/sim_driver.h"

#include <utility>

#include "sim/sim_device.h"

namespace aclsim::sim {

SimDriver::SimDriver(BackendConfig config)
    : config_(std::move(config)), scheduler_(std::make_shared<Scheduler>(config_.inline_mode)) {}

std::string SimDriver::name() const { return config_.inline_mode ? "sim-inline" : "sim"; }

Result<driver::DeviceProps> SimDriver::Props(uint32_t physical_id) const {
  if (physical_id >= config_.device_count) {
    return Err(StatusCode::kInvalidDevice, "device {} does not exist ({} has {} devices)",
               physical_id, name(), config_.device_count);
  }
  return config_.props;
}

Status SimDriver::OpenDevice(uint32_t physical_id, std::unique_ptr<driver::Device>* device) {
  if (device == nullptr) return Err(StatusCode::kInvalidParam, "OpenDevice: device is NULL");
  if (physical_id >= config_.device_count) {
    return Err(StatusCode::kInvalidDevice, "device {} does not exist ({} has {} devices)",
               physical_id, name(), config_.device_count);
  }
  return SimDevice::Open(scheduler_, config_, physical_id, device);
}

Result<std::unique_ptr<driver::Driver>> CreateSimDriver(const driver::BackendOptions& options,
                                                        bool inline_mode) {
  Result<BackendConfig> config = ParseBackendConfig(options, inline_mode);
  if (!config.ok()) return config.status();
  return std::unique_ptr<driver::Driver>(new SimDriver(std::move(config.value())));
}

}  // namespace aclsim::sim
