#include "sim/register.h"

#include "sim/sim_driver.h"

namespace aclsim::sim {

void RegisterSimBackends(aclsim::driver::DriverRegistry& registry) {
  registry.Register("sim", [](const driver::BackendOptions& options) {
    return CreateSimDriver(options, /*inline_mode=*/false);
  });
  registry.Register("sim-inline", [](const driver::BackendOptions& options) {
    return CreateSimDriver(options, /*inline_mode=*/true);
  });
}

}  // namespace aclsim::sim
