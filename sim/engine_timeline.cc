#include "sim/engine_timeline.h"

#include <algorithm>
#include <numeric>

namespace aclsim::sim {

EngineTimeline::EngineTimeline(const driver::DeviceProps& props, const CostParams& cost) {
  auto set = [this](EngineKind engine, uint64_t slots) {
    free_at_[static_cast<size_t>(engine)].assign(slots, 0);
  };
  set(EngineKind::kDmaH2D, cost.dma_h2d_channels);
  set(EngineKind::kDmaD2H, cost.dma_d2h_channels);
  set(EngineKind::kDmaD2D, cost.dma_d2d_channels);
  set(EngineKind::kDmaPeer, cost.dma_peer_channels);
  set(EngineKind::kAiCore, props.aicore_num);
  set(EngineKind::kAiVector, props.vector_core_num);
  set(EngineKind::kAiCpu, props.aicpu_num);
}

size_t EngineTimeline::SlotCount(EngineKind engine) const {
  return free_at_[static_cast<size_t>(engine)].size();
}

uint64_t EngineTimeline::Grant(const TaskCost& cost, uint64_t earliest) {
  uint64_t end = 0;
  return Grant(
      cost, earliest, [&cost](uint64_t) { return cost.duration_ns; }, &end);
}

uint64_t EngineTimeline::Grant(const TaskCost& cost, uint64_t earliest,
                               const std::function<uint64_t(uint64_t start)>& duration_at,
                               uint64_t* end_out) {
  if (cost.engine == EngineKind::kNone || cost.engine == EngineKind::kCount || cost.slots == 0 ||
      free_at_[static_cast<size_t>(cost.engine)].empty()) {
    *end_out = earliest + duration_at(earliest);
    return earliest;
  }
  std::vector<uint64_t>& slots = free_at_[static_cast<size_t>(cost.engine)];
  const size_t k = std::min<size_t>(cost.slots, slots.size());
  // The k earliest-free slots, ties broken by index (stable sort of indices).
  std::vector<size_t> order(slots.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&slots](size_t a, size_t b) { return slots[a] < slots[b]; });
  uint64_t start = earliest;
  for (size_t i = 0; i < k; ++i) start = std::max(start, slots[order[i]]);
  const uint64_t end = start + duration_at(start);
  for (size_t i = 0; i < k; ++i) slots[order[i]] = end;
  *end_out = end;
  return start;
}

}  // namespace aclsim::sim
