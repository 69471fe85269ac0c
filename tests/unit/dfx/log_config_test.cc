// Parsing of the logging environment variables (pure: the environment is a map here).
#include "dfx/log_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace aclsim::dfx {
namespace {

LogConfig Parse(const std::map<std::string, std::string>& env) {
  return ParseLogConfig([&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

int8_t LevelOf(const LogConfig& config, Module module) {
  return config.module_level[static_cast<size_t>(module)];
}

TEST(LogConfigTest, DefaultsMatchCann) {
  const LogConfig config = Parse({{"HOME", "/home/u"}});
  EXPECT_EQ(config.global_level, 3);
  for (int i = 0; i < kModuleCount; ++i) EXPECT_EQ(config.module_level[i], 3);
  EXPECT_TRUE(config.event_enabled);
  EXPECT_FALSE(config.print_to_stdout);
  EXPECT_FALSE(config.sync_save);
  EXPECT_EQ(config.host_log_file_num, 10);
  EXPECT_EQ(config.root_dir, "/home/u/ascend/log");
  EXPECT_TRUE(config.warnings.empty());
}

TEST(LogConfigTest, GlobalLevelAppliesToEveryModule) {
  const LogConfig config = Parse({{"ASCEND_GLOBAL_LOG_LEVEL", "1"}});
  for (int i = 0; i < kModuleCount; ++i) EXPECT_EQ(config.module_level[i], 1);
}

TEST(LogConfigTest, InvalidGlobalLevelFallsBackToErrorWithWarning) {
  for (const char* bad : {"5", "-1", "x", "1 ", "99999999999"}) {
    const LogConfig config = Parse({{"ASCEND_GLOBAL_LOG_LEVEL", bad}});
    EXPECT_EQ(config.global_level, 3) << bad;
    EXPECT_EQ(config.warnings.size(), 1u) << bad;
  }
}

TEST(LogConfigTest, ModuleLevelOverridesGlobal) {
  const LogConfig config = Parse(
      {{"ASCEND_GLOBAL_LOG_LEVEL", "2"}, {"ASCEND_MODULE_LOG_LEVEL", "RUNTIME=0:ASCENDCL=1"}});
  EXPECT_EQ(LevelOf(config, Module::kRuntime), 0);
  EXPECT_EQ(LevelOf(config, Module::kAscendCl), 1);
  EXPECT_EQ(LevelOf(config, Module::kDrv), 2);
  EXPECT_EQ(LevelOf(config, Module::kSim), 2);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(LogConfigTest, ModuleLevelAcceptsCannModulesAclsimDoesNotUse) {
  const LogConfig config = Parse({{"ASCEND_MODULE_LOG_LEVEL", "TBE=0:HCCL=1:SIM=4:FE=2"}});
  EXPECT_TRUE(config.warnings.empty());
  EXPECT_EQ(LevelOf(config, Module::kTbe), 0);
  EXPECT_EQ(LevelOf(config, Module::kSim), 4);
  EXPECT_EQ(LevelOf(config, Module::kRuntime), 3);
}

TEST(LogConfigTest, MalformedModuleLevelIsIgnoredAsAWholeWithWarning) {
  // CANN: a format error or an unsupported module name makes the whole value ineffective.
  for (const char* bad : {"RUNTIME=0:FOO=1", "RUNTIME=0:ASCENDCL", "RUNTIME=0:ASCENDCL=5",
                          "RUNTIME=0;ASCENDCL=1", "RUNTIME = 0", "=1", "RUNTIME=0:", "runtime=0"}) {
    const LogConfig config =
        Parse({{"ASCEND_GLOBAL_LOG_LEVEL", "2"}, {"ASCEND_MODULE_LOG_LEVEL", bad}});
    EXPECT_EQ(LevelOf(config, Module::kRuntime), 2) << bad;
    EXPECT_EQ(LevelOf(config, Module::kAscendCl), 2) << bad;
    ASSERT_EQ(config.warnings.size(), 1u) << bad;
    EXPECT_NE(config.warnings[0].find("ASCEND_MODULE_LOG_LEVEL"), std::string::npos);
  }
}

TEST(LogConfigTest, LaterModuleEntryWins) {
  const LogConfig config = Parse({{"ASCEND_MODULE_LOG_LEVEL", "DRV=0:DRV=2"}});
  EXPECT_EQ(LevelOf(config, Module::kDrv), 2);
}

TEST(LogConfigTest, EventSwitch) {
  EXPECT_FALSE(Parse({{"ASCEND_GLOBAL_EVENT_ENABLE", "0"}}).event_enabled);
  EXPECT_TRUE(Parse({{"ASCEND_GLOBAL_EVENT_ENABLE", "1"}}).event_enabled);
  const LogConfig invalid = Parse({{"ASCEND_GLOBAL_EVENT_ENABLE", "yes"}});
  EXPECT_TRUE(invalid.event_enabled);
  EXPECT_EQ(invalid.warnings.size(), 1u);
}

TEST(LogConfigTest, PrintToStdoutNewVariableWinsWhenSet) {
  EXPECT_TRUE(Parse({{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"}}).print_to_stdout);
  EXPECT_TRUE(Parse({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}}).print_to_stdout);
  EXPECT_FALSE(Parse({{"ASCEND_LOG_PRINT_TO_STDOUT", "0"}, {"ASCEND_SLOG_PRINT_TO_STDOUT", "1"}})
                   .print_to_stdout);
  EXPECT_TRUE(Parse({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}, {"ASCEND_SLOG_PRINT_TO_STDOUT", "0"}})
                  .print_to_stdout);
  EXPECT_FALSE(Parse({{"ASCEND_SLOG_PRINT_TO_STDOUT", "2"}}).print_to_stdout);
}

TEST(LogConfigTest, LogRootPrecedence) {
  EXPECT_EQ(Parse({{"ASCEND_PROCESS_LOG_PATH", "/p"}, {"ASCEND_WORK_PATH", "/w"}, {"HOME", "/h"}})
                .root_dir,
            "/p");
  EXPECT_EQ(Parse({{"ASCEND_WORK_PATH", "/w"}, {"HOME", "/h"}}).root_dir, "/w/log");
  EXPECT_EQ(Parse({{"ASCEND_PROCESS_LOG_PATH", ""}, {"HOME", "/h"}}).root_dir, "/h/ascend/log");
}

TEST(LogConfigTest, HostLogFileNumRange) {
  EXPECT_EQ(Parse({{"ASCEND_HOST_LOG_FILE_NUM", "1"}}).host_log_file_num, 1);
  EXPECT_EQ(Parse({{"ASCEND_HOST_LOG_FILE_NUM", "1000"}}).host_log_file_num, 1000);
  for (const char* bad : {"0", "1001", "abc", "-3"}) {
    const LogConfig config = Parse({{"ASCEND_HOST_LOG_FILE_NUM", bad}});
    EXPECT_EQ(config.host_log_file_num, 10) << bad;
    EXPECT_EQ(config.warnings.size(), 1u) << bad;
  }
}

TEST(LogConfigTest, SyncSave) {
  EXPECT_TRUE(Parse({{"ASCEND_LOG_SYNC_SAVE", "1"}}).sync_save);
  EXPECT_FALSE(Parse({{"ASCEND_LOG_SYNC_SAVE", "0"}}).sync_save);
}

TEST(LogConfigTest, ModuleNamesRoundTrip) {
  for (int i = 0; i < kModuleCount; ++i) {
    const auto module = static_cast<Module>(i);
    EXPECT_EQ(ModuleFromName(ModuleName(module)), module);
  }
  EXPECT_FALSE(ModuleFromName("HCCL").has_value());
  EXPECT_TRUE(IsKnownModuleName("HCCL"));
  EXPECT_FALSE(IsKnownModuleName("NOPE"));
}

}  // namespace
}  // namespace aclsim::dfx
