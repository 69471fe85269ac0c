// msnpureport: exports the simulated devices' logs and status, and sets their log levels,
// with the options of CANN's msnpureport as scripts use them.
//
//   msnpureport [-f] | msnpureport report -a
//                      export into ./<YYYY-MM-DD-hh-mm-ss>/:
//                        slog/dev-os-<id>/debug/device-<id>/device-<pid>_<stamp>.log (copies)
//                        module_info/device-<id>/status.json
//   -d <id>            the device (export, -s: default every device with logs or a status;
//                      settings, -r: default 0)
//   -g <level>         the device's global log level: error|warning|info|debug|null
//   -m <MODULE:level>  a module's level (TSCH, DRV, AICPU, DEVMM); repeatable
//   -e <enable|disable> the device's event logs
//   -t <on|off>        task trace: one DEBUG line of TSCH per completed task (stream, task,
//                      op, simulated start/end ns) in the device log
//   -r                 print the device's log settings
//   -s                 print the device's status (health, last process, task counters, last
//                      failure, simulated time)
//   -h | --help
//
// Files live under the log root the runtime uses (ASCEND_PROCESS_LOG_PATH >
// $ASCEND_WORK_PATH/log > $HOME/ascend/log): <root>/npu/device-<id>/{log_config.json,
// status.json} and <root>/debug/device-<id>/ (dfx/device_settings.h). Settings take effect
// when a process next opens the device. Devices: 0 .. ACLSIM_DEVICE_COUNT-1 (default 8), and
// any device that already has a status or logs under the root.
//
// Exit status: 0 on success; 1 for an unknown device, a device with nothing to show or
// export, or a file that cannot be read or written; 2 for a usage error.
#include <fmt/format.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/guarded_main.h"
#include "dfx/device_settings.h"
#include "dfx/log_config.h"

namespace {

namespace fs = std::filesystem;
namespace dfx = aclsim::dfx;

constexpr int kMaxDevices = 64;

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "msnpureport: %s\n", message.c_str());
  return code;
}

// The device count the runtime would see (ACLSIM_DEVICE_COUNT, 1..64, default 8).
int ConfiguredDeviceCount() {
  const char* text = std::getenv("ACLSIM_DEVICE_COUNT");
  if (text == nullptr || *text == '\0') return 8;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return (*end == '\0' && value >= 1 && value <= kMaxDevices) ? static_cast<int>(value) : 8;
}

bool HasStatus(const std::string& root, int id) {
  std::error_code error;
  return fs::exists(dfx::DeviceStateDir(root, id) + "/status.json", error);
}

bool HasLogs(const std::string& root, int id) {
  std::error_code error;
  const fs::path dir = dfx::DeviceLogDir(root, id);
  if (!fs::is_directory(dir, error)) return false;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.is_regular_file(error)) return true;
  }
  return false;
}

// Devices with logs or a status under the root.
std::vector<int> DevicesWithData(const std::string& root) {
  std::set<int> ids;
  for (const char* sub : {"/npu", "/debug"}) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(root + sub, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("device-", 0) != 0) continue;
      char* end = nullptr;
      const long id = std::strtol(name.c_str() + 7, &end, 10);
      if (*end != '\0' || end == name.c_str() + 7 || id < 0 || id >= 1 << 20) continue;
      if (HasStatus(root, static_cast<int>(id)) || HasLogs(root, static_cast<int>(id))) {
        ids.insert(static_cast<int>(id));
      }
    }
  }
  return {ids.begin(), ids.end()};
}

std::string ExportDirName() {
  const time_t now = time(nullptr);
  struct tm local {};
  localtime_r(&now, &local);
  return fmt::format("{:04}-{:02}-{:02}-{:02}-{:02}-{:02}", local.tm_year + 1900, local.tm_mon + 1,
                     local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec);
}

int Export(const std::string& root, const std::vector<int>& devices) {
  std::error_code error;
  const fs::path out = fs::current_path(error) / ExportDirName();
  if (error) return Fail(1, "cannot find the current directory: " + error.message());
  int files = 0;
  for (int id : devices) {
    const fs::path logs = dfx::DeviceLogDir(root, id);
    const fs::path log_out =
        out / "slog" / fmt::format("dev-os-{}", id) / "debug" / fmt::format("device-{}", id);
    if (HasLogs(root, id)) {
      fs::create_directories(log_out, error);
      if (error) return Fail(1, "cannot create " + log_out.string() + ": " + error.message());
      for (const auto& entry : fs::directory_iterator(logs, error)) {
        if (!entry.is_regular_file(error)) continue;
        fs::copy_file(entry.path(), log_out / entry.path().filename(),
                      fs::copy_options::overwrite_existing, error);
        if (error) return Fail(1, "cannot copy " + entry.path().string() + ": " + error.message());
        ++files;
      }
    }
    if (HasStatus(root, id)) {
      const fs::path info_out = out / "module_info" / fmt::format("device-{}", id);
      fs::create_directories(info_out, error);
      fs::copy_file(dfx::DeviceStateDir(root, id) + "/status.json", info_out / "status.json",
                    fs::copy_options::overwrite_existing, error);
      if (error) return Fail(1, "cannot write " + info_out.string() + ": " + error.message());
      ++files;
    }
  }
  std::printf("msnpureport: exported %d file(s) of %zu device(s) from %s to %s\n", files,
              devices.size(), root.c_str(), out.string().c_str());
  return 0;
}

void PrintSettings(const std::string& root, int id, const dfx::DeviceLogSettings& s) {
  std::printf("device %d log settings (%s/log_config.json):\n", id,
              dfx::DeviceStateDir(root, id).c_str());
  std::printf("  global level: %s\n", dfx::LevelWord(s.global_level));
  std::string modules;
  for (int m = 0; m < dfx::kDeviceModuleCount; ++m) {
    const auto module = static_cast<dfx::DeviceModule>(m);
    modules += fmt::format("{}{}={}{}", m == 0 ? "" : " ", dfx::DeviceModuleName(module),
                           dfx::LevelWord(s.LevelOf(module)),
                           s.module_level[static_cast<size_t>(m)] >= 0 ? "" : " (global)");
  }
  std::printf("  module levels: %s\n", modules.c_str());
  std::printf("  event log: %s\n", s.event_enabled ? "enable" : "disable");
  std::printf("  task trace: %s\n", s.task_trace ? "on" : "off");
}

void PrintStatus(const std::string& root, int id, const dfx::DeviceStatus& s) {
  std::printf("device %d status (%s/status.json):\n", id, dfx::DeviceStateDir(root, id).c_str());
  std::printf("  SoC: %s\n", s.soc.c_str());
  std::printf("  health: %s\n", dfx::DeviceHealthName(s.health));
  std::printf("  last process: %s (pid %lld), opened %s, %s\n", s.program.c_str(),
              static_cast<long long>(s.pid), s.open_time.c_str(),
              s.close_time.empty() ? "still open (or ended without closing the device)"
                                   : ("closed " + s.close_time).c_str());
  std::printf("  tasks: submitted %llu, completed %llu, failed %llu\n",
              static_cast<unsigned long long>(s.tasks_submitted),
              static_cast<unsigned long long>(s.tasks_completed),
              static_cast<unsigned long long>(s.tasks_failed));
  if (s.last_failure) {
    const dfx::DeviceFailureInfo& f = *s.last_failure;
    std::printf("  last failure: error %u on stream %u task %llu (op %s) at %s: %s\n", f.error_code,
                f.stream_id, static_cast<unsigned long long>(f.task_id),
                f.op_name.empty() ? "-" : f.op_name.c_str(), f.time.c_str(), f.message.c_str());
  } else {
    std::printf("  last failure: none\n");
  }
  std::printf("  simulated time: %llu ns\n", static_cast<unsigned long long>(s.sim_time_ns));
}

}  // namespace

static int RunTool(int argc, char** argv) {
  CLI::App app{
      "msnpureport (aclsim): exports the simulated devices' logs and status, and sets "
      "their log levels."};
  app.footer(
      "Without an option (or with -f, or 'report -a') the logs and status of the devices are\n"
      "exported to ./<YYYY-MM-DD-hh-mm-ss>/. Files live under ASCEND_PROCESS_LOG_PATH >\n"
      "$ASCEND_WORK_PATH/log > $HOME/ascend/log, as for the runtime.");
  std::optional<int> device;
  std::string global_level;
  std::vector<std::string> module_levels;
  std::string event;
  std::string trace;
  bool full = false;
  bool print_settings = false;
  bool print_status = false;
  app.add_option("-d,--device", device, "device id");
  app.add_option("-g,--global", global_level, "global log level: error|warning|info|debug|null");
  app.add_option("-m,--module", module_levels,
                 "module level MODULE:level (TSCH, DRV, AICPU, DEVMM)");
  app.add_option("-e,--event", event, "event logs: enable|disable");
  app.add_option("-t,--trace", trace, "task trace: on|off");
  app.add_flag("-f,--full", full, "export the logs and status (the default action)");
  app.add_flag("-r,--read", print_settings, "print the device's log settings");
  app.add_flag("-s,--status", print_status, "print the device's status");
  bool all = false;
  CLI::App* report = app.add_subcommand("report", "export the logs and status (with -a)");
  report->add_flag("-a,--all", all, "every kind of log");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }

  // Check every value before changing anything.
  std::optional<int8_t> level;
  if (!global_level.empty()) {
    level = dfx::LevelFromWord(global_level);
    if (!level) return Fail(2, "-g " + global_level + ": use error, warning, info, debug or null");
  }
  std::vector<std::pair<dfx::DeviceModule, int8_t>> modules;
  for (const std::string& item : module_levels) {
    const size_t colon = item.find(':');
    const auto module = colon == std::string::npos
                            ? std::nullopt
                            : dfx::DeviceModuleFromName(item.substr(0, colon));
    const auto module_level =
        colon == std::string::npos ? std::nullopt : dfx::LevelFromWord(item.substr(colon + 1));
    if (!module || !module_level) {
      return Fail(2, "-m " + item +
                         ": use MODULE:level, MODULE one of TSCH, DRV, AICPU, DEVMM and level one "
                         "of error, warning, info, debug, null");
    }
    modules.emplace_back(*module, *module_level);
  }
  if (!event.empty() && event != "enable" && event != "disable") {
    return Fail(2, "-e " + event + ": use enable or disable");
  }
  if (!trace.empty() && trace != "on" && trace != "off") {
    return Fail(2, "-t " + trace + ": use on or off");
  }
  if (report->parsed() && !all) return Fail(2, "report: give -a (export every kind of log)");

  const std::string root = dfx::LogRootFromEnv();
  const std::vector<int> with_data = DevicesWithData(root);
  if (device) {
    bool known = *device >= 0 && *device < ConfiguredDeviceCount();
    for (int id : with_data) known = known || id == *device;
    if (!known) {
      return Fail(1,
                  fmt::format("device {} does not exist: devices are 0..{} (ACLSIM_DEVICE_COUNT)",
                              *device, ConfiguredDeviceCount() - 1));
    }
  }

  const bool setting = level || !modules.empty() || !event.empty() || !trace.empty();
  const bool exporting = full || report->parsed() || (!setting && !print_settings && !print_status);
  const int one = device.value_or(0);
  if (setting) {
    auto loaded = dfx::LoadDeviceLogSettings(root, one);
    if (!loaded.ok()) return Fail(1, loaded.status().message());
    dfx::DeviceLogSettings settings = *loaded;
    if (level) settings.global_level = *level;
    for (const auto& [module, module_level] : modules) {
      settings.module_level[static_cast<size_t>(module)] = module_level;
    }
    if (!event.empty()) settings.event_enabled = event == "enable";
    if (!trace.empty()) settings.task_trace = trace == "on";
    aclsim::Status saved = dfx::SaveDeviceLogSettings(root, one, settings);
    if (!saved.ok()) return Fail(1, saved.message());
    std::printf(
        "msnpureport: device %d log settings saved (applied when a process next opens "
        "the device)\n",
        one);
  }
  if (print_settings) {
    auto loaded = dfx::LoadDeviceLogSettings(root, one);
    if (!loaded.ok()) return Fail(1, loaded.status().message());
    PrintSettings(root, one, *loaded);
  }
  if (print_status) {
    std::vector<int> ids = device ? std::vector<int>{*device} : with_data;
    if (ids.empty()) return Fail(1, "no device has a status under " + root);
    for (int id : ids) {
      auto status = dfx::LoadDeviceStatus(root, id);
      if (!status.ok()) {
        return Fail(1, fmt::format("device {} has no status ({}): has a process opened it?", id,
                                   status.status().message()));
      }
      PrintStatus(root, id, *status);
    }
  }
  if (exporting) {
    std::vector<int> ids = device ? std::vector<int>{*device} : with_data;
    if (device && !HasLogs(root, *device) && !HasStatus(root, *device)) {
      return Fail(1, fmt::format("device {} has no logs or status under {}", *device, root));
    }
    if (ids.empty()) return Fail(1, "no device has logs or a status under " + root);
    return Export(root, ids);
  }
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("msnpureport", 1, [&] { return RunTool(argc, argv); });
}
