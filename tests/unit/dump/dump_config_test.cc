// The "dump" key of a configuration (src/core/data_dump.h): accepted forms, refusals with
// their messages, dump_step ranges and the model / node selection.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/data_dump.h"

namespace {

namespace core = aclsim::core;
using aclsim::StatusCode;

core::DumpConfig Parse(const std::string& text) {
  auto config = core::ParseDumpConfig(text, "test.json");
  EXPECT_TRUE(config.ok()) << config.status().message();
  if (!config.ok() || !config.value()) return {};
  return *config.value();
}

void ExpectInvalid(const std::string& text, const std::string& words) {
  auto config = core::ParseDumpConfig(text, "test.json");
  ASSERT_FALSE(config.ok()) << text;
  EXPECT_EQ(config.status().code(), StatusCode::kInvalidDumpConfig) << text;
  EXPECT_NE(config.status().message().find(words), std::string::npos) << config.status().message();
  EXPECT_NE(config.status().message().find("test.json"), std::string::npos);
}

TEST(DumpConfigTest, ReadsCannsKeys) {
  const core::DumpConfig config = Parse(R"({"dump": {
      "dump_path": "/out", "dump_mode": "all", "dump_op_switch": "on", "dump_step": "0|2-4",
      "dump_data": "stats", "dump_level": "op",
      "dump_list": [{"model_name": "net", "layer": ["a", "b"]}, {"model_name": "other"}]}})");
  EXPECT_EQ(config.path, "/out");
  EXPECT_EQ(config.mode, core::DumpMode::kAll);
  EXPECT_TRUE(config.op_switch);
  EXPECT_TRUE(config.stats);
  EXPECT_FALSE(config.exception);
  ASSERT_EQ(config.models.size(), 2u);
  EXPECT_EQ(config.models[0].model_name, "net");
  EXPECT_EQ(config.models[0].layers, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(config.models[1].layers.empty());
  ASSERT_EQ(config.steps.size(), 2u);
  EXPECT_EQ(config.steps[1], (std::pair<uint64_t, uint64_t>{2, 4}));
}

TEST(DumpConfigTest, DefaultsAreOutputTensorsAndNoSingleOps) {
  const core::DumpConfig config =
      Parse(R"({"dump": {"dump_path": "out", "dump_list": [{"model_name": "m"}]}})");
  EXPECT_EQ(config.mode, core::DumpMode::kOutput);
  EXPECT_FALSE(config.op_switch);
  EXPECT_FALSE(config.stats);
  EXPECT_TRUE(config.steps.empty());
}

TEST(DumpConfigTest, NoDumpKeyIsNotAnError) {
  auto config = core::ParseDumpConfig(R"({"profiler": {}})", "x");
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config.value().has_value());
}

TEST(DumpConfigTest, ExceptionScenesNeedNoPathOrList) {
  EXPECT_TRUE(Parse(R"({"dump": {"dump_scene": "lite_exception"}})").exception);
  EXPECT_TRUE(Parse(R"({"dump": {"dump_scene": "aic_err_norm_dump"}})").exception);
  EXPECT_FALSE(Parse(R"({"dump": {"dump_scene": "lite_exception:disable"}})").exception);
}

TEST(DumpConfigTest, RefusesMalformedValuesNamingTheKey) {
  ExpectInvalid("not json", "not valid JSON");
  ExpectInvalid(R"({"dump": 3})", "\"dump\" must be an object");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [], "dump_mode": "both"}})",
                "\"dump_mode\" must be one of");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [], "dump_op_switch": 1}})",
                "\"dump_op_switch\"");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": {}}})", "must be an array");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [3]}})", "dump_list[0]");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [{"layer": "a"}]}})",
                "layer must be an array");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [], "dump_step": "1-"}})",
                "dump_step");
  ExpectInvalid(R"({"dump": {"dump_path": "/o"}})", "\"dump_list\" is required");
  ExpectInvalid(R"({"dump": {"dump_list": [{"model_name": "m"}]}})", "\"dump_path\" is required");
  ExpectInvalid(R"({"dump": {"dump_path": "/o", "dump_list": [], "dump_debug": "on"}})",
                "overflow dump");
  ExpectInvalid(R"({"dump": {"dump_scene": "watcher"}})", "not supported");
  ExpectInvalid(
      R"({"dump": {"dump_scene": "lite_exception", "dump_path": "/o", "dump_op_switch": "on",
          "dump_list": []}})",
      "cannot be combined");
}

TEST(DumpConfigTest, StepsAreValuesAndRangesSeparatedByBars) {
  auto steps = core::ParseDumpSteps("0|5|10-20");
  ASSERT_TRUE(steps.ok());
  ASSERT_EQ(steps->size(), 3u);
  EXPECT_EQ((*steps)[2], (std::pair<uint64_t, uint64_t>{10, 20}));
  for (const char* bad : {"", "|", "a", "3-1", "1--2", "1|", "-1", "1 2"}) {
    EXPECT_FALSE(core::ParseDumpSteps(bad).ok()) << bad;
  }
  core::DumpConfig config;
  config.steps = *steps;
  core::DumpSession session(config, "/x", std::make_shared<std::atomic<bool>>(true));
  EXPECT_TRUE(session.StepSelected(0));
  EXPECT_FALSE(session.StepSelected(1));
  EXPECT_TRUE(session.StepSelected(15));
  EXPECT_FALSE(session.StepSelected(21));
}

TEST(DumpConfigTest, ModelPlansFollowTheListAndFinalizeEndsThem) {
  const std::string dir = ::testing::TempDir() + "/dump_config_test_plans";
  const std::string file = dir + ".json";
  {
    std::ofstream out(file);
    out << R"({"dump": {"dump_path": ")" << dir
        << R"(", "dump_list": [{"model_name": "net", "layer": ["a"]},
                               {"layer": ["shared"]}, {"model_name": "all"}, {}]}})";
  }
  unsetenv("NPU_COLLECT_PATH");  // the exception dump would target single ops too
  core::DataDump state;
  EXPECT_EQ(state.Set(file.c_str()).code(), StatusCode::kDumpNotRun);
  ASSERT_TRUE(state.Init().ok());
  EXPECT_EQ(state.Init().code(), StatusCode::kDumpAlreadyRun);
  EXPECT_EQ(state.PlanForModel("net"), nullptr);  // nothing set yet
  ASSERT_TRUE(state.Set(file.c_str()).ok());
  auto net = state.PlanForModel("net");
  ASSERT_NE(net, nullptr);
  EXPECT_TRUE(net->Selects("a"));
  EXPECT_TRUE(net->Selects("shared"));
  EXPECT_FALSE(net->Selects("b"));
  auto all = state.PlanForModel("all");
  ASSERT_NE(all, nullptr);
  EXPECT_TRUE(all->Selects("anything"));
  auto other = state.PlanForModel("other");  // only the name-less layer entry applies
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(other->Selects("shared"));
  EXPECT_FALSE(other->Selects("a"));
  EXPECT_EQ(state.SingleOpTarget(), nullptr);  // dump_op_switch is off
  EXPECT_TRUE(net->session->alive());
  ASSERT_TRUE(state.Finalize().ok());
  EXPECT_FALSE(net->session->alive());
  EXPECT_EQ(state.Finalize().code(), StatusCode::kDumpNotRun);
  EXPECT_EQ(state.PlanForModel("net"), nullptr);
  std::remove(file.c_str());
}

}  // namespace
