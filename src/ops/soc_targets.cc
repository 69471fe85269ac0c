// The target SoC list (ops/soc_targets.h) over the names the build generated.
#include "ops/soc_targets.h"

#include <algorithm>

namespace aclsim::ops {

namespace internal {
extern const char* const kSocTargetNames[];  // soc_target_names.cc (generated)
extern const size_t kSocTargetCount;
}  // namespace internal

const std::vector<std::string>& SocTargets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out(internal::kSocTargetNames,
                                 internal::kSocTargetNames + internal::kSocTargetCount);
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

bool IsSocTarget(std::string_view name) {
  const auto& names = SocTargets();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string SocTargetList() {
  std::string out;
  for (const auto& name : SocTargets()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace aclsim::ops
