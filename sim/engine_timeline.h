// EngineTimeline: when each engine slot of one device is next free, in simulated time.
//
// Every engine (DMA per direction, AI Core, vector core, AI CPU) has N slots with a
// "free at" time. A task is granted the k earliest-free slots (ties: lowest index), starts at
// max(earliest, latest free time among them) and holds them until start + duration. Grants
// happen in the order the scheduler times tasks (scheduler.h), which is deterministic given
// the program's sequence of calls, so the schedule is a pure function of it.
//
// Thread-safety: none; the scheduler serialises calls under its mutex.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/function_ref.h"
#include "driver/device_props.h"
#include "sim/cost_model.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

class EngineTimeline {
 public:
  EngineTimeline(const driver::DeviceProps& props, const CostParams& cost);

  // Grants the slots of `cost` to a task that may start at `earliest`; returns its start.
  // With kNone (or 0 slots) the start is `earliest`.
  uint64_t Grant(const TaskCost& cost, uint64_t earliest);
  // As above, but the task's duration depends on its start (HBM sharing): the slots are held
  // until start + duration_at(start), which is stored in *end.
  uint64_t Grant(const TaskCost& cost, uint64_t earliest,
                 FunctionRef<uint64_t(uint64_t start)> duration_at, uint64_t* end);

  // The start Grant would give, without granting anything.
  uint64_t StartFor(const TaskCost& cost, uint64_t earliest) const;

  size_t SlotCount(EngineKind engine) const;

 private:
  // The slots of `cost`'s engine, or null when the task takes none.
  const std::vector<uint64_t>* SlotsOf(const TaskCost& cost) const;

  std::array<std::vector<uint64_t>, static_cast<size_t>(EngineKind::kCount)> free_at_;
};

}  // namespace aclsim::sim
