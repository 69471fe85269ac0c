// The SoCs the op library compiles for: the values atc accepts for --soc_version.
//
// One per SoC profile of the project (sim/profiles/<SocName>.json): the build lists the
// profile files' names, so the list needs no upkeep and knows nothing else of the simulator.
//
// Thread-safety: immutable data.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aclsim::ops {

// Every target SoC name, sorted ("Ascend310", "Ascend310B1", ..., "Ascend910B2", ...).
const std::vector<std::string>& SocTargets();
bool IsSocTarget(std::string_view name);
// "Ascend310, Ascend310B1, ...": the list for an error message.
std::string SocTargetList();

}  // namespace aclsim::ops
