// Cost model: the simulated duration of a task, the engine it occupies and its HBM traffic.
//
// All arithmetic is on unsigned integers (ns, bytes, flops, cycles; 128-bit intermediates)
// and every division rounds up, so a duration is bit-identical on every host. A task's time
// is fixed_ns + a data phase; for tasks that share HBM (hbm_shared) the data phase is
// max(core_ns, the time HBM takes to serve hbm_bytes), computed by the scheduler from the
// HbmTimeline when the task is timed; `duration_ns` is that value with nothing overlapping.
//
//   copy      fixed = launch + dma_latency + TLB; H2D / D2H / peer: + bytes / link bw, records
//             an HBM demand (dma_hbm_contention); D2D: hbm_bytes = 2 x bytes (read + write),
//             shared; H2H: host memcpy, no engine. 2-D: width x height + height x row cost.
//   memset    fixed = launch + TLB; hbm_bytes = bytes, shared          (engine: D2D DMA slot)
//   event record / wait / reset: event_cost; host func / external: callback_cost (no engine)
//   kernel    fixed = launch + TLB; core_ns = waves x per-block time (kernel_cost.h);
//             hbm_bytes = GM read + write bytes, shared. Never below its roofline.
// TLB: StreamingTlb over the device buffers the task touches (tlb_model.h); each miss costs
// tlb_miss_penalty_cycles (a kernel's misses are divided over its cores).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/device_props.h"
#include "driver/task.h"
#include "sim/soc_profile.h"
#include "sim/tlb_model.h"

namespace aclsim::sim {

// Engines with a limited number of slots. kNone: the task occupies no engine.
enum class EngineKind {
  kNone,
  kDmaH2D,
  kDmaD2H,
  kDmaD2D,
  kDmaPeer,
  kAiCore,
  kAiVector,
  kAiCpu,
  kCount,
};

const char* EngineName(EngineKind engine);

struct TaskCost {
  EngineKind engine = EngineKind::kNone;
  uint32_t slots = 0;        // slots occupied (0 with kNone)
  uint64_t duration_ns = 0;  // busy time on the engine when no other task overlaps
  // HBM sharing inputs (see hbm_timeline.h).
  uint64_t fixed_ns = 0;     // launch, latency, TLB: not affected by sharing
  uint64_t core_ns = 0;      // data phase lower bound (cores, link)
  uint64_t hbm_bytes = 0;    // bytes moved over HBM
  bool hbm_shared = false;   // data phase = max(core_ns, shared HBM time)
  uint64_t dma_demand = 0;   // !hbm_shared: HBM demand (bytes/s) recorded while it runs
  uint64_t roofline_ns = 0;  // kernels: max(work / chip peak, GM bytes / HBM bandwidth)
  uint64_t cube_ns = 0;      // kernels: cube / vector busy time (KernelEstimate; profiling)
  uint64_t vector_ns = 0;
  TlbCounts tlb;
};

// The device buffers a task touches, with their page sizes (filled by the device from its
// page tables; empty if unknown).
struct TaskTranslation {
  std::vector<BufferPages> buffers;
};

// ceil(bytes * 1e9 / bytes_per_s); 0 if bytes is 0. bytes_per_s > 0.
uint64_t TransferNs(uint64_t bytes, uint64_t bytes_per_s);
// ceil(cycles * 1e9 / clock_hz).
uint64_t CyclesToNs(uint64_t cycles, uint64_t clock_hz);

class EstimateMemo;  // kernel_cost.h

// `memo`, if not null, remembers kernel estimates (for repeated kernels of one device).
TaskCost CostOf(const driver::Task& task, const TaskTranslation& translation,
                const driver::DeviceProps& props, const CostParams& cost,
                EstimateMemo* memo = nullptr);

}  // namespace aclsim::sim
