#include "sim/kernel_cost.h"

#include <algorithm>
#include <initializer_list>

#include "common/int_math.h"

namespace aclsim::sim {
namespace {

using driver::DtypeClass;
using driver::Engine;

uint64_t CubeRate(DtypeClass dtype, const CostParams& c) {
  return dtype == DtypeClass::kInt8 ? c.cube_int8_flops_per_cycle_per_core
                                    : c.cube_flops_per_cycle_per_core;
}

// Cycles of each pipe for `n` units of work (totals already divided to the granularity).
struct Pipes {
  uint64_t cube, vector, scalar, mte2, mte3, mte1, fixpipe, ub;
};

Pipes PipesFor(const driver::KernelWork& w, uint64_t div, const CostParams& c) {
  auto per = [div](uint64_t total) { return CeilDivSat(total, div); };
  Pipes p{};
  p.cube = CeilDivSat(per(w.cube_flops), CubeRate(w.dtype, c));
  p.vector = CeilDivSat(static_cast<U128>(per(w.vector_flops)) * driver::DtypeClassBytes(w.dtype),
                        c.vector_repeat_bytes);
  p.scalar = CeilDivSat(per(w.scalar_ops), c.scalar_ops_per_cycle);
  p.mte2 = std::max(CeilDivSat(per(w.gm_read_bytes), c.gm_read_bytes_per_cycle),
                    CeilDivSat(per(w.gm_to_l1_bytes), c.l2_read_bytes_per_cycle));
  p.mte3 = CeilDivSat(per(w.gm_write_bytes), c.gm_write_bytes_per_cycle);
  p.mte1 = CeilDivSat(per(w.l1_to_l0a_bytes), c.l1_to_l0a_bytes_per_cycle) +
           CeilDivSat(per(w.l1_to_l0b_bytes), c.l1_to_l0b_bytes_per_cycle);
  p.fixpipe = CeilDivSat(per(w.l0c_to_out_bytes), c.l0c_out_bytes_per_cycle);
  p.ub = CeilDivSat(per(w.ub_bytes), c.ub_bytes_per_cycle);
  return p;
}

uint64_t BlockCycles(const driver::KernelWork& w, uint64_t blocks, const CostParams& c) {
  const uint64_t steps = std::max<uint32_t>(w.pipeline_steps, 1);
  const Pipes p = PipesFor(w, blocks * steps, c);
  const std::initializer_list<uint64_t> all = {p.cube, p.vector, p.scalar,  p.mte2,
                                               p.mte3, p.mte1,   p.fixpipe, p.ub};
  uint64_t sum = 0;
  for (uint64_t v : all) sum += v;
  const uint64_t slowest = std::max(all);
  return w.double_buffered ? sum + (steps - 1) * slowest : steps * sum;
}

}  // namespace

driver::KernelWork LegacyWork(const driver::Task& task) {
  driver::KernelWork w;
  switch (task.engine) {
    case Engine::kAiCore:
      w.cube_flops = task.flops;
      break;
    case Engine::kAiVector:
      w.vector_flops = task.flops;  // fp16: 128 lanes x 2 B = one 256-B repeat per cycle
      break;
    case Engine::kAiCpu:
      break;  // legacy AI CPU flops use aicpu_flops_per_s_per_core (EstimateKernel)
  }
  w.gm_read_bytes = task.bytes_moved;
  return w;
}

KernelEstimate EstimateKernel(const driver::Task& task, const driver::DeviceProps& p,
                              const CostParams& c) {
  KernelEstimate e;
  const bool legacy = task.work.empty();
  driver::KernelWork legacy_work;
  if (legacy) legacy_work = LegacyWork(task);
  const driver::KernelWork& w = legacy ? legacy_work : task.work;
  uint64_t cores = 0;
  switch (task.engine) {
    case Engine::kAiCore:
      e.engine = EngineKind::kAiCore;
      cores = p.aicore_num;
      break;
    case Engine::kAiVector:
      e.engine = p.vector_core_num > 0 ? EngineKind::kAiVector : EngineKind::kAiCore;
      cores = p.vector_core_num > 0 ? p.vector_core_num : p.aicore_num;
      break;
    case Engine::kAiCpu:
      e.engine = EngineKind::kAiCpu;
      cores = p.aicpu_num;
      break;
  }
  if (cores == 0) {  // the SoC lacks the engine: charge one core's worth, occupy nothing
    e.engine = EngineKind::kNone;
    cores = 1;
  }
  const uint64_t blocks = std::max<uint32_t>(task.blocks, 1);
  e.cores = static_cast<uint32_t>(std::min(blocks, cores));
  e.waves = CeilDivSat(blocks, e.cores);
  e.gm_bytes = w.gm_read_bytes + w.gm_write_bytes;
  e.traffic_bytes = e.gm_bytes + w.gm_to_l1_bytes;
  uint64_t block_ns = 0;
  uint64_t peak_ns = 0;  // the work at the whole engine's peak
  if (task.engine == Engine::kAiCpu) {
    const uint64_t flops_ns =
        legacy ? CeilDivSat(static_cast<U128>(CeilDivSat(task.flops, blocks)) * kNsPerS,
                            c.aicpu_flops_per_s_per_core)
               : 0;
    block_ns = flops_ns + CeilDivSat(static_cast<U128>(CeilDivSat(w.aicpu_elements, blocks)) *
                                         c.aicpu_ps_per_element,
                                     1000);
    peak_ns = CeilDivSat(static_cast<U128>(w.aicpu_elements) * c.aicpu_ps_per_element,
                         static_cast<U128>(1000) * cores);
    if (legacy) {
      peak_ns = CeilDivSat(static_cast<U128>(task.flops) * kNsPerS,
                           static_cast<U128>(c.aicpu_flops_per_s_per_core) * cores);
    }
  } else {
    e.block_cycles = BlockCycles(w, blocks, c);
    block_ns = CyclesToNs(e.block_cycles, p.clock_hz);
    const Pipes per_block = PipesFor(w, blocks, c);
    e.cube_ns = e.waves * CyclesToNs(per_block.cube, p.clock_hz);
    e.vector_ns = e.waves * CyclesToNs(per_block.vector, p.clock_hz);
    const Pipes chip = PipesFor(w, cores, c);
    peak_ns = CyclesToNs(std::max(chip.cube, chip.vector), p.clock_hz);
  }
  const uint64_t waves_ns = e.waves * block_ns;
  e.core_ns = std::max(waves_ns, peak_ns);
  e.roofline_ns = std::max(peak_ns, TransferNs(e.gm_bytes, c.hbm_bytes_per_s));
  return e;
}

bool EstimateMemo::Key::Matches(const driver::Task& task) const {
  const driver::KernelWork& a = work;
  const driver::KernelWork& b = task.work;
  return engine == task.engine && blocks == task.blocks && flops == task.flops &&
         bytes_moved == task.bytes_moved && a.dtype == b.dtype && a.cube_flops == b.cube_flops &&
         a.vector_flops == b.vector_flops && a.scalar_ops == b.scalar_ops &&
         a.aicpu_elements == b.aicpu_elements && a.gm_read_bytes == b.gm_read_bytes &&
         a.gm_write_bytes == b.gm_write_bytes && a.gm_to_l1_bytes == b.gm_to_l1_bytes &&
         a.l1_to_l0a_bytes == b.l1_to_l0a_bytes && a.l1_to_l0b_bytes == b.l1_to_l0b_bytes &&
         a.l0c_to_out_bytes == b.l0c_to_out_bytes && a.ub_bytes == b.ub_bytes &&
         a.pipeline_steps == b.pipeline_steps && a.double_buffered == b.double_buffered;
}

KernelEstimate EstimateMemo::Get(const driver::Task& task, const driver::DeviceProps& props,
                                 const CostParams& cost) {
  const driver::KernelWork& w = task.work;
  // A cheap mix of the fields that usually differ between kernels.
  uint64_t h = static_cast<uint64_t>(task.engine) * 0x9e3779b97f4a7c15ULL;
  for (uint64_t v : {uint64_t{task.blocks}, task.flops, task.bytes_moved, w.cube_flops,
                     w.vector_flops, w.gm_read_bytes, w.gm_write_bytes, w.ub_bytes}) {
    h = (h ^ v) * 0x100000001b3ULL;
  }
  Slot& slot = slots_[(h ^ (h >> 29)) % kSlots];
  last_ = &slot;
  if (slot.used && slot.key.Matches(task)) return slot.estimate;
  Key key;
  key.engine = task.engine;
  key.blocks = task.blocks;
  key.flops = task.flops;
  key.bytes_moved = task.bytes_moved;
  key.work.dtype = w.dtype;
  key.work.cube_flops = w.cube_flops;
  key.work.vector_flops = w.vector_flops;
  key.work.scalar_ops = w.scalar_ops;
  key.work.aicpu_elements = w.aicpu_elements;
  key.work.gm_read_bytes = w.gm_read_bytes;
  key.work.gm_write_bytes = w.gm_write_bytes;
  key.work.gm_to_l1_bytes = w.gm_to_l1_bytes;
  key.work.l1_to_l0a_bytes = w.l1_to_l0a_bytes;
  key.work.l1_to_l0b_bytes = w.l1_to_l0b_bytes;
  key.work.l0c_to_out_bytes = w.l0c_to_out_bytes;
  key.work.ub_bytes = w.ub_bytes;
  key.work.pipeline_steps = w.pipeline_steps;
  key.work.double_buffered = w.double_buffered;
  slot.used = true;
  slot.key = std::move(key);
  slot.estimate = EstimateKernel(task, props, cost);
  slot.has_cost = false;
  return slot.estimate;
}

const TaskCost* EstimateMemo::CachedCost(const TaskTranslation& translation) const {
  if (last_ == nullptr || !last_->has_cost || last_->buffers.size() != translation.buffers.size()) {
    return nullptr;
  }
  for (size_t i = 0; i < translation.buffers.size(); ++i) {
    if (last_->buffers[i].bytes != translation.buffers[i].bytes ||
        last_->buffers[i].page != translation.buffers[i].page) {
      return nullptr;
    }
  }
  return &last_->cost;
}

void EstimateMemo::StoreCost(const TaskTranslation& translation, const TaskCost& cost) {
  if (last_ == nullptr) return;
  last_->buffers = translation.buffers;
  last_->cost = cost;
  last_->has_cost = true;
}

}  // namespace aclsim::sim
