// Kernel cost model: time of one kernel from its KernelWork (driver/task.h) and the profile.
//
// Per block (all KernelWork totals divided evenly over the blocks, rounded up), per pipeline
// step (block totals / pipeline_steps), in cycles of the AI Core clock:
//   cube    cube_flops / cube rate (fp16/bf16/fp32: 16x16x16 MAC = 8192 flops/cycle;
//           int8: 16x32x16 = 16384)
//   vector  vector_flops x element bytes / vector_repeat_bytes (one 256-B repeat per cycle)
//   scalar  scalar_ops / scalar_ops_per_cycle
//   MTE2    max(gm_read / gm_read rate, gm_to_l1 / l2_read rate)
//   MTE3    gm_write / gm_write rate
//   MTE1    l1_to_l0a / L1->L0A rate + l1_to_l0b / L1->L0B rate
//   FixPipe l0c_to_out / L0C->out rate
//   UB      ub_bytes / ub rate
// block = sum(step pipes) + (steps - 1) x max(step pipes) if double_buffered (a pipeline:
// the first step fills it, then the slowest pipe sets the pace), else steps x sum.
// AI CPU kernels: aicpu_elements x aicpu_ps_per_element per block instead.
// The kernel's blocks run in waves on k = min(blocks, cores) cores: core time =
// ceil(blocks / k) x block time. The scheduler adds launch and TLB time and takes the max
// with the (shared) HBM time of the GM bytes, so a kernel is never below its roofline:
//   roofline = max(work at the whole engine's peak, (gm_read + gm_write) / hbm_bytes_per_s).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/device_props.h"
#include "driver/task.h"
#include "sim/cost_model.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

struct KernelEstimate {
  EngineKind engine = EngineKind::kNone;
  uint32_t cores = 0;  // cores granted (k)
  uint64_t waves = 0;  // ceil(blocks / k)
  uint64_t block_cycles = 0;
  uint64_t core_ns = 0;        // waves x block time
  uint64_t gm_bytes = 0;       // HBM bytes (read + write)
  uint64_t roofline_ns = 0;    // compute at the engine's full peak vs GM bytes / HBM
  uint64_t traffic_bytes = 0;  // GM-side accesses for the TLB model
  uint64_t cube_ns = 0;        // cube / vector pipes' busy time over the waves (profiling)
  uint64_t vector_ns = 0;
};

// The work a legacy kernel (work.empty()) stands for: flops on the engine's main unit,
// bytes_moved as GM reads.
driver::KernelWork LegacyWork(const driver::Task& task);

KernelEstimate EstimateKernel(const driver::Task& task, const driver::DeviceProps& props,
                              const CostParams& cost);

// Remembers the estimates of recent kernels of one device (props and cost fixed): a program
// that launches the same kernels again skips the arithmetic. Keyed by everything
// EstimateKernel reads of the task. Not thread-safe (the scheduler's mutex guards it).
class EstimateMemo {
 public:
  KernelEstimate Get(const driver::Task& task, const driver::DeviceProps& props,
                     const CostParams& cost);
  // The whole cost last stored for the kernel of the latest Get with the same translation
  // (the same buffers on the same page sizes), or null; StoreCost records it.
  const TaskCost* CachedCost(const TaskTranslation& translation) const;
  void StoreCost(const TaskTranslation& translation, const TaskCost& cost);

 private:
  struct Key {
    driver::Engine engine = driver::Engine::kAiCore;
    uint32_t blocks = 0;
    uint64_t flops = 0;
    uint64_t bytes_moved = 0;
    driver::KernelWork work;                       // without buffers
    bool Matches(const driver::Task& task) const;  // the same fields as `task`'s
  };
  struct Slot {
    bool used = false;
    Key key;
    KernelEstimate estimate;
    bool has_cost = false;
    std::vector<BufferPages> buffers;  // translation of `cost`
    TaskCost cost;
  };
  static constexpr size_t kSlots = 16;
  Slot slots_[kSlots];
  Slot* last_ = nullptr;  // of the latest Get
};

}  // namespace aclsim::sim
