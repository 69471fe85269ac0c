// Stream resources: the hardware stream-id pool, creation costs on the host clock and the
// ACL_STREAM_PERSISTENT cache.
#include <gtest/gtest.h>

#include <vector>

#include "sim/soc_profile.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using namespace aclsim::sim::testing;

driver::QueueConfig Persistent() {
  driver::QueueConfig config;
  config.flags = driver::kQueueFlagPersistent;
  return config;
}

TEST(SimStreamTest, CreatingAndDestroyingAStreamChargesTheHostClock) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  QueueId q = 0;
  ASSERT_OK(device->CreateQueue({}, &q));
  EXPECT_EQ(device->HostClockNs(), Cost().stream_create_cost_ns);
  ASSERT_OK(device->DestroyQueue(q, false));
  EXPECT_EQ(device->HostClockNs(), Cost().stream_create_cost_ns + Cost().stream_destroy_cost_ns);
}

// Simulated host time of `n` create/destroy pairs with the given config.
uint64_t CreateDestroyLoop(const driver::QueueConfig& config, int n) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  const uint64_t t0 = device->HostClockNs();
  for (int i = 0; i < n; ++i) {
    QueueId q = 0;
    EXPECT_OK(device->CreateQueue(config, &q));
    EXPECT_OK(device->DestroyQueue(q, false));
  }
  return device->HostClockNs() - t0;
}

TEST(SimStreamTest, PersistentStreamsCostAtLeast80PercentLessInALoop) {
  const uint64_t plain = CreateDestroyLoop({}, 100);
  const uint64_t persistent = CreateDestroyLoop(Persistent(), 100);
  EXPECT_EQ(plain, 100 * (Cost().stream_create_cost_ns + Cost().stream_destroy_cost_ns));
  EXPECT_LE(persistent * 5, plain);  // >= 80% less
}

TEST(SimStreamTest, PersistentStreamReusesItsCachedHardwareId) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  QueueId a = 0, b = 0, c = 0;
  ASSERT_OK(device->CreateQueue(Persistent(), &a));
  ASSERT_OK(device->DestroyQueue(a, false));  // id a goes to the cache, not the free pool
  ASSERT_OK(device->CreateQueue({}, &b));
  EXPECT_NE(b, a);
  ASSERT_OK(device->CreateQueue(Persistent(), &c));
  EXPECT_EQ(c, a);
}

TEST(SimStreamTest, CachedStreamsCountTowardTheLimitUntilReclaimed) {
  auto driver = MakeBackend("sim", {{"soc", "Ascend310P3"}});
  auto device = Open(*driver);
  const uint32_t limit = device->props().max_streams;
  ASSERT_EQ(limit, 1024u);
  std::vector<QueueId> queues(limit);
  for (auto& q : queues) ASSERT_OK(device->CreateQueue(Persistent(), &q));
  QueueId extra = 0;
  Status status = device->CreateQueue({}, &extra);
  EXPECT_EQ(status.code(), StatusCode::kNoStreamResource);
  EXPECT_NE(status.message().find("1024"), std::string::npos) << status.message();
  for (auto q : queues) ASSERT_OK(device->DestroyQueue(q, false));  // all cached
  // A plain create reclaims a cached id (full cost); the total stays within the limit.
  const uint64_t t0 = device->HostClockNs();
  ASSERT_OK(device->CreateQueue({}, &extra));
  EXPECT_EQ(device->HostClockNs() - t0, FindSocProfile("Ascend310P3")->cost.stream_create_cost_ns);
  for (uint32_t i = 1; i < limit; ++i) ASSERT_OK(device->CreateQueue(Persistent(), &queues[i]));
  EXPECT_EQ(device->CreateQueue(Persistent(), &extra).code(), StatusCode::kNoStreamResource);
}

}  // namespace
}  // namespace aclsim::sim
