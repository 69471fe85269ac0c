// HbmTimeline: the HBM bandwidth demand of a device's scheduled tasks, in simulated time.
//
// Model (deterministic: a pure function of the order in which tasks are timed). Every timed
// task that moves HBM bytes records an interval [start, end) with a demand in bytes/s:
//  * a kernel, device-to-device copy or memset: its HBM bytes over its data phase;
//  * a host<->device or peer DMA: max(its own byte rate, hbm_bytes_per_s x
//    dma_hbm_contention_permille / 1000) (write bursts cost the HBM more than their bytes).
// A task timed later that needs HBM bytes is served, at each instant, at
//   available = max(W - sum of recorded demands, W / (number of recorded users + 1))
// (W = hbm_bytes_per_s; the second term is a fair share, so n saturating users each get
// W / (n + 1)). ServeNs integrates that rate from the task's start. Already-timed tasks are
// never re-timed: a task resolved earlier is not slowed by a later one (their simulated end
// may already have been observed). Only the latest kMaxIntervals intervals are kept.
//
// Integer arithmetic: rates in bytes/s, times in ns, amounts in bytes x 1e9 (128-bit).
//
// Thread-safety: none; the scheduler serialises calls under its mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace aclsim::sim {

class HbmTimeline {
 public:
  static constexpr size_t kMaxIntervals = 256;

  explicit HbmTimeline(uint64_t bytes_per_s) : bytes_per_s_(bytes_per_s) {}

  // Simulated ns to move `bytes` over HBM starting at `start`, given the recorded demand.
  // Equals ceil(bytes / W) when nothing overlaps.
  uint64_t ServeNs(uint64_t start, uint64_t bytes) const;

  // Records a task's demand over [start, end). Ignored if empty or demand is 0.
  void Add(uint64_t start, uint64_t end, uint64_t demand_bytes_per_s);

  uint64_t bytes_per_s() const { return bytes_per_s_; }

 private:
  struct Interval {
    uint64_t start;
    uint64_t end;
    uint64_t demand;
  };
  const uint64_t bytes_per_s_;
  std::deque<Interval> intervals_;
  uint64_t latest_end_ = 0;  // the latest end of any interval ever added
};

}  // namespace aclsim::sim
