// Determinism: a multi-stream workload gives exactly the same simulated timeline with 1 and 4
// worker threads, inline, and while other host threads keep the CPUs busy.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "ops/work_builders.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

// Four streams of copies, GEMMs, memory-bound adds, AI CPU work and host functions, linked
// by events; returns every event timestamp and the host clock at each synchronisation.
std::vector<uint64_t> RunWorkload(const std::string& backend, const std::string& workers,
                                  bool perturb) {
  auto driver = MakeBackend(backend, {{"workers", workers}});
  auto device = Open(*driver);
  constexpr size_t kBytes = 4u << 20;
  std::vector<void*> bufs(4);
  for (size_t i = 0; i < bufs.size(); ++i) {
    EXPECT_OK(device->AllocPhysical(MemPool::kHbm, i % 2 ? PageSize::k4K : PageSize::k2M, kBytes,
                                    &bufs[i]));
  }
  std::vector<uint8_t> host_in(kBytes, 3), host_out(kBytes);
  std::vector<QueueId> q;
  for (int i = 0; i < 4; ++i) q.push_back(NewQueue(*device));
  std::vector<driver::EventId> ev;
  for (int i = 0; i < 12; ++i) ev.push_back(NewEvent(*device));
  auto gemm = [](uint64_t n) {
    uint32_t blocks = 0;
    Task t = Kernel(1, 0, 0, {}, "gemm");
    t.work = ops::MatmulWork(n, n, n, driver::DtypeClass::kFp16, &blocks);
    t.blocks = blocks;
    return t;
  };
  auto add = [&](void* a, void* b) {
    Task t = Kernel(40, 0, 0, {}, "add");
    t.engine = driver::Engine::kAiVector;
    t.work = ops::ElementwiseWork(kBytes / 2, 2, driver::DtypeClass::kFp16, 40,
                                  device->props().ub_bytes);
    t.work.buffers = {{a, kBytes}, {b, kBytes}};
    return t;
  };
  auto jitter = [perturb](int ms) {
    return HostFunc([perturb, ms] {
      if (perturb) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    });
  };
  std::vector<uint64_t> out;
  for (int round = 0; round < 3; ++round) {
    const int e = round * 4;
    // bufs[0] is rewritten only after the previous round's q[3] has read it.
    if (round > 0) SubmitOk(*device, q[0], EventTask(TaskKind::kEventWait, ev[e - 1]));
    SubmitOk(*device, q[0], Copy(bufs[0], host_in.data(), kBytes, CopyDir::kHostToDevice));
    SubmitOk(*device, q[0], EventTask(TaskKind::kEventRecord, ev[e]));
    SubmitOk(*device, q[1], EventTask(TaskKind::kEventWait, ev[e]));
    SubmitOk(*device, q[1], gemm(1024 + 512 * round));
    SubmitOk(*device, q[1], jitter(3));
    SubmitOk(*device, q[1], EventTask(TaskKind::kEventRecord, ev[e + 1]));
    SubmitOk(*device, q[2], add(bufs[1], bufs[2]));
    SubmitOk(*device, q[2], jitter(1));
    Task cpu = Kernel(3, 0, 0, {}, "aicpu");
    cpu.engine = driver::Engine::kAiCpu;
    cpu.work.aicpu_elements = 100'000;
    SubmitOk(*device, q[2], std::move(cpu));
    SubmitOk(*device, q[2], EventTask(TaskKind::kEventRecord, ev[e + 2]));
    SubmitOk(*device, q[3], EventTask(TaskKind::kEventWait, ev[e + 1]));
    SubmitOk(*device, q[3], EventTask(TaskKind::kEventWait, ev[e + 2]));
    SubmitOk(*device, q[3], Copy(bufs[3], bufs[0], kBytes, CopyDir::kDeviceToDevice));
    SubmitOk(*device, q[3], Copy(host_out.data(), bufs[3], kBytes, CopyDir::kDeviceToHost));
    SubmitOk(*device, q[3], EventTask(TaskKind::kEventRecord, ev[e + 3]));
    EXPECT_OK(device->SyncEvent(ev[e + 1], -1));
    out.push_back(device->HostClockNs());
  }
  EXPECT_OK(device->SyncDevice(-1));
  out.push_back(device->HostClockNs());
  for (auto event : ev) out.push_back(device->QueryEvent(event).timestamp_ns);
  return out;
}

TEST(SimDeterminismTest, SameTimelineWithOneAndFourWorkersInlineAndUnderHostLoad) {
  const std::vector<uint64_t> reference = RunWorkload("sim", "1", false);
  for (uint64_t t : reference) EXPECT_GT(t, 0u);
  EXPECT_EQ(RunWorkload("sim", "4", true), reference);
  EXPECT_EQ(RunWorkload("sim-inline", "1", true), reference);
  // Host load: busy threads spinning on every core while the workload runs.
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  const unsigned n = std::max(2u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) {
    spinners.emplace_back([&stop] {
      std::atomic<uint64_t> spins{0};
      while (!stop.load(std::memory_order_relaxed)) spins.fetch_add(1, std::memory_order_relaxed);
    });
  }
  const std::vector<uint64_t> loaded1 = RunWorkload("sim", "1", true);
  const std::vector<uint64_t> loaded4 = RunWorkload("sim", "4", true);
  stop = true;
  for (auto& t : spinners) t.join();
  EXPECT_EQ(loaded1, reference);
  EXPECT_EQ(loaded4, reference);
}

}  // namespace
}  // namespace aclsim::sim
