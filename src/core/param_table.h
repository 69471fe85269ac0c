// ParamTable: system parameters set with aclrt[Ctx]SetSysParamOpt, per process or context.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "common/status.h"

namespace aclsim::core {

class ParamTable {
 public:
  void Set(int option, int64_t value) {
    std::lock_guard<std::mutex> lock(mu_);
    values_[option] = value;
  }
  // kSysParamNotSet if `option` was never set here.
  Result<int64_t> Get(int option) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = values_.find(option);
    if (it == values_.end()) {
      return Err(StatusCode::kSysParamNotSet, "system parameter {} has not been set", option);
    }
    return it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<int, int64_t> values_;
};

}  // namespace aclsim::core
