// The library's composition root: the one place that knows every backend.
#include "api/backends.h"

#include <mutex>

#include "driver/registry.h"
#include "sim/register.h"

namespace aclsim::api {

void RegisterBuiltinBackends() {
  static std::once_flag once;
  std::call_once(once, [] { sim::RegisterSimBackends(driver::DriverRegistry::Global()); });
}

}  // namespace aclsim::api
