// SoC profiles: every profile loads, every number has a source, and bad data is rejected.
#include <gtest/gtest.h>

#include <set>

#include "ops/soc_targets.h"
#include "sim/soc_profile.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

TEST(SimProfileTest, EveryEmbeddedProfileLoads) {
  Status status = SocProfileLoadStatus();
  ASSERT_TRUE(status.ok()) << status.message();
  std::set<std::string> names;
  for (const auto& name : SocNames()) names.insert(name);
  for (const char* expected :
       {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910A", "Ascend310",
        "Ascend310B1", "Ascend310B2", "Ascend310B3", "Ascend310B4", "Ascend310P3", "Ascend950PR"}) {
    EXPECT_TRUE(names.count(expected)) << expected;
    EXPECT_NE(FindSocProfile(expected), nullptr) << expected;
  }
  EXPECT_EQ(FindSocProfile("Ascend999"), nullptr);
}

// atc accepts for --soc_version exactly the SoCs the simulator has a profile of.
TEST(SimProfileTest, TheOpLibrarysTargetsAreTheProfiles) {
  EXPECT_EQ(ops::SocTargets(), SocNames());
  EXPECT_TRUE(ops::IsSocTarget("Ascend310"));
  EXPECT_FALSE(ops::IsSocTarget("Ascend999"));
  EXPECT_NE(ops::SocTargetList().find("Ascend310B1, "), std::string::npos);
}

TEST(SimProfileTest, EveryNumberHasASourceAndConfidence) {
  const size_t field_count = SocProfileFieldNames().size();
  for (const auto& name : SocNames()) {
    const SocProfile* profile = FindSocProfile(name);
    ASSERT_NE(profile, nullptr);
    EXPECT_EQ(profile->fields.size(), field_count) << name;
    EXPECT_EQ(profile->props.soc_name, name);
    EXPECT_FALSE(profile->summary.empty()) << name;
    for (const auto& field : profile->fields) {
      EXPECT_GT(field.source.size(), 10u) << name << "." << field.name;
      EXPECT_TRUE(field.confidence == "H" || field.confidence == "M" || field.confidence == "L")
          << name << "." << field.name;
    }
  }
}

TEST(SimProfileTest, Ascend910B2MatchesTheReferenceFacts) {
  const SocProfile* p = FindSocProfile("Ascend910B2");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->props.npu_arch, 2201u);
  EXPECT_EQ(p->props.aicore_num, 24u);
  EXPECT_EQ(p->props.vector_core_num, 48u);
  EXPECT_EQ(p->props.aicpu_num, 6u);
  EXPECT_EQ(p->props.clock_hz, 1'800'000'000u);
  EXPECT_EQ(p->props.l2_bytes, 192ull << 20);
  EXPECT_EQ(p->props.ub_bytes, 192ull << 10);
  EXPECT_EQ(p->props.hbm_bytes, 64ull << 30);
  EXPECT_EQ(p->props.ddr_bytes, 0u);
  EXPECT_EQ(p->props.max_streams, 1984u);
  EXPECT_EQ(p->props.max_events, 65536u);
  EXPECT_EQ(p->cost.pcie_h2d_bytes_per_s, 25'000'000'000u);
  EXPECT_EQ(p->cost.hbm_bytes_per_s, 24ull * 32 * 1'800'000'000);
}

TEST(SimProfileTest, StreamAndEventLimitsFollowTheSocClass) {
  EXPECT_EQ(FindSocProfile("Ascend910A")->props.max_streams, 2048u);
  EXPECT_EQ(FindSocProfile("Ascend910A")->props.max_events, 65535u);
  EXPECT_EQ(FindSocProfile("Ascend310P3")->props.max_streams, 1024u);
  EXPECT_EQ(FindSocProfile("Ascend310P3")->props.max_events, 1023u);
  EXPECT_EQ(FindSocProfile("Ascend950PR")->props.max_streams, 1984u);
  EXPECT_EQ(FindSocProfile("Ascend910B4")->props.hbm_bytes, 32ull << 30);
  EXPECT_EQ(FindSocProfile("Ascend910A")->props.vector_core_num, 0u);
}

std::string MinimalProfile(const std::string& extra_field, bool drop_source) {
  std::string fields;
  for (const auto& name : SocProfileFieldNames()) {
    if (!fields.empty()) fields += ",";
    fields += "\"" + name + "\": {\"value\": 1, " +
              (drop_source && name == "clock_hz" ? std::string() : "\"source\": \"unit test\", ") +
              "\"confidence\": \"L\"}";
  }
  if (!extra_field.empty()) fields += "," + extra_field;
  return "{\"soc_name\": \"TestSoc\", \"summary\": \"t\", \"fields\": {" + fields + "}}";
}

TEST(SimProfileTest, ParserAcceptsACompleteProfile) {
  Result<SocProfile> parsed = ParseSocProfile(MinimalProfile("", false), "test");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->name, "TestSoc");
  EXPECT_EQ(parsed->props.clock_hz, 1u);
}

TEST(SimProfileTest, ParserRejectsAMissingSource) {
  Result<SocProfile> parsed = ParseSocProfile(MinimalProfile("", true), "test");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("clock_hz"), std::string::npos);
}

TEST(SimProfileTest, ParserRejectsUnknownAndMissingFields) {
  Result<SocProfile> unknown = ParseSocProfile(
      MinimalProfile("\"clock_mhz\": {\"value\": 1, \"source\": \"x\", \"confidence\": \"L\"}",
                     false),
      "test");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("clock_mhz"), std::string::npos);

  Result<SocProfile> missing = ParseSocProfile(
      R"({"soc_name": "X", "fields": {"npu_arch": {"value": 1, "source": "s", "confidence": "H"}}})",
      "test");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing field"), std::string::npos);

  EXPECT_FALSE(ParseSocProfile("not json", "test").ok());
}

TEST(SimProfileTest, BackendRejectsAnUnknownSocListingTheKnownOnes) {
  driver::DriverRegistry registry;
  RegisterSimBackends(registry);
  auto created = registry.Create("sim", {{"soc", "Ascend123"}});
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kInvalidParam);
  EXPECT_NE(created.status().message().find("Ascend910B2"), std::string::npos);
  EXPECT_NE(created.status().message().find("Ascend310P3"), std::string::npos);
}

TEST(SimProfileTest, DevicePropsComeFromTheSelectedProfile) {
  auto driver = testing::MakeBackend("sim", {{"soc", "Ascend310P3"}, {"device_count", "2"}});
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->DeviceCount(), 2u);
  auto props = driver->Props(1);
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(props->soc_name, "Ascend310P3");
  EXPECT_EQ(props->aicore_num, 8u);
  EXPECT_EQ(props->hbm_bytes, 256u << 20);  // MakeBackend's hbm_bytes override
  EXPECT_EQ(driver->Props(2).status().code(), StatusCode::kInvalidDevice);
}

}  // namespace
}  // namespace aclsim::sim
