// sim_model_bench: the simulator's performance-model figures (issue 3), each printed next to
// its target, and written as JSON (argv[1], default sim_model_bench.json).
//
// Every figure is simulated time on the default profile (Ascend910B2) through the driver
// interface of the sim backend, so the output is identical on every host.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/figures.h"
#include "driver/registry.h"
#include "ops/work_builders.h"
#include "sim/cost_model.h"
#include "sim/register.h"
#include "sim/sim_device.h"
#include "sim/soc_profile.h"

namespace {

using aclsim::driver::CopyDir;
using aclsim::driver::Device;
using aclsim::driver::DtypeClass;
using aclsim::driver::MemPool;
using aclsim::driver::PageSize;
using aclsim::driver::QueueId;
using aclsim::driver::Task;
using aclsim::driver::TaskKind;

aclsim::bench::Figures g_figures;

void Report(const std::string& name, double value, const std::string& unit,
            const std::string& target, bool pass) {
  g_figures.Report(name, value, unit, target, pass);
}

const aclsim::sim::CostParams& SocCost() {
  return aclsim::sim::FindSocProfile("Ascend910B2")->cost;
}

struct Machine {
  std::unique_ptr<aclsim::driver::Driver> driver;
  std::unique_ptr<Device> device;
};

Machine Open() {
  aclsim::driver::DriverRegistry registry;
  aclsim::sim::RegisterSimBackends(registry);
  Machine m;
  auto created = registry.Create("sim", {{"device_count", "1"}, {"hbm_bytes", "8589934592"}});
  if (!created.ok()) throw std::runtime_error(created.status().message());
  m.driver = std::move(created.value());
  if (!m.driver->OpenDevice(0, &m.device).ok()) throw std::runtime_error("OpenDevice failed");
  return m;
}

void Check(const aclsim::Status& status) {
  if (!status.ok()) throw std::runtime_error(status.message());
}

QueueId NewQueue(Device& d, uint32_t flags = 0) {
  QueueId q = 0;
  aclsim::driver::QueueConfig config;
  config.flags = flags;
  Check(d.CreateQueue(config, &q));
  return q;
}

void Submit(Device& d, QueueId q, Task t) {
  uint64_t id = 0;
  Check(d.Submit(q, std::move(t), &id));
}

Task CopyTask(void* dst, const void* src, size_t bytes, CopyDir dir) {
  Task t;
  t.kind = TaskKind::kMemcpy;
  t.dst = dst;
  t.src = src;
  t.bytes = bytes;
  t.dir = dir;
  return t;
}

Task EventTask(TaskKind kind, uint32_t event) {
  Task t;
  t.kind = kind;
  t.event = event;
  return t;
}

Task Gemm(uint64_t m, uint64_t n, uint64_t k, DtypeClass dtype = DtypeClass::kFp16) {
  Task t;
  t.kind = TaskKind::kKernel;
  t.work = aclsim::ops::MatmulWork(m, n, k, dtype, &t.blocks);
  t.label = "MatMul";
  return t;
}

Task Add(uint64_t tensor_bytes, const Device& d) {
  Task t;
  t.kind = TaskKind::kKernel;
  t.engine = aclsim::driver::Engine::kAiVector;
  t.blocks = d.props().vector_core_num;
  t.work = aclsim::ops::ElementwiseWork(tensor_bytes / 2, 2, DtypeClass::kFp16, t.blocks,
                                        d.props().ub_bytes);
  t.label = "Add";
  return t;
}

// Simulated ns from submission to completion of one task on an idle device.
uint64_t TimeAlone(Task t) {
  Machine m = Open();
  QueueId q = NewQueue(*m.device);
  const uint64_t t0 = m.device->HostClockNs();
  Submit(*m.device, q, std::move(t));
  Check(m.device->SyncQueue(q, -1));
  return m.device->HostClockNs() - t0;
}

void CopyComputeOverlap() {
  constexpr int kBatches = 8;
  constexpr size_t kBatch = 8u << 20;
  Machine m = Open();
  Device& d = *m.device;
  void* buf = nullptr;
  Check(d.AllocPhysical(MemPool::kHbm, PageSize::k2M, kBatch, &buf));
  std::vector<uint8_t> host(kBatch);
  const QueueId qc = NewQueue(d), qk = NewQueue(d);
  std::vector<uint32_t> events(kBatches);
  for (auto& e : events) Check(d.CreateEvent(0, &e));
  const uint64_t t0 = d.HostClockNs();
  for (int i = 0; i < kBatches; ++i) {
    Submit(d, qc, CopyTask(buf, host.data(), kBatch, CopyDir::kHostToDevice));
    Submit(d, qc, EventTask(TaskKind::kEventRecord, events[i]));
    Submit(d, qk, EventTask(TaskKind::kEventWait, events[i]));
    Submit(d, qk, Gemm(4096, 4096, 2048));
  }
  Check(d.SyncDevice(-1));
  const double total = static_cast<double>(d.HostClockNs() - t0);
  const auto& soc = *aclsim::sim::FindSocProfile("Ascend910B2");
  const double copy = static_cast<double>(
      aclsim::sim::CostOf(CopyTask(buf, host.data(), kBatch, CopyDir::kHostToDevice),
                          {{{kBatch, PageSize::k2M}}}, d.props(), soc.cost)
          .duration_ns);
  const double compute = static_cast<double>(
      aclsim::sim::CostOf(Gemm(4096, 4096, 2048), {}, d.props(), soc.cost).duration_ns);
  const double max_model = kBatches * std::max(copy, compute) + std::min(copy, compute);
  Report("overlap: 8-batch pipeline / (N*max + min)", total / max_model, "x", "~1.0 (<= 1.1)",
         total / max_model <= 1.1);
  Report("overlap: 8-batch pipeline / (N*(copy+compute))", total / (kBatches * (copy + compute)),
         "x", "well below 1 (max, not sum)", total / (kBatches * (copy + compute)) < 0.75);
}

void SharingSlowdown() {
  auto run = [](bool with_copy) {
    Machine m = Open();
    Device& d = *m.device;
    constexpr size_t kCopy = 32u << 20;
    void* buf = nullptr;
    Check(d.AllocPhysical(MemPool::kHbm, PageSize::k2M, kCopy, &buf));
    std::vector<uint8_t> host(kCopy);
    const QueueId q1 = NewQueue(d), q2 = NewQueue(d);
    uint32_t done = 0;
    Check(d.CreateEvent(0, &done));
    if (with_copy) Submit(d, q1, CopyTask(buf, host.data(), kCopy, CopyDir::kHostToDevice));
    Submit(d, q2, Add(64u << 20, d));
    const uint64_t start = d.HostClockNs();
    Submit(d, q2, EventTask(TaskKind::kEventRecord, done));
    Check(d.SyncDevice(-1));
    return d.QueryEvent(done).timestamp_ns - SocCost().event_cost_ns - start;
  };
  const double alone = static_cast<double>(run(false));
  const double shared = static_cast<double>(run(true));
  const double pct = 100.0 * (shared / alone - 1.0);
  Report("sharing: 64 MiB add during 32 MiB H2D, slowdown", pct, "%", "15-25 %",
         pct >= 15 && pct <= 25);
}

void TlbByPageSize() {
  const char* names[] = {"4 KB", "2 MB", "1 GB"};
  const PageSize pages[] = {PageSize::k4K, PageSize::k2M, PageSize::k1G};
  const char* targets[] = {"~15 /1000", "~2 /1000", "<= 2 /1000"};
  double times[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    Machine m = Open();
    Device& d = *m.device;
    constexpr uint64_t kBytes = 16ull << 20;
    Task add = Add(kBytes, d);
    for (int b = 0; b < 3; ++b) {
      void* p = nullptr;
      Check(d.AllocPhysical(MemPool::kHbm, pages[i], kBytes, &p));
      add.work.buffers.push_back({p, kBytes});
    }
    const QueueId q = NewQueue(d);
    const uint64_t t0 = d.HostClockNs();
    Submit(d, q, std::move(add));
    Check(d.SyncQueue(q, -1));
    times[i] = static_cast<double>(d.HostClockNs() - t0);
    const auto tlb = static_cast<aclsim::sim::SimDevice&>(d).TlbTotals();
    const size_t k = static_cast<size_t>(pages[i]);
    const double rate =
        1000.0 * static_cast<double>(tlb.misses[k]) / static_cast<double>(tlb.accesses[k]);
    const bool pass = i == 0 ? rate > 10 && rate < 20 : rate >= 1 && rate <= 3;
    Report(fmt::format("tlb: streaming add, misses per 1000 accesses, {}", names[i]), rate, "",
           targets[i], pass);
  }
  Report("tlb: 16 MiB add time, 4 KB pages / 2 MB pages", times[0] / times[1], "x", "> 1 (visible)",
         times[0] > times[1]);
}

void PersistentStreams() {
  auto loop = [](uint32_t flags) {
    Machine m = Open();
    const uint64_t t0 = m.device->HostClockNs();
    for (int i = 0; i < 1000; ++i) {
      const QueueId q = NewQueue(*m.device, flags);
      Check(m.device->DestroyQueue(q, false));
    }
    return static_cast<double>(m.device->HostClockNs() - t0);
  };
  const double plain = loop(0);
  const double persistent = loop(aclsim::driver::kQueueFlagPersistent);
  const double saving = 100.0 * (1.0 - persistent / plain);
  Report("streams: create+destroy x1000, persistent saving", saving, "%", ">= 80 %", saving >= 80);
}

void GemmEfficiency() {
  const double peak = 353.9;  // TFLOPS, 24 x 4096 MAC x 2 x 1.8 GHz
  for (uint64_t n : {256, 512, 1024, 2048, 4096, 8192}) {
    const double ns = static_cast<double>(TimeAlone(Gemm(n, n, n))) -
                      static_cast<double>(SocCost().api_submit_cost_ns);
    const double tflops = 2.0 * n * n * n / ns / 1e3;
    const bool headline = n == 4096;
    Report(fmt::format("gemm: {}^3 fp16, % of cube peak ({:.1f} TFLOPS)", n, tflops),
           100 * tflops / peak, "%", headline ? "80-95 %" : "(rises with size)",
           headline ? tflops >= 0.8 * peak && tflops <= 0.95 * peak : true);
  }
  const double ns = static_cast<double>(TimeAlone(Gemm(4096, 4096, 4096, DtypeClass::kInt8))) -
                    static_cast<double>(SocCost().api_submit_cost_ns);
  Report("gemm: 4096^3 int8, % of int8 peak (707.8 TOPS)",
         100 * 2.0 * 4096 * 4096 * 4096 / ns / 1e3 / 707.8, "%", "(informative)", true);
}

void ElementwiseBandwidth() {
  Machine m = Open();
  const uint64_t tensor = 64ull << 20;
  const double ns = static_cast<double>(TimeAlone(Add(tensor, *m.device))) -
                    static_cast<double>(SocCost().api_submit_cost_ns);
  const auto& soc = *aclsim::sim::FindSocProfile("Ascend910B2");
  const double bound =
      static_cast<double>(aclsim::sim::TransferNs(3 * tensor, soc.cost.hbm_bytes_per_s));
  Report("elementwise: 64 MiB fp16 add / (3 x 64 MiB over GM bw)", ns / bound, "x", "1.00-1.10",
         ns >= bound && ns <= 1.1 * bound);
}

}  // namespace

int main(int argc, char** argv) {
  fmt::print("aclsim performance model, Ascend910B2 (simulated time)\n");
  try {
    CopyComputeOverlap();
    SharingSlowdown();
    TlbByPageSize();
    PersistentStreams();
    GemmEfficiency();
    ElementwiseBandwidth();
  } catch (const std::exception& e) {
    fmt::print(stderr, "sim_model_bench: {}\n", e.what());
    return 1;
  }
  const char* path = argc > 1 ? argv[1] : "sim_model_bench.json";
  g_figures.WriteJson(path, "soc", "Ascend910B2");
  return g_figures.AllPass() ? 0 : 1;
}
