// DriverRegistry: the backends a runtime can open, by name.
//
// Backends register explicitly (no static-initialiser magic): the library's composition
// root (src/lib/backends.cc) registers `sim` and `null`; tests may register their own.
// The runtime picks one by name: the aclInit JSON key "aclsim.driver", else the environment
// variable ACLSIM_DRIVER, else "sim".
//
// Thread-safety: Register/Create may be called concurrently.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "driver/driver.h"

namespace aclsim::driver {

// Backend options as strings, e.g. {"soc": "Ascend910B2", "device_count": "8"}.
// Keys a backend does not know are ignored by it.
using BackendOptions = std::map<std::string, std::string>;

using DriverFactory = std::function<Result<std::unique_ptr<Driver>>(const BackendOptions& options)>;

class DriverRegistry {
 public:
  // The process-wide registry used by libascendcl.so.
  static DriverRegistry& Global();

  void Register(const std::string& name, DriverFactory factory);
  bool Has(const std::string& name) const;
  std::vector<std::string> Names() const;
  // Creates a backend; kInvalidParam naming the known backends if `name` is unknown.
  Result<std::unique_ptr<Driver>> Create(const std::string& name,
                                         const BackendOptions& options) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, DriverFactory> factories_;
};

}  // namespace aclsim::driver
