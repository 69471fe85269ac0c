// Simulated time: the cost model's numbers, engine overlap, event timestamps, host clocks and
// determinism (bit-identical schedules across fresh backends and across both backends).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "sim/cost_model.h"
#include "sim/soc_profile.h"
#include "sim/tlb_model.h"
#include "sim_test_util.h"

namespace aclsim::sim {
namespace {

using driver::MemPool;
using driver::PageSize;
using namespace aclsim::sim::testing;

// Exposed TLB time of one DMA streaming over `bytes` of device memory with `page` pages.
uint64_t DmaTlbNs(uint64_t bytes, PageSize page = PageSize::k2M) {
  const TlbCounts tlb = StreamingTlb({{bytes, page}}, bytes, Cost());
  return CyclesToNs(tlb.total_misses() * Cost().tlb_miss_penalty_cycles, Props().clock_hz);
}

// Host clock after synchronising one copy of `bytes` in `dir` on a fresh backend.
uint64_t TimeOneCopy(size_t bytes, CopyDir dir, const std::string& backend = "sim") {
  auto driver = MakeBackend(backend);
  auto device = Open(*driver);
  void* d = nullptr;
  EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, bytes, &d));
  std::vector<uint8_t> host(bytes);
  QueueId q = NewQueue(*device);
  const uint64_t t0 = device->HostClockNs();  // after the stream creation cost
  if (dir == CopyDir::kHostToDevice) {
    SubmitOk(*device, q, Copy(d, host.data(), bytes, dir));
  } else {
    SubmitOk(*device, q, Copy(host.data(), d, bytes, dir));
  }
  EXPECT_OK(device->SyncQueue(q, -1));
  return device->HostClockNs() - t0;
}

TEST(SimTimingTest, HostToDeviceCopyFollowsTheCostFormula) {
  const size_t bytes = 25'000'000;  // 1 ms at 25 GB/s
  const uint64_t expected = Cost().api_submit_cost_ns + Cost().launch_cost_ns +
                            Cost().dma_latency_ns + DmaTlbNs(bytes) + 1'000'000;
  EXPECT_EQ(TimeOneCopy(bytes, CopyDir::kHostToDevice), expected);
}

TEST(SimTimingTest, CopyingTwiceTheBytesTakesLonger) {
  const size_t bytes = 8 << 20;
  const uint64_t one = TimeOneCopy(bytes, CopyDir::kHostToDevice);
  const uint64_t two = TimeOneCopy(2 * bytes, CopyDir::kHostToDevice);
  EXPECT_GT(two, one);
  EXPECT_EQ(two - one, TransferNs(2 * bytes, Cost().pcie_h2d_bytes_per_s) -
                           TransferNs(bytes, Cost().pcie_h2d_bytes_per_s) + DmaTlbNs(2 * bytes) -
                           DmaTlbNs(bytes));
}

// Two copies of `bytes` on two queues; returns the device completion time.
uint64_t TimeTwoCopies(CopyDir first, CopyDir second, size_t bytes) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  void* d = nullptr;
  EXPECT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 2 * bytes, &d));
  std::vector<uint8_t> host(2 * bytes);
  auto submit = [&](QueueId q, CopyDir dir, size_t offset) {
    uint8_t* dev = static_cast<uint8_t*>(d) + offset;
    uint8_t* h = host.data() + offset;
    SubmitOk(*device, q,
             dir == CopyDir::kHostToDevice ? Copy(dev, h, bytes, dir) : Copy(h, dev, bytes, dir));
  };
  QueueId q1 = NewQueue(*device);
  QueueId q2 = NewQueue(*device);
  const uint64_t t0 = device->HostClockNs();
  submit(q1, first, 0);
  submit(q2, second, bytes);
  EXPECT_OK(device->SyncDevice(-1));
  return device->HostClockNs() - t0;
}

TEST(SimTimingTest, TwoQueuesOverlapOnDifferentDmaEngines) {
  const size_t bytes = 25'000'000;
  const uint64_t copy = Cost().launch_cost_ns + Cost().dma_latency_ns + DmaTlbNs(bytes) + 1'000'000;
  const uint64_t submit = Cost().api_submit_cost_ns;
  // H2D and D2H use different engines: the second starts when it is submitted.
  EXPECT_EQ(TimeTwoCopies(CopyDir::kHostToDevice, CopyDir::kDeviceToHost, bytes),
            2 * submit + copy);
  // Two H2D copies share the single H2D slot: the second waits for the first.
  EXPECT_EQ(TimeTwoCopies(CopyDir::kHostToDevice, CopyDir::kHostToDevice, bytes),
            submit + 2 * copy);
}

TEST(SimTimingTest, KernelsShareCoresByBlockCount) {
  auto run = [](uint32_t blocks) {
    auto driver = MakeBackend("sim");
    auto device = Open(*driver);
    QueueId q1 = NewQueue(*device);
    QueueId q2 = NewQueue(*device);
    const uint64_t t0 = device->HostClockNs();
    // 24 AI Cores at 8192 flops/cycle, 1.8 GHz: 1e9 flops per block-core ~ 67.8 us.
    const uint64_t flops = uint64_t{1'000'000'000} * blocks;
    SubmitOk(*device, q1, Kernel(blocks, flops, 0));
    SubmitOk(*device, q2, Kernel(blocks, flops, 0));
    EXPECT_OK(device->SyncDevice(-1));
    return device->HostClockNs() - t0;
  };
  // One block per core: ceil(1e9 / 8192) cycles at 1.8 GHz.
  const uint64_t kernel =
      Cost().launch_cost_ns + CyclesToNs((1'000'000'000 + 8191) / 8192, Props().clock_hz);
  const uint64_t submit = Cost().api_submit_cost_ns;
  EXPECT_EQ(run(12), 2 * submit + kernel);  // 12 + 12 cores: side by side
  EXPECT_EQ(run(24), submit + 2 * kernel);  // each needs all 24 cores: one after the other
}

TEST(SimTimingTest, EventTimestampIsTheRecordsSimulatedEnd) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  void* d = nullptr;
  ASSERT_OK(device->AllocPhysical(MemPool::kHbm, PageSize::k2M, 25'000'000, &d));
  std::vector<uint8_t> host(25'000'000);
  QueueId q = NewQueue(*device);
  driver::EventId event = NewEvent(*device);
  const uint64_t t0 = device->HostClockNs();
  SubmitOk(*device, q, Copy(d, host.data(), host.size(), CopyDir::kHostToDevice));
  SubmitOk(*device, q, EventTask(TaskKind::kEventRecord, event));
  ASSERT_OK(device->SyncEvent(event, -1));
  const uint64_t copy_end = t0 + Cost().api_submit_cost_ns + Cost().launch_cost_ns +
                            Cost().dma_latency_ns + DmaTlbNs(host.size()) + 1'000'000;
  EXPECT_EQ(device->QueryEvent(event).timestamp_ns, copy_end + Cost().event_cost_ns);
  EXPECT_EQ(device->HostClockNs(), copy_end + Cost().event_cost_ns);
}

TEST(SimTimingTest, EachHostThreadHasItsOwnClock) {
  auto driver = MakeBackend("sim");
  auto device = Open(*driver);
  QueueId q = NewQueue(*device);
  const uint64_t created = Cost().stream_create_cost_ns;
  EXPECT_EQ(device->HostClockNs(), created);
  SubmitOk(*device, q, HostFunc([] {}));
  EXPECT_EQ(device->HostClockNs(), created + Cost().api_submit_cost_ns);
  uint64_t other_thread = 1;
  std::thread([&] { other_thread = device->HostClockNs(); }).join();
  EXPECT_EQ(other_thread, 0u);
  device->AdvanceHostClock(1000);
  EXPECT_EQ(device->HostClockNs(), created + Cost().api_submit_cost_ns + 1000);
  // A fresh backend starts this thread at 0 again.
  auto fresh = MakeBackend("sim");
  auto fresh_device = Open(*fresh);
  EXPECT_EQ(fresh_device->HostClockNs(), 0u);
}

// A mixed program over two devices; returns every observable simulated time.
std::vector<uint64_t> RunMixedProgram(const std::string& backend) {
  auto driver = MakeBackend(backend, {{"device_count", "2"}});
  auto dev0 = Open(*driver, 0);
  auto dev1 = Open(*driver, 1);
  constexpr size_t kBytes = 3 << 20;
  void* a = nullptr;
  void* b = nullptr;
  void* c = nullptr;
  void* d = nullptr;
  EXPECT_OK(dev0->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBytes, &a));
  EXPECT_OK(dev0->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBytes, &b));
  EXPECT_OK(dev1->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBytes, &c));
  EXPECT_OK(dev1->AllocPhysical(MemPool::kHbm, PageSize::k2M, kBytes, &d));
  std::vector<uint8_t> host(kBytes, 1), out(kBytes);
  QueueId q0 = NewQueue(*dev0), q1 = NewQueue(*dev0), r0 = NewQueue(*dev1);
  driver::EventId e0 = NewEvent(*dev0), e1 = NewEvent(*dev0), f0 = NewEvent(*dev1);
  std::vector<uint64_t> times;
  // Wait before record, cross-device, kernels on several engines, copies, memset.
  SubmitOk(*dev0, q1, EventTask(TaskKind::kEventWait, e0));
  SubmitOk(*dev0, q0, Copy(a, host.data(), kBytes, CopyDir::kHostToDevice));
  SubmitOk(*dev0, q0, Kernel(8, 5'000'000'000, kBytes));
  SubmitOk(*dev0, q0, EventTask(TaskKind::kEventRecord, e0));
  SubmitOk(*dev0, q1, Copy(b, a, kBytes, CopyDir::kDeviceToDevice));
  Task vec = Kernel(40, 1'000'000'000, 2 * kBytes);
  vec.engine = driver::Engine::kAiVector;
  SubmitOk(*dev0, q1, vec);
  SubmitOk(*dev0, q1, EventTask(TaskKind::kEventRecord, e1));
  SubmitOk(*dev1, r0, EventTask(TaskKind::kEventWait, e1, 0));
  SubmitOk(*dev0, q0, EventTask(TaskKind::kEventWait, e1));
  SubmitOk(*dev0, q0, Copy(c, b, kBytes, CopyDir::kPeerToPeer));
  Task set;
  set.kind = TaskKind::kMemset;
  set.dst = d;
  set.bytes = kBytes;
  SubmitOk(*dev1, r0, set);
  Task cpu = Kernel(2, 1'000'000, 0);
  cpu.engine = driver::Engine::kAiCpu;
  SubmitOk(*dev1, r0, cpu);
  SubmitOk(*dev1, r0, HostFunc([] {}));
  SubmitOk(*dev1, r0, EventTask(TaskKind::kEventRecord, f0));
  SubmitOk(*dev0, q0, Copy(out.data(), b, kBytes, CopyDir::kDeviceToHost));
  EXPECT_OK(dev1->SyncEvent(f0, -1));
  times.push_back(dev1->HostClockNs());
  EXPECT_OK(dev0->SyncDevice(-1));
  times.push_back(dev0->HostClockNs());
  for (auto [dev, event] : {std::pair{dev0.get(), e0}, {dev0.get(), e1}, {dev1.get(), f0}}) {
    times.push_back(dev->QueryEvent(event).timestamp_ns);
  }
  return times;
}

TEST(SimTimingTest, FreshBackendsGiveIdenticalSchedules) {
  const auto first = RunMixedProgram("sim");
  const auto second = RunMixedProgram("sim");
  EXPECT_EQ(first, second);
  for (uint64_t t : first) EXPECT_GT(t, 0u);
}

TEST(SimTimingTest, InlineBackendGivesTheSameSimulatedTimes) {
  EXPECT_EQ(RunMixedProgram("sim-inline"), RunMixedProgram("sim"));
}

TEST(SimTimingTest, SimulatedTimeIgnoresHostFunctionWallTime) {
  auto run = [](bool slow) {
    auto driver = MakeBackend("sim");
    auto device = Open(*driver);
    QueueId q = NewQueue(*device);
    const uint64_t t0 = device->HostClockNs();
    SubmitOk(*device, q, HostFunc([slow] {
      if (slow) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }));
    EXPECT_OK(device->SyncQueue(q, -1));
    return device->HostClockNs() - t0;
  };
  EXPECT_EQ(run(true), run(false));
  EXPECT_EQ(run(false), Cost().api_submit_cost_ns + Cost().callback_cost_ns);
}

}  // namespace
}  // namespace aclsim::sim
