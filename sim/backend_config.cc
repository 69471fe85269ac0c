#include "sim/backend_config.h"

#include <charconv>
#include <string>
#include <utility>

namespace aclsim::sim {
namespace {

constexpr uint64_t kTiB = uint64_t{1} << 40;
constexpr uint64_t kHugePage = uint64_t{2} << 20;

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

Status ReadSlowDma(const driver::BackendOptions& options, FaultConfig* faults) {
  auto it = options.find("fault_slow_dma");
  if (it == options.end()) return Status::Ok();
  const std::string& text = it->second;
  const size_t colon = text.find(':');
  const std::string engine = text.substr(0, colon);
  const std::pair<const char*, EngineKind> engines[] = {{"h2d", EngineKind::kDmaH2D},
                                                        {"d2h", EngineKind::kDmaD2H},
                                                        {"d2d", EngineKind::kDmaD2D},
                                                        {"peer", EngineKind::kDmaPeer}};
  for (const auto& [name, kind] : engines) {
    if (engine == name) faults->slow_dma_engine = kind;
  }
  uint64_t factor = 0;
  const std::string digits = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), factor);
  if (faults->slow_dma_engine == EngineKind::kNone || digits.empty() || ec != std::errc() ||
      end != digits.data() + digits.size() || factor < 1 || factor > 1000) {
    faults->slow_dma_engine = EngineKind::kNone;
    return Err(StatusCode::kInvalidParam,
               "sim backend option fault_slow_dma='{}' must be <h2d|d2h|d2d|peer>:<1..1000>", text);
  }
  faults->slow_dma_factor = factor;
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
      ReadNumber(options, "huge_page_bytes", 0, 4 * kTiB, &config.huge_page_bytes));
  if (config.huge_page_bytes != UINT64_MAX) {
    config.huge_page_bytes = config.huge_page_bytes / kHugePage * kHugePage;
  }
  ACLSIM_RETURN_IF_ERROR(
      ReadNumber(options, "fault_fail_task", 0, UINT64_MAX, &config.fault_fail_task));
  config.faults.fail_task = config.fault_fail_task;
  ACLSIM_RETURN_IF_ERROR(
      ReadNumber(options, "fault_fail_alloc", 0, UINT64_MAX, &config.faults.fail_alloc));
  ACLSIM_RETURN_IF_ERROR(ReadNumber(options, "fault_aicore_exception", 0, UINT64_MAX,
                                    &config.faults.aicore_exception));
  ACLSIM_RETURN_IF_ERROR(
      ReadNumber(options, "fault_device_lost", 0, UINT64_MAX, &config.faults.device_lost));
  ACLSIM_RETURN_IF_ERROR(ReadSlowDma(options, &config.faults));
  config.device_count = static_cast<uint32_t>(device_count);
  config.workers = static_cast<uint32_t>(workers);
  config.props.hbm_bytes = hbm / 4096 * 4096;
  config.props.ddr_bytes = ddr / 4096 * 4096;
  return config;
}

}  // namespace aclsim::sim
