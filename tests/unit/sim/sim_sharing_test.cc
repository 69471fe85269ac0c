// Shared HBM bandwidth and copy/compute overlap, in simulated time.
#include <gtest/gtest.h>

#include <vector>

#include "ops/work_builders.h"
#include "sim/hbm_timeline.h"
#include "sim/kernel_cost.h"
#include "sim/soc_profile.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

const SocProfile& B2() { return *FindSocProfile("Ascend910B2"); }

TEST(SimHbmTimelineTest, ServesAtFullBandwidthWhenAlone) {
  HbmTimeline hbm(1'000'000'000);  // 1 GB/s: 1 byte per ns
  EXPECT_EQ(hbm.ServeNs(0, 1000), 1000u);
  hbm.Add(5000, 6000, 500'000'000);  // later interval does not matter
  EXPECT_EQ(hbm.ServeNs(0, 1000), 1000u);
}

TEST(SimHbmTimelineTest, OverlappingDemandSlowsALaterTask) {
  HbmTimeline hbm(1'000'000'000);
  hbm.Add(0, 10'000, 250'000'000);         // a quarter of the bandwidth for 10 us
  EXPECT_EQ(hbm.ServeNs(0, 1500), 2000u);  // at 0.75 B/ns
  // Partly overlapped: 3000 bytes = 4000 ns at 0.75 (3000 B) ... until 10 us, then full.
  EXPECT_EQ(hbm.ServeNs(8000, 3000), 2000u + 1500u);
  // Saturating users: at least a fair share.
  HbmTimeline full(1'000'000'000);
  full.Add(0, 100'000, 1'000'000'000);
  EXPECT_EQ(full.ServeNs(0, 1000), 2000u);
}

// Duration of a memory-bound 64 MiB add (simulated), optionally overlapped with a 32 MiB
// host-to-device copy submitted just before it on another queue.
uint64_t AddDuration(bool with_copy) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  constexpr size_t kCopy = 32u << 20;
  void* d = nullptr;
  EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, kCopy, &d));
  std::vector<uint8_t> host(with_copy ? kCopy : 0);
  QueueId q1 = NewQueue(*device);
  QueueId q2 = NewQueue(*device);
  driver::EventId done = NewEvent(*device);
  if (with_copy) SubmitOk(*device, q1, Copy(d, host.data(), kCopy, CopyDir::kHostToDevice));
  Task add = Kernel(48, 0, 0, {}, "add");
  add.engine = driver::Engine::kAiVector;
  add.work = ops::ElementwiseWork((64u << 20) / 2, 2, driver::DtypeClass::kFp16, 48,
                                  device->props().ub_bytes);
  SubmitOk(*device, q2, std::move(add));
  const uint64_t start = device->HostClockNs();  // the vector cores are free: starts here
  SubmitOk(*device, q2, EventTask(TaskKind::kEventRecord, done));
  EXPECT_OK(device->SyncDevice(-1));
  return device->QueryEvent(done).timestamp_ns - B2().cost.event_cost_ns - start;
}

TEST(SimSharingTest, MemoryBoundKernelOverlappedWithH2DCopyRuns15To25PercentLonger) {
  const uint64_t alone = AddDuration(false);
  const uint64_t shared = AddDuration(true);
  const double slowdown = static_cast<double>(shared) / static_cast<double>(alone) - 1.0;
  EXPECT_GE(slowdown, 0.15) << alone << " vs " << shared;
  EXPECT_LE(slowdown, 0.25) << alone << " vs " << shared;
}

TEST(SimSharingTest, ComputeBoundKernelIsBarelySlowedByACopy) {
  auto run = [](bool with_copy) {
    auto driver = MakeBackend("sim");
    auto device = Open(*driver);
    constexpr size_t kCopy = 8u << 20;
    void* d = nullptr;
    EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, kCopy, &d));
    std::vector<uint8_t> host(kCopy);
    QueueId q1 = NewQueue(*device);
    QueueId q2 = NewQueue(*device);
    if (with_copy) SubmitOk(*device, q1, Copy(d, host.data(), kCopy, CopyDir::kHostToDevice));
    uint32_t blocks = 0;
    Task gemm = Kernel(1, 0, 0, {}, "gemm");
    gemm.work = ops::MatmulWork(2048, 2048, 2048, driver::DtypeClass::kFp16, &blocks);
    gemm.blocks = blocks;
    const uint64_t t0 = device->HostClockNs();
    SubmitOk(*device, q2, std::move(gemm));
    EXPECT_OK(device->SyncQueue(q2, -1));
    const uint64_t elapsed = device->HostClockNs() - t0;
    EXPECT_OK(device->SyncDevice(-1));  // the copy reads `host`: finish it before it goes
    return elapsed;
  };
  const uint64_t alone = run(false);
  EXPECT_LE(run(true), alone + alone / 100);
}

// A two-stream pipeline: batch i is copied on q_copy, then computed on q_compute after an
// event; returns {total, copy alone, compute alone}.
struct PipelineTimes {
  uint64_t total, copy, compute;
};
PipelineTimes RunPipeline(int batches) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  constexpr size_t kBatch = 8u << 20;
  void* d = nullptr;
  EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBatch, &d));
  std::vector<uint8_t> host(kBatch);
  QueueId qc = NewQueue(*device);
  QueueId qk = NewQueue(*device);
  std::vector<driver::EventId> events;
  for (int i = 0; i < batches; ++i) events.push_back(NewEvent(*device));
  auto gemm = [] {
    uint32_t blocks = 0;
    Task t = Kernel(1, 0, 0, {}, "gemm");
    t.work = ops::MatmulWork(4096, 4096, 2048, driver::DtypeClass::kFp16, &blocks);
    t.blocks = blocks;
    return t;
  };
  const uint64_t t0 = device->HostClockNs();
  for (int i = 0; i < batches; ++i) {
    SubmitOk(*device, qc, Copy(d, host.data(), kBatch, CopyDir::kHostToDevice));
    SubmitOk(*device, qc, EventTask(TaskKind::kEventRecord, events[i]));
    SubmitOk(*device, qk, EventTask(TaskKind::kEventWait, events[i]));
    SubmitOk(*device, qk, gemm());
  }
  EXPECT_OK(device->SyncDevice(-1));
  PipelineTimes times{device->HostClockNs() - t0, 0, 0};
  const TaskCost copy = CostOf(Copy(d, host.data(), kBatch, CopyDir::kHostToDevice),
                               {{{kBatch, PageSize::k2M}}}, device->props(), B2().cost);
  times.copy = copy.duration_ns;
  times.compute = CostOf(gemm(), {}, device->props(), B2().cost).duration_ns;
  return times;
}

TEST(SimSharingTest, CopyComputeOverlapTakesAboutTheMaxNotTheSum) {
  constexpr int kBatches = 8;
  const PipelineTimes t = RunPipeline(kBatches);
  const uint64_t slow = std::max(t.copy, t.compute);
  const uint64_t fast = std::min(t.copy, t.compute);
  const uint64_t ideal = kBatches * slow + fast;
  EXPECT_GE(t.total, kBatches * slow);
  EXPECT_LE(t.total, ideal + ideal / 10);
  EXPECT_LT(t.total, kBatches * (t.copy + t.compute) * 3 / 4);
}

}  // namespace
}  // namespace aclsim::sim
