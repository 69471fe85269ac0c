// Cost model (first version): the simulated duration of a task and the engine it occupies.
//
// All arithmetic is on unsigned integers (ns, bytes, flops; 128-bit intermediates) and every
// division rounds up, so a duration is bit-identical on every host. Formulas:
//   copy      launch + dma_latency + bytes / bw(dir)          (engine: DMA slot of `dir`)
//               bw: H2D / D2H = PCIe figure, D2D = HBM / 2 (each byte is read and written),
//               peer = peer link, H2H = host memcpy (no engine)
//   2-D copy  the copy formula on width * height bytes + height * memcpy2d_row_cost
//   memset    launch + bytes / HBM                              (engine: D2D DMA slot)
//   event record / wait / reset: event_cost                     (no engine)
//   host func / external:        callback_cost                  (no engine)
//   kernel    launch + max(flops / (k * per-core peak), bytes_moved / HBM), occupying
//             k = min(blocks, cores of the engine) cores. kAiVector runs on the vector cores,
//             or on the AI Cores (at the vector rate) when the SoC has no separate ones.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "driver/device_props.h"
#include "driver/task.h"
#include "sim/soc_profile.h"

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
  uint64_t duration_ns = 0;  // busy time on the engine
};

// ceil(bytes * 1e9 / bytes_per_s); 0 if bytes is 0. bytes_per_s > 0.
uint64_t TransferNs(uint64_t bytes, uint64_t bytes_per_s);

TaskCost CostOf(const driver::Task& task, const driver::DeviceProps& props, const CostParams& cost);

}  // namespace aclsim::sim
