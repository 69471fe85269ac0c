#include "sim/engine_timeline.h"

#include <algorithm>
#include <numeric>
#include <utility>

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

const std::vector<uint64_t>* EngineTimeline::SlotsOf(const TaskCost& cost) const {
  if (cost.engine == EngineKind::kNone || cost.engine == EngineKind::kCount || cost.slots == 0 ||
      free_at_[static_cast<size_t>(cost.engine)].empty()) {
    return nullptr;
  }
  return &free_at_[static_cast<size_t>(cost.engine)];
}

uint64_t EngineTimeline::StartFor(const TaskCost& cost, uint64_t earliest) const {
  const std::vector<uint64_t>* slots = SlotsOf(cost);
  if (slots == nullptr) return earliest;
  const size_t k = std::min<size_t>(cost.slots, slots->size());
  if (k == slots->size())
    return std::max(earliest, *std::max_element(slots->begin(), slots->end()));
  if (k == 1) return std::max(earliest, *std::min_element(slots->begin(), slots->end()));
  thread_local std::vector<uint64_t> order;
  order.assign(slots->begin(), slots->end());
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k) - 1, order.end());
  return std::max(earliest, order[k - 1]);
}

uint64_t EngineTimeline::Grant(const TaskCost& cost, uint64_t earliest,
                               FunctionRef<uint64_t(uint64_t start)> duration_at,
                               uint64_t* end_out) {
  if (SlotsOf(cost) == nullptr) {
    *end_out = earliest + duration_at(earliest);
    return earliest;
  }
  std::vector<uint64_t>& slots = free_at_[static_cast<size_t>(cost.engine)];
  const size_t k = std::min<size_t>(cost.slots, slots.size());
  uint64_t start = earliest;
  if (k == slots.size()) {  // every slot: no choice to make
    for (uint64_t free_at : slots) start = std::max(start, free_at);
    const uint64_t end = start + duration_at(start);
    std::fill(slots.begin(), slots.end(), end);
    *end_out = end;
    return start;
  }
  if (k == 1) {  // one block: the earliest-free slot, the lowest index among equals
    size_t best = 0;
    for (size_t i = 1; i < slots.size(); ++i) {
      if (slots[i] < slots[best]) best = i;
    }
    start = std::max(start, slots[best]);
    const uint64_t end = start + duration_at(start);
    slots[best] = end;
    *end_out = end;
    return start;
  }
  // The k earliest-free slots, ties broken by index: the k smallest (free_at, index) pairs
  // (a strict total order, so the chosen set is unique).
  thread_local std::vector<std::pair<uint64_t, size_t>> order;
  order.clear();
  for (size_t i = 0; i < slots.size(); ++i) order.emplace_back(slots[i], i);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k) - 1, order.end());
  for (size_t i = 0; i < k; ++i) start = std::max(start, order[i].first);
  const uint64_t end = start + duration_at(start);
  for (size_t i = 0; i < k; ++i) slots[order[i].second] = end;
  *end_out = end;
  return start;
}

}  // namespace aclsim::sim
