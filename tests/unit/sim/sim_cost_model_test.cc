// The kernel cost model (pure functions): roofline bound, monotonicity, pipes, waves, and
// the calibration figures of issue 3 (GEMM efficiency, elementwise bandwidth).
#include <gtest/gtest.h>

#include <vector>

#include "ops/work_builders.h"
#include "sim/cost_model.h"
#include "sim/kernel_cost.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {
namespace {

using driver::DtypeClass;
using driver::Engine;
using driver::KernelWork;
using driver::Task;
using driver::TaskKind;

const SocProfile& B2() { return *FindSocProfile("Ascend910B2"); }

Task KernelOf(Engine engine, uint32_t blocks, KernelWork work) {
  Task t;
  t.kind = TaskKind::kKernel;
  t.engine = engine;
  t.blocks = blocks;
  t.work = std::move(work);
  return t;
}

TaskCost Cost(const Task& t, const SocProfile& soc = B2()) {
  return CostOf(t, {}, soc.props, soc.cost);
}

// A spread of kernels: cube, int8, vector, memory-bound, mixed, AI CPU, legacy.
std::vector<Task> SampleKernels() {
  std::vector<Task> out;
  for (uint32_t blocks : {1u, 7u, 24u, 25u, 48u, 100u, 1000u}) {
    KernelWork cube;
    cube.cube_flops = 1ull << 34;
    cube.gm_read_bytes = 64ull << 20;
    cube.gm_to_l1_bytes = 256ull << 20;
    cube.l1_to_l0a_bytes = 128ull << 20;
    cube.l1_to_l0b_bytes = 128ull << 20;
    cube.pipeline_steps = 8;
    out.push_back(KernelOf(Engine::kAiCore, blocks, cube));
    KernelWork int8 = cube;
    int8.dtype = DtypeClass::kInt8;
    out.push_back(KernelOf(Engine::kAiCore, blocks, int8));
    KernelWork stream;
    stream.vector_flops = 1ull << 26;
    stream.gm_read_bytes = 256ull << 20;
    stream.gm_write_bytes = 128ull << 20;
    stream.double_buffered = false;
    out.push_back(KernelOf(Engine::kAiVector, blocks, stream));
    KernelWork cpu;
    cpu.aicpu_elements = 1 << 20;
    cpu.gm_read_bytes = 4 << 20;
    out.push_back(KernelOf(Engine::kAiCpu, blocks, cpu));
    Task legacy = KernelOf(Engine::kAiCore, blocks, {});
    legacy.flops = 5'000'000'000;
    legacy.bytes_moved = 3 << 20;
    out.push_back(legacy);
  }
  return out;
}

TEST(SimCostModelTest, EveryKernelIsAtLeastItsRooflineBound) {
  for (const char* soc : {"Ascend910B2", "Ascend910A", "Ascend310P3", "Ascend950PR"}) {
    const SocProfile& p = *FindSocProfile(soc);
    for (const Task& t : SampleKernels()) {
      const TaskCost c = Cost(t, p);
      const KernelEstimate e = EstimateKernel(t, p.props, p.cost);
      EXPECT_GT(e.roofline_ns, 0u);
      EXPECT_GE(c.duration_ns, p.cost.launch_cost_ns + e.roofline_ns) << soc;
      EXPECT_GE(c.duration_ns,
                p.cost.launch_cost_ns + TransferNs(e.gm_bytes, p.cost.hbm_bytes_per_s));
    }
  }
}

// The memo of recent estimates gives exactly EstimateKernel's result, also when more
// kernels than it has slots alternate and when kernels differ in one field only.
TEST(SimCostModelTest, EstimateMemoAgreesWithTheModel) {
  std::vector<Task> kernels = SampleKernels();
  const size_t sampled = kernels.size();
  for (size_t i = 0; i < sampled; ++i) {
    Task steps = kernels[i];
    steps.work.pipeline_steps += 3;  // a field the memo's hash does not mix
    kernels.push_back(steps);
    Task single = kernels[i];
    single.work.double_buffered = !single.work.double_buffered;
    kernels.push_back(single);
  }
  EstimateMemo memo;
  for (int round = 0; round < 3; ++round) {
    for (const Task& t : kernels) {
      const KernelEstimate want = EstimateKernel(t, B2().props, B2().cost);
      const KernelEstimate got = memo.Get(t, B2().props, B2().cost);
      EXPECT_EQ(got.engine, want.engine);
      EXPECT_EQ(got.cores, want.cores);
      EXPECT_EQ(got.waves, want.waves);
      EXPECT_EQ(got.block_cycles, want.block_cycles);
      EXPECT_EQ(got.core_ns, want.core_ns);
      EXPECT_EQ(got.gm_bytes, want.gm_bytes);
      EXPECT_EQ(got.roofline_ns, want.roofline_ns);
      EXPECT_EQ(got.traffic_bytes, want.traffic_bytes);
    }
  }
}

// With the memo, CostOf gives the same cost for every kernel and translation (the buffers'
// page sizes feed the TLB model), in any order.
TEST(SimCostModelTest, CostMemoAgreesWithTheModel) {
  TaskTranslation small_pages;
  small_pages.buffers = {{1u << 20, driver::PageSize::k4K}, {1u << 20, driver::PageSize::k4K}};
  TaskTranslation huge_pages;
  huge_pages.buffers = {{1u << 20, driver::PageSize::k2M}, {1u << 20, driver::PageSize::k2M}};
  EstimateMemo memo;
  for (int round = 0; round < 3; ++round) {
    for (const Task& t : SampleKernels()) {
      for (const TaskTranslation* tr : {&small_pages, &huge_pages, &huge_pages, &small_pages}) {
        const TaskCost want = CostOf(t, *tr, B2().props, B2().cost);
        const TaskCost got = CostOf(t, *tr, B2().props, B2().cost, &memo);
        EXPECT_EQ(got.engine, want.engine);
        EXPECT_EQ(got.slots, want.slots);
        EXPECT_EQ(got.fixed_ns, want.fixed_ns);
        EXPECT_EQ(got.core_ns, want.core_ns);
        EXPECT_EQ(got.duration_ns, want.duration_ns);
        EXPECT_EQ(got.hbm_bytes, want.hbm_bytes);
        EXPECT_EQ(got.roofline_ns, want.roofline_ns);
        for (int p = 0; p < 3; ++p) {
          EXPECT_EQ(got.tlb.accesses[p], want.tlb.accesses[p]);
          EXPECT_EQ(got.tlb.misses[p], want.tlb.misses[p]);
        }
      }
    }
  }
}

TEST(SimCostModelTest, TimeGrowsMonotonicallyWithWork) {
  uint64_t previous = 0;
  for (uint64_t scale = 1; scale <= 1024; scale *= 2) {
    KernelWork w;
    w.cube_flops = scale << 28;
    w.gm_read_bytes = scale << 20;
    w.gm_to_l1_bytes = scale << 22;
    const uint64_t d = Cost(KernelOf(Engine::kAiCore, 48, w)).duration_ns;
    EXPECT_GT(d, previous) << "scale " << scale;
    previous = d;
  }
  // More bytes of any path, more blocks at the same work per block: never faster.
  KernelWork base;
  base.vector_flops = 1 << 24;
  base.gm_read_bytes = 1 << 24;
  const uint64_t t0 = Cost(KernelOf(Engine::kAiVector, 48, base)).duration_ns;
  for (uint64_t KernelWork::*field :
       {&KernelWork::gm_read_bytes, &KernelWork::gm_write_bytes, &KernelWork::ub_bytes,
        &KernelWork::vector_flops, &KernelWork::scalar_ops}) {
    KernelWork more = base;
    more.*field += 1 << 26;
    EXPECT_GT(Cost(KernelOf(Engine::kAiVector, 48, more)).duration_ns, t0);
  }
  previous = 0;
  for (uint32_t blocks = 1; blocks <= 200; blocks += 7) {
    KernelWork w;
    w.cube_flops = uint64_t{blocks} << 24;  // constant work per block
    const uint64_t d = Cost(KernelOf(Engine::kAiCore, blocks, w)).duration_ns;
    EXPECT_GE(d, previous) << blocks;
    previous = d;
  }
}

TEST(SimCostModelTest, BlocksRunInWavesOverTheCores) {
  KernelWork w;
  w.cube_flops = uint64_t{24} << 30;
  const KernelEstimate one =
      EstimateKernel(KernelOf(Engine::kAiCore, 24, w), B2().props, B2().cost);
  w.cube_flops = uint64_t{25} << 30;  // same work per block, one more block: two waves
  const KernelEstimate two =
      EstimateKernel(KernelOf(Engine::kAiCore, 25, w), B2().props, B2().cost);
  EXPECT_EQ(one.waves, 1u);
  EXPECT_EQ(two.waves, 2u);
  EXPECT_EQ(two.core_ns, 2 * one.core_ns);
}

TEST(SimCostModelTest, Int8CubeRunsTwiceTheFp16Rate) {
  KernelWork w;
  w.cube_flops = 1ull << 36;
  const uint64_t fp16 =
      EstimateKernel(KernelOf(Engine::kAiCore, 24, w), B2().props, B2().cost).block_cycles;
  w.dtype = DtypeClass::kInt8;
  const uint64_t int8 =
      EstimateKernel(KernelOf(Engine::kAiCore, 24, w), B2().props, B2().cost).block_cycles;
  EXPECT_EQ(fp16, 2 * int8);
  // 16x16x16 fractal: 4096 MAC = 8192 flops per cycle per core.
  EXPECT_EQ(fp16, (1ull << 36) / 24 / 8192 + 1);
}

TEST(SimCostModelTest, DoubleBufferingOverlapsThePipes) {
  KernelWork w;
  w.cube_flops = 8192ull * 1000 * 8;     // 1000 cycles per step on 1 core
  w.gm_to_l1_bytes = 110ull * 600 * 8;   // 600 cycles of MTE2 per step
  w.l1_to_l0a_bytes = 512ull * 300 * 8;  // 300 cycles of MTE1 per step
  w.pipeline_steps = 8;
  const auto cycles = [&](bool double_buffered) {
    KernelWork v = w;
    v.double_buffered = double_buffered;
    return EstimateKernel(KernelOf(Engine::kAiCore, 1, v), B2().props, B2().cost).block_cycles;
  };
  EXPECT_EQ(cycles(true), (1000 + 600 + 300) + 7 * 1000u);  // fill + slowest pipe
  EXPECT_EQ(cycles(false), 8 * (1000 + 600 + 300u));        // one after the other
}

TEST(SimCostModelTest, VectorRepeatIs256BytesPerCyclePerCore) {
  KernelWork w;
  w.vector_flops = 128 * 1000;  // fp16: 128 elements per 256-B repeat
  EXPECT_EQ(EstimateKernel(KernelOf(Engine::kAiVector, 1, w), B2().props, B2().cost).block_cycles,
            1000u);
  w.dtype = DtypeClass::kFp32;
  EXPECT_EQ(EstimateKernel(KernelOf(Engine::kAiVector, 1, w), B2().props, B2().cost).block_cycles,
            2000u);
}

TEST(SimCostModelTest, AiCpuCostIsPerElement) {
  KernelWork w;
  w.aicpu_elements = 1'000'000;
  const KernelEstimate e = EstimateKernel(KernelOf(Engine::kAiCpu, 1, w), B2().props, B2().cost);
  EXPECT_EQ(e.core_ns, 1'000'000 * B2().cost.aicpu_ps_per_element / 1000);
  const KernelEstimate six = EstimateKernel(KernelOf(Engine::kAiCpu, 6, w), B2().props, B2().cost);
  EXPECT_EQ(six.core_ns, (e.core_ns + 5) / 6);
}

// Issue 3 figure: 4096^3 fp16 GEMM on Ascend910B2 at 80-95% of 353.9 TFLOPS.
TEST(SimCostModelTest, Gemm4096Fp16IsWithin80To95PercentOfCubePeak) {
  uint32_t blocks = 0;
  KernelWork w = ops::MatmulWork(4096, 4096, 4096, DtypeClass::kFp16, &blocks);
  const TaskCost c = Cost(KernelOf(Engine::kAiCore, blocks, w));
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const double tflops = flops / static_cast<double>(c.duration_ns) / 1e3;
  EXPECT_GT(tflops, 0.80 * 353.9);
  EXPECT_LT(tflops, 0.95 * 353.9);
}

// Issue 3 figure: a 64 MiB elementwise add within 10% of its bytes over the GM bandwidth.
TEST(SimCostModelTest, ElementwiseAddIsWithin10PercentOfGmBandwidth) {
  const uint64_t elements = (64ull << 20) / 2;  // fp16, 64 MiB per tensor
  KernelWork w = ops::ElementwiseWork(elements, 2, DtypeClass::kFp16, 48, B2().props.ub_bytes);
  const TaskCost c = Cost(KernelOf(Engine::kAiVector, 48, w));
  const uint64_t bound = TransferNs(3 * (64ull << 20), B2().cost.hbm_bytes_per_s);
  EXPECT_GE(c.duration_ns, bound);
  EXPECT_LE(c.duration_ns, bound + bound / 10);
}

}  // namespace
}  // namespace aclsim::sim
