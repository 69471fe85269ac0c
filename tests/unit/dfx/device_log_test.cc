// The device log writer and the persisted device settings and status
// (dfx/device_log.h, dfx/device_settings.h).
#include "dfx/device_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dfx/device_settings.h"
#include "dfx/log_config.h"
#include "test_env.h"

namespace aclsim::dfx {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DeviceSettingsTest, DefaultsAreErrorLevelEventsOnTraceOff) {
  TempDir dir;
  auto settings = LoadDeviceLogSettings(dir.path(), 3);
  ASSERT_TRUE(settings.ok()) << settings.status().message();
  EXPECT_EQ(settings->global_level, 3);
  EXPECT_TRUE(settings->event_enabled);
  EXPECT_FALSE(settings->task_trace);
  EXPECT_EQ(settings->LevelOf(DeviceModule::kTsch), 3);
  EXPECT_FALSE(fs::exists(DeviceStateDir(dir.path(), 3)));  // loading creates nothing
}

TEST(DeviceSettingsTest, SaveAndLoadRoundTrip) {
  TempDir dir;
  DeviceLogSettings settings;
  settings.global_level = 1;
  settings.module_level[static_cast<size_t>(DeviceModule::kDrv)] = 0;
  settings.event_enabled = false;
  settings.task_trace = true;
  ASSERT_TRUE(SaveDeviceLogSettings(dir.path(), 1, settings).ok());
  const std::string text = Read(dir.path() + "/npu/device-1/log_config.json");
  EXPECT_NE(text.find("\"global_level\": \"info\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"DRV\": \"debug\""), std::string::npos) << text;
  auto loaded = LoadDeviceLogSettings(dir.path(), 1);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->global_level, 1);
  EXPECT_EQ(loaded->LevelOf(DeviceModule::kDrv), 0);
  EXPECT_EQ(loaded->LevelOf(DeviceModule::kTsch), 1);
  EXPECT_FALSE(loaded->event_enabled);
  EXPECT_TRUE(loaded->task_trace);
  // No temporary file is left behind.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path() + "/npu/device-1"))
    files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

TEST(DeviceSettingsTest, MalformedSettingsNameTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"[]", "not a JSON object"},
      {"{", "not a JSON object"},
      {R"({"global_level": "loud"})", "\"global_level\" must be one of"},
      {R"({"global_level": 3})", "\"global_level\" must be one of"},
      {R"({"module_levels": {"FOO": "info"}})", "\"FOO\" is not a device module"},
      {R"({"module_levels": {"TSCH": "x"}})", "module_levels.TSCH"},
      {R"({"event": "yes"})", "\"event\" must be true or false"},
      {R"({"colour": 1})", "unknown key \"colour\""},
  };
  for (const auto& [text, message] : cases) {
    auto parsed = ParseDeviceLogSettings(text, "cfg");
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.status().code(), StatusCode::kParseFile);
    EXPECT_NE(parsed.status().message().find(message), std::string::npos)
        << text << ": " << parsed.status().message();
  }
  auto mixed = ParseDeviceLogSettings(R"({"module_levels": {"tsch": "DEBUG"}})", "cfg");
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->LevelOf(DeviceModule::kTsch), 0);
}

TEST(DeviceSettingsTest, StatusRoundTripsThroughItsFile) {
  TempDir dir;
  DeviceStatus status;
  status.device_id = 2;
  status.soc = "Ascend910B2";
  status.pid = 1234;
  status.program = "app";
  status.open_time = "2026-12-01 10:00:00.000";
  status.tasks_submitted = 10;
  status.tasks_completed = 8;
  status.tasks_failed = 2;
  status.health = DeviceHealth::kAlarm;
  status.sim_time_ns = 123456;
  DeviceFailureInfo failure;
  failure.error_code = 507015;
  failure.stream_id = 3;
  failure.task_id = 9;
  failure.op_name = "Add";
  failure.message = "bad \xff byte";  // not UTF-8: still written
  status.last_failure = failure;
  ASSERT_TRUE(SaveDeviceStatus(dir.path(), 2, status).ok());
  auto loaded = LoadDeviceStatus(dir.path(), 2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->soc, "Ascend910B2");
  EXPECT_EQ(loaded->pid, 1234);
  EXPECT_EQ(loaded->tasks_completed, 8u);
  EXPECT_EQ(loaded->tasks_failed, 2u);
  EXPECT_EQ(loaded->health, DeviceHealth::kAlarm);
  EXPECT_EQ(loaded->sim_time_ns, 123456u);
  ASSERT_TRUE(loaded->last_failure.has_value());
  EXPECT_EQ(loaded->last_failure->error_code, 507015u);
  EXPECT_EQ(loaded->last_failure->op_name, "Add");
  EXPECT_EQ(LoadDeviceStatus(dir.path(), 5).status().code(), StatusCode::kInvalidFile);
}

TEST(DeviceSettingsTest, ConcurrentAtomicWritesLeaveOneCompleteFile) {
  TempDir dir;
  const std::string path = dir.path() + "/x/status.json";
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        ASSERT_TRUE(
            WriteFileAtomically(path, std::string(1000 + t, static_cast<char>('a' + t))).ok());
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const std::string text = Read(path);
  ASSERT_GE(text.size(), 1000u);
  EXPECT_EQ(text, std::string(text.size(), text[0]));
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path() + "/x")) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

TEST(DeviceLogTest, WritesPlogFormattedLinesToTheDeviceDirectory) {
  TempDir dir;
  {
    DeviceLog log(dir.path(), 4, DeviceLogSettings{});
    ACLSIM_DEVLOG(log, DeviceModule::kTsch, Level::kError, "task {} failed", 7);
    ACLSIM_DEVLOG(log, DeviceModule::kDrv, Level::kEvent, "device open");
    ACLSIM_DEVLOG(log, DeviceModule::kTsch, Level::kInfo, "not written at ERROR");
    ASSERT_EQ(log.files().size(), 1u);
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path() + "/debug/device-4")) {
    files.push_back(e.path().filename().string());
  }
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(std::regex_match(
      files[0], std::regex("device-" + std::to_string(getpid()) + "_[0-9]{17}\\.log")))
      << files[0];
  const std::string text = Read(dir.path() + "/debug/device-4/" + files[0]);
  EXPECT_TRUE(std::regex_search(
      text,
      std::regex(R"(^\[ERROR\] TSCH\(\d+,[^)]+\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} )"
                 R"(\[device_log_test\.cc:\d+\]\d+ .*: task 7 failed\n)")))
      << text;
  EXPECT_NE(text.find("[EVENT] DRV("), std::string::npos);
  EXPECT_EQ(text.find("not written"), std::string::npos);
}

TEST(DeviceLogTest, ModuleLevelsAndTheEventSwitchDecide) {
  TempDir dir;
  DeviceLogSettings settings;
  settings.global_level = 4;  // null
  settings.module_level[static_cast<size_t>(DeviceModule::kAicpu)] = 1;
  settings.event_enabled = false;
  DeviceLog log(dir.path(), 0, settings);
  EXPECT_FALSE(log.Enabled(DeviceModule::kTsch, Level::kError));
  EXPECT_TRUE(log.Enabled(DeviceModule::kAicpu, Level::kInfo));
  EXPECT_FALSE(log.Enabled(DeviceModule::kAicpu, Level::kDebug));
  EXPECT_FALSE(log.Enabled(DeviceModule::kDrv, Level::kEvent));
  ACLSIM_DEVLOG(log, DeviceModule::kTsch, Level::kError, "dropped");
  EXPECT_TRUE(log.files().empty());  // nothing written: no file created
  EXPECT_FALSE(fs::exists(dir.path() + "/debug"));
}

TEST(DeviceLogTest, FilesRotateAndOnlyTheNewestAreKept) {
  TempDir dir;
  DeviceLog log(dir.path(), 1, DeviceLogSettings{}, /*max_file_size=*/400, /*max_files=*/2);
  for (int i = 0; i < 20; ++i) {
    ACLSIM_DEVLOG(log, DeviceModule::kTsch, Level::kError, "line {} of some length", i);
  }
  log.Flush();
  EXPECT_EQ(log.files().size(), 2u);
  size_t on_disk = 0;
  for (const auto& e : fs::directory_iterator(dir.path() + "/debug/device-1")) {
    on_disk += e.is_regular_file();
  }
  EXPECT_EQ(on_disk, 2u);
}

TEST(DeviceLogTest, LogRootFollowsTheProcessLogPathRules) {
  auto env = [](std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  };
  EXPECT_EQ(ResolveLogRoot(env({{"ASCEND_PROCESS_LOG_PATH", "/a"}, {"ASCEND_WORK_PATH", "/w"}})),
            "/a");
  EXPECT_EQ(ResolveLogRoot(env({{"ASCEND_WORK_PATH", "/w"}, {"HOME", "/h"}})), "/w/log");
  EXPECT_EQ(ResolveLogRoot(env({{"HOME", "/h"}})), "/h/ascend/log");
}

}  // namespace
}  // namespace aclsim::dfx
