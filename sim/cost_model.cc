#include "sim/cost_model.h"

#include <algorithm>

#include "common/int_math.h"
#include "sim/kernel_cost.h"

namespace aclsim::sim {
namespace {

using driver::CopyDir;
using driver::TaskKind;

uint64_t TotalBytes(const TaskTranslation& tr) {
  uint64_t total = 0;
  for (const auto& b : tr.buffers) total += b.bytes;
  return total;
}

// TLB counts and their exposed time for a task streaming once over its device buffers,
// with the misses divided over `engines` parallel translators.
uint64_t TlbNs(const TlbCounts& tlb, uint64_t engines, const driver::DeviceProps& p,
               const CostParams& c) {
  const uint64_t per_engine = CeilDivSat(tlb.total_misses(), std::max<uint64_t>(engines, 1));
  return CyclesToNs(per_engine * c.tlb_miss_penalty_cycles, p.clock_hz);
}

TaskCost CopyCost(CopyDir dir, uint64_t bytes, const TaskTranslation& tr,
                  const driver::DeviceProps& p, const CostParams& c) {
  TaskCost cost;
  cost.tlb = StreamingTlb(tr.buffers, TotalBytes(tr), c);
  cost.fixed_ns = c.launch_cost_ns + c.dma_latency_ns + TlbNs(cost.tlb, 1, p, c);
  uint64_t link_bps = 0;
  switch (dir) {
    case CopyDir::kHostToDevice:
      cost.engine = EngineKind::kDmaH2D;
      link_bps = c.pcie_h2d_bytes_per_s;
      break;
    case CopyDir::kDeviceToHost:
      cost.engine = EngineKind::kDmaD2H;
      link_bps = c.pcie_d2h_bytes_per_s;
      break;
    case CopyDir::kDeviceToDevice:
      cost.engine = EngineKind::kDmaD2D;
      cost.hbm_bytes = 2 * bytes;  // each byte is read and written
      cost.hbm_shared = true;
      break;
    case CopyDir::kPeerToPeer:
      cost.engine = EngineKind::kDmaPeer;
      link_bps = c.peer_bytes_per_s;
      break;
    case CopyDir::kHostToHost:
      cost.engine = EngineKind::kNone;
      cost.fixed_ns = c.launch_cost_ns + c.dma_latency_ns;
      link_bps = c.host_memcpy_bytes_per_s;
      break;
  }
  if (link_bps != 0) {
    cost.core_ns = TransferNs(bytes, link_bps);
    if (dir != CopyDir::kHostToHost && bytes > 0 && cost.core_ns > 0) {
      const uint64_t own = CeilDivSat(static_cast<U128>(bytes) * kNsPerS, cost.core_ns);
      const uint64_t floor =
          CeilDivSat(static_cast<U128>(c.hbm_bytes_per_s) * c.dma_hbm_contention_permille, 1000);
      cost.dma_demand = std::max(own, floor);
      cost.hbm_bytes = bytes;
    }
  }
  cost.slots = cost.engine == EngineKind::kNone ? 0 : 1;
  return cost;
}

TaskCost KernelCost(const driver::Task& task, const TaskTranslation& tr,
                    const driver::DeviceProps& p, const CostParams& c, EstimateMemo* memo) {
  const KernelEstimate e = memo != nullptr ? memo->Get(task, p, c) : EstimateKernel(task, p, c);
  if (memo != nullptr) {
    if (const TaskCost* cached = memo->CachedCost(tr)) return *cached;
  }
  TaskCost cost;
  cost.engine = e.engine;
  cost.slots = e.engine == EngineKind::kNone ? 0 : e.cores;
  cost.tlb = StreamingTlb(tr.buffers, e.traffic_bytes, c);
  cost.fixed_ns = c.launch_cost_ns + TlbNs(cost.tlb, e.cores, p, c);
  cost.core_ns = e.core_ns;
  cost.hbm_bytes = e.gm_bytes;
  cost.hbm_shared = true;
  cost.roofline_ns = e.roofline_ns;
  cost.cube_ns = e.cube_ns;
  cost.vector_ns = e.vector_ns;
  if (memo != nullptr) memo->StoreCost(tr, cost);
  return cost;
}

TaskCost Fixed(EngineKind engine, uint64_t ns) {
  TaskCost cost;
  cost.engine = engine;
  cost.slots = engine == EngineKind::kNone ? 0 : 1;
  cost.fixed_ns = ns;
  return cost;
}

}  // namespace

const char* EngineName(EngineKind engine) {
  switch (engine) {
    case EngineKind::kNone:
      return "none";
    case EngineKind::kDmaH2D:
      return "dma-h2d";
    case EngineKind::kDmaD2H:
      return "dma-d2h";
    case EngineKind::kDmaD2D:
      return "dma-d2d";
    case EngineKind::kDmaPeer:
      return "dma-peer";
    case EngineKind::kAiCore:
      return "aicore";
    case EngineKind::kAiVector:
      return "aivector";
    case EngineKind::kAiCpu:
      return "aicpu";
    case EngineKind::kCount:
      break;
  }
  return "?";
}

uint64_t TransferNs(uint64_t bytes, uint64_t bytes_per_s) {
  return CeilDivSat(static_cast<U128>(bytes) * kNsPerS, bytes_per_s);
}

uint64_t CyclesToNs(uint64_t cycles, uint64_t clock_hz) {
  return CeilDivSat(static_cast<U128>(cycles) * kNsPerS, clock_hz);
}

TaskCost CostOf(const driver::Task& task, const TaskTranslation& translation,
                const driver::DeviceProps& props, const CostParams& cost, EstimateMemo* memo) {
  TaskCost c;
  switch (task.kind) {
    case TaskKind::kMemcpy:
      c = CopyCost(task.dir, task.bytes, translation, props, cost);
      break;
    case TaskKind::kMemcpy2d:
      c = CopyCost(task.dir, static_cast<uint64_t>(task.width) * task.height, translation, props,
                   cost);
      c.fixed_ns += static_cast<uint64_t>(task.height) * cost.memcpy2d_row_cost_ns;
      break;
    case TaskKind::kMemset:
      c = Fixed(EngineKind::kDmaD2D, cost.launch_cost_ns);
      c.tlb = StreamingTlb(translation.buffers, TotalBytes(translation), cost);
      c.fixed_ns += TlbNs(c.tlb, 1, props, cost);
      c.hbm_bytes = task.bytes;
      c.hbm_shared = true;
      break;
    case TaskKind::kEventRecord:
    case TaskKind::kEventWait:
    case TaskKind::kEventReset:
    case TaskKind::kSignal:
    case TaskKind::kWaitSignal:
      c = Fixed(EngineKind::kNone, cost.event_cost_ns);
      break;
    case TaskKind::kHostFunc:
    case TaskKind::kExternal:
      c = Fixed(EngineKind::kNone, cost.callback_cost_ns);
      break;
    case TaskKind::kKernel:
      c = KernelCost(task, translation, props, cost, memo);
      break;
  }
  const uint64_t hbm_alone = c.hbm_shared ? TransferNs(c.hbm_bytes, cost.hbm_bytes_per_s) : 0;
  c.duration_ns = c.fixed_ns + std::max(c.core_ns, hbm_alone);
  return c;
}

}  // namespace aclsim::sim
