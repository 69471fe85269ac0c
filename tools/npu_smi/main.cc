// npu-smi: prints the simulated NPUs the way Huawei's npu-smi prints real ones.
//
//   npu-smi info                    the real tool's table (two lines per device), then the
//                                   simulated SoC's cores, HBM, clock and profile
//   npu-smi info -t board -i <id>   every profile number of device <id> with its source
//   npu-smi -h | --help
//
// The devices are those the runtime would open: the sim backend configured from the same
// environment variables as aclInit (ACLSIM_SOC, ACLSIM_DEVICE_COUNT, ACLSIM_HBM_BYTES).
// Exit status: 0 on success, 1 on a usage error or an unknown device / SoC.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/guarded_main.h"
#include "sim/backend_config.h"
#include "sim/soc_profile.h"

namespace {

using aclsim::sim::BackendConfig;
using aclsim::sim::SocProfile;

constexpr const char* kUsage =
    "usage: npu-smi info [-t board -i <id>]\n"
    "  info                   list the simulated NPUs (SoC, cores, HBM, clock, profile)\n"
    "  info -t board -i <id>  board details of NPU <id>: every profile value and its source\n"
    "Devices follow ACLSIM_SOC, ACLSIM_DEVICE_COUNT and ACLSIM_HBM_BYTES, as in aclInit.\n";

int Usage(const char* problem) {
  if (problem != nullptr) std::fprintf(stderr, "npu-smi: %s\n", problem);
  std::fputs(kUsage, problem != nullptr ? stderr : stdout);
  return problem != nullptr ? 1 : 0;
}

aclsim::driver::BackendOptions OptionsFromEnvironment() {
  aclsim::driver::BackendOptions options;
  const std::pair<const char*, const char*> vars[] = {{"ACLSIM_SOC", "soc"},
                                                      {"ACLSIM_DEVICE_COUNT", "device_count"},
                                                      {"ACLSIM_HBM_BYTES", "hbm_bytes"}};
  for (const auto& [env, key] : vars) {
    if (const char* v = std::getenv(env); v != nullptr && *v != '\0') options[key] = v;
  }
  return options;
}

const SocProfile* ProfileOf(const BackendConfig& config) {
  return aclsim::sim::FindSocProfile(config.props.soc_name);
}

// The chip name as npu-smi prints it: the SoC without the "Ascend" prefix (910B3, 310P3).
std::string ChipName(const std::string& soc) {
  const std::string prefix = "Ascend";
  return soc.compare(0, prefix.size(), prefix) == 0 ? soc.substr(prefix.size()) : soc;
}

// The real tool's table, line for line (scripts read it by position: llama.cpp's build takes
// the chip name from line 7, field 3): a banner, two header lines, then two lines per NPU
// (id, name, health, power, temperature, huge pages / chip, bus id, AI Core use, memory, HBM),
// then the process table. aclsim's own facts (cores, clock, profile) follow the tables.
void PrintInfo(const BackendConfig& config) {
  const auto& p = config.props;
  const std::string top = "+" + std::string(96, '-') + "+\n";
  const std::string rule =
      "+" + std::string(27, '-') + "+" + std::string(15, '-') + "+" + std::string(52, '-') + "+\n";
  const std::string fat =
      "+" + std::string(27, '=') + "+" + std::string(15, '=') + "+" + std::string(52, '=') + "+\n";
  const auto hbm_mb = static_cast<unsigned long long>(p.hbm_bytes >> 20);
  const std::string banner =
      std::string("npu-smi aclsim                   Version: aclsim (backend ") +
      (config.inline_mode ? "sim-inline" : "sim") + ")";
  std::fputs(top.c_str(), stdout);
  std::printf("| %-94s |\n", banner.c_str());
  std::fputs(rule.c_str(), stdout);
  std::printf("| %-25s | %-13s | %-50s |\n", "NPU   Name", "Health",
              "Power(W)    Temp(C)          Hugepages-Usage(page)");
  std::printf("| %-25s | %-13s | %-50s |\n", "Chip", "Bus-Id",
              "AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)");
  std::fputs(fat.c_str(), stdout);
  for (uint32_t i = 0; i < config.device_count; ++i) {
    char bus[16];
    std::snprintf(bus, sizeof(bus), "0000:%02X:00.0", (0xC1 + i) & 0xFFu);
    char hbm[32];
    std::snprintf(hbm, sizeof(hbm), "0    / %llu", hbm_mb);
    std::printf("| %-5u %-19s | %-13s | %-11s %-17s %-20s |\n", i, ChipName(p.soc_name).c_str(),
                "OK", "0.0", "0", "0    / 0");
    std::printf("| %-25u | %-13s | %-11s %-17s %-20s |\n", 0u, bus, "0", "0    / 0", hbm);
    std::fputs(fat.c_str(), stdout);
  }
  std::fputs(rule.c_str(), stdout);
  std::printf("| %-25s | %-13s | %-50s |\n", "NPU     Chip", "Process id",
              "Process name             | Process memory(MB)");
  std::fputs(fat.c_str(), stdout);
  for (uint32_t i = 0; i < config.device_count; ++i) {
    const std::string none = "No running processes found in NPU " + std::to_string(i);
    std::printf("| %-94s |\n", none.c_str());
    std::fputs(fat.c_str(), stdout);
  }
  std::printf(
      "\naclsim: %u x %s, %u AI Cores, %u AI Vector cores, %u AI CPUs, %llu MB HBM, %llu MHz, "
      "profile sim/profiles/%s.json\n",
      config.device_count, p.soc_name.c_str(), p.aicore_num, p.vector_core_num, p.aicpu_num, hbm_mb,
      static_cast<unsigned long long>(p.clock_hz / 1'000'000), p.soc_name.c_str());
  if (const SocProfile* profile = ProfileOf(config)) {
    std::printf("%s: %s\n", profile->name.c_str(), profile->summary.c_str());
  }
}

int PrintBoard(const BackendConfig& config, uint32_t id) {
  if (id >= config.device_count) {
    std::fprintf(stderr, "npu-smi: NPU %u does not exist (%u devices)\n", id, config.device_count);
    return 1;
  }
  const SocProfile* profile = ProfileOf(config);
  if (profile == nullptr) return 1;
  std::printf("NPU ID                         : %u\n", id);
  std::printf("Chip Name                      : %s\n", profile->name.c_str());
  std::printf("Summary                        : %s\n", profile->summary.c_str());
  std::printf("Profile                        : sim/profiles/%s.json\n", profile->name.c_str());
  std::printf("HBM Capacity (MB)              : %llu\n",
              static_cast<unsigned long long>(config.props.hbm_bytes >> 20));
  std::printf("\n%-36s %-16s %-4s %s\n", "Parameter", "Value", "Conf", "Source");
  for (const auto& field : profile->fields) {
    std::printf("%-36s %-16llu %-4s %s\n", field.name.c_str(),
                static_cast<unsigned long long>(field.value), field.confidence.c_str(),
                field.source.c_str());
  }
  return 0;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("missing command");
  if (args[0] == "-h" || args[0] == "--help") return Usage(nullptr);
  if (args[0] != "info") return Usage(("unknown command '" + args[0] + "'").c_str());
  std::string type;
  long id = -1;
  for (size_t i = 1; i < args.size(); ++i) {
    if ((args[i] == "-t" || args[i] == "-i") && i + 1 >= args.size()) {
      return Usage(("option " + args[i] + " needs a value").c_str());
    }
    if (args[i] == "-t") {
      type = args[++i];
    } else if (args[i] == "-i") {
      char* end = nullptr;
      id = std::strtol(args[++i].c_str(), &end, 10);
      if (end == nullptr || *end != '\0' || id < 0) return Usage("-i needs a device id");
    } else {
      return Usage(("unknown option '" + args[i] + "'").c_str());
    }
  }
  auto config = aclsim::sim::ParseBackendConfig(OptionsFromEnvironment(), false);
  if (!config.ok()) {
    std::fprintf(stderr, "npu-smi: %s\n", config.status().message().c_str());
    return 1;
  }
  if (type.empty() && id < 0) {
    PrintInfo(config.value());
    return 0;
  }
  if (type != "board" || id < 0) return Usage("use: npu-smi info -t board -i <id>");
  return PrintBoard(config.value(), static_cast<uint32_t>(id));
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("npu-smi", 1, [&] { return RunTool(argc, argv); });
}
