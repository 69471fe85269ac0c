#include "driver/registry.h"

#include <fmt/format.h>

namespace aclsim::driver {

size_t PageBytes(PageSize page) {
  switch (page) {
    case PageSize::k4K:
      return size_t{4} << 10;
    case PageSize::k2M:
      return size_t{2} << 20;
    case PageSize::k1G:
      return size_t{1} << 30;
  }
  return size_t{4} << 10;
}

DriverRegistry& DriverRegistry::Global() {
  static DriverRegistry registry;
  return registry;
}

void DriverRegistry::Register(const std::string& name, DriverFactory factory) {
  std::lock_guard<std::mutex> lock(mu_);
  factories_[name] = std::move(factory);
}

bool DriverRegistry::Has(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  return factories_.count(name) != 0;
}

std::vector<std::string> DriverRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& entry : factories_) names.push_back(entry.first);
  return names;
}

Result<std::unique_ptr<Driver>> DriverRegistry::Create(const std::string& name,
                                                       const BackendOptions& options) const {
  DriverFactory factory;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = factories_.find(name);
    if (it == factories_.end()) {
      std::string known;
      for (const auto& entry : factories_) known += (known.empty() ? "" : ", ") + entry.first;
      return Err(StatusCode::kInvalidParam, "unknown device backend '{}' (known: {})", name, known);
    }
    factory = it->second;
  }
  return factory(options);
}

}  // namespace aclsim::driver
