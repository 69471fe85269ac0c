#include "sim/backend_config.h"

#include <charconv>
#include <string>

namespace aclsim::sim {
namespace {

constexpr uint64_t kTiB = uint64_t{1} << 40;

// Reads options[key] as an unsigned integer in [min, max]; keeps *value if the key is absent.
Status ReadNumber(const driver::BackendOptions& options, const char* key, uint64_t min,
                  uint64_t max, uint64_t* value) {
  auto it = options.find(key);
  if (it == options.end()) return Status::Ok();
  const std::string& text = it->second;
  uint64_t parsed = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Err(StatusCode::kInvalidParam, "sim backend option {}='{}' is not an unsigned integer",
               key, text);
  }
  if (parsed < min || parsed > max) {
    return Err(StatusCode::kInvalidParam, "sim backend option {}={} is out of range [{}, {}]", key,
               parsed, min, max);
  }
  *value = parsed;
  return Status::Ok();
}

}  // namespace

Result<BackendConfig> ParseBackendConfig(const driver::BackendOptions& options, bool inline_mode) {
  ACLSIM_RETURN_IF_ERROR(SocProfileLoadStatus());
  std::string soc = "Ascend910B2";
  if (auto it = options.find("soc"); it != options.end()) soc = it->second;
  const SocProfile* profile = FindSocProfile(soc);
  if (profile == nullptr) {
    std::string known;
    for (const auto& name : SocNames()) known += (known.empty() ? "" : ", ") + name;
    return Err(StatusCode::kInvalidParam, "unknown SoC '{}' for the sim backend (known: {})", soc,
               known);
  }
  BackendConfig config;
  config.inline_mode = inline_mode;
  config.props = profile->props;
  config.cost = profile->cost;

  uint64_t device_count = config.device_count;
  uint64_t workers = config.workers;
  uint64_t hbm = config.props.hbm_bytes;
  uint64_t ddr = config.props.ddr_bytes;
  ACLSIM_RETURN_IF_ERROR(ReadNumber(options, "device_count", 1, 64, &device_count));
  ACLSIM_RETURN_IF_ERROR(ReadNumber(options, "workers", 1, 64, &workers));
  ACLSIM_RETURN_IF_ERROR(ReadNumber(options, "hbm_bytes", 4096, 4 * kTiB, &hbm));
  ACLSIM_RETURN_IF_ERROR(ReadNumber(options, "ddr_bytes", 0, 4 * kTiB, &ddr));
  ACLSIM_RETURN_IF_ERROR(
      ReadNumber(options, "fault_fail_task", 0, UINT64_MAX, &config.fault_fail_task));
  config.device_count = static_cast<uint32_t>(device_count);
  config.workers = static_cast<uint32_t>(workers);
  config.props.hbm_bytes = hbm / 4096 * 4096;
  config.props.ddr_bytes = ddr / 4096 * 4096;
  return config;
}

}  // namespace aclsim::sim
