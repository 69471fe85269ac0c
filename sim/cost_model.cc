#include "sim/cost_model.h"

#include <algorithm>

namespace aclsim::sim {
namespace {

using driver::CopyDir;
using driver::Engine;
using driver::TaskKind;

constexpr uint64_t kNsPerS = 1'000'000'000;

uint64_t CeilDiv(unsigned __int128 num, unsigned __int128 den) {
  if (den == 0) return 0;
  const unsigned __int128 q = (num + den - 1) / den;
  return q > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(q);
}

TaskCost CopyCost(CopyDir dir, uint64_t bytes, const CostParams& c) {
  TaskCost cost;
  uint64_t transfer = 0;
  switch (dir) {
    case CopyDir::kHostToDevice:
      cost.engine = EngineKind::kDmaH2D;
      transfer = TransferNs(bytes, c.pcie_h2d_bytes_per_s);
      break;
    case CopyDir::kDeviceToHost:
      cost.engine = EngineKind::kDmaD2H;
      transfer = TransferNs(bytes, c.pcie_d2h_bytes_per_s);
      break;
    case CopyDir::kDeviceToDevice:
      cost.engine = EngineKind::kDmaD2D;
      transfer = CeilDiv(static_cast<unsigned __int128>(bytes) * 2 * kNsPerS, c.hbm_bytes_per_s);
      break;
    case CopyDir::kPeerToPeer:
      cost.engine = EngineKind::kDmaPeer;
      transfer = TransferNs(bytes, c.peer_bytes_per_s);
      break;
    case CopyDir::kHostToHost:
      cost.engine = EngineKind::kNone;
      transfer = TransferNs(bytes, c.host_memcpy_bytes_per_s);
      break;
  }
  cost.slots = cost.engine == EngineKind::kNone ? 0 : 1;
  cost.duration_ns = c.launch_cost_ns + c.dma_latency_ns + transfer;
  return cost;
}

TaskCost KernelCost(const driver::Task& task, const driver::DeviceProps& p, const CostParams& c) {
  TaskCost cost;
  uint64_t cores = 0;
  uint64_t per_core_flops_per_s = 0;
  switch (task.engine) {
    case Engine::kAiCore:
      cost.engine = EngineKind::kAiCore;
      cores = p.aicore_num;
      per_core_flops_per_s = c.cube_flops_per_cycle_per_core * p.clock_hz;
      break;
    case Engine::kAiVector:
      cost.engine = p.vector_core_num > 0 ? EngineKind::kAiVector : EngineKind::kAiCore;
      cores = p.vector_core_num > 0 ? p.vector_core_num : p.aicore_num;
      per_core_flops_per_s = c.vector_flops_per_cycle_per_core * p.clock_hz;
      break;
    case Engine::kAiCpu:
      cost.engine = EngineKind::kAiCpu;
      cores = p.aicpu_num;
      per_core_flops_per_s = c.aicpu_flops_per_s_per_core;
      break;
  }
  if (cores == 0) {  // the SoC lacks the engine: charge one AI Core's worth, occupy nothing
    cost.engine = EngineKind::kNone;
    cores = 1;
  }
  const uint64_t used = std::min<uint64_t>(std::max<uint32_t>(task.blocks, 1), cores);
  cost.slots = cost.engine == EngineKind::kNone ? 0 : static_cast<uint32_t>(used);
  const uint64_t compute = CeilDiv(static_cast<unsigned __int128>(task.flops) * kNsPerS,
                                   static_cast<unsigned __int128>(per_core_flops_per_s) * used);
  const uint64_t memory = TransferNs(task.bytes_moved, c.hbm_bytes_per_s);
  cost.duration_ns = c.launch_cost_ns + std::max(compute, memory);
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
  return CeilDiv(static_cast<unsigned __int128>(bytes) * kNsPerS, bytes_per_s);
}

TaskCost CostOf(const driver::Task& task, const driver::DeviceProps& props,
                const CostParams& cost) {
  switch (task.kind) {
    case TaskKind::kMemcpy:
      return CopyCost(task.dir, task.bytes, cost);
    case TaskKind::kMemcpy2d: {
      TaskCost c = CopyCost(task.dir, static_cast<uint64_t>(task.width) * task.height, cost);
      c.duration_ns += static_cast<uint64_t>(task.height) * cost.memcpy2d_row_cost_ns;
      return c;
    }
    case TaskKind::kMemset:
      return {EngineKind::kDmaD2D, 1,
              cost.launch_cost_ns + TransferNs(task.bytes, cost.hbm_bytes_per_s)};
    case TaskKind::kEventRecord:
    case TaskKind::kEventWait:
    case TaskKind::kEventReset:
      return {EngineKind::kNone, 0, cost.event_cost_ns};
    case TaskKind::kHostFunc:
    case TaskKind::kExternal:
      return {EngineKind::kNone, 0, cost.callback_cost_ns};
    case TaskKind::kKernel:
      return KernelCost(task, props, cost);
  }
  return {};
}

}  // namespace aclsim::sim
