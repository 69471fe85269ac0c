#include "sim/hbm_timeline.h"

#include <algorithm>
#include <vector>

#include "common/int_math.h"

namespace aclsim::sim {

uint64_t HbmTimeline::ServeNs(uint64_t start, uint64_t bytes) const {
  if (bytes == 0) return 0;
  const uint64_t w = bytes_per_s_;
  if (latest_end_ <= start) {  // nothing overlaps: the whole bandwidth (the common case)
    const U128 scaled = static_cast<U128>(bytes) * kNsPerS;
    return static_cast<uint64_t>((scaled + w - 1) / w);
  }
  std::vector<const Interval*> live;
  std::vector<uint64_t> bounds;
  for (const auto& iv : intervals_) {
    if (iv.end <= start) continue;
    live.push_back(&iv);
    if (iv.start > start) bounds.push_back(iv.start);
    bounds.push_back(iv.end);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  U128 remaining = static_cast<U128>(bytes) * kNsPerS;  // bytes x 1e9
  uint64_t t = start;
  size_t next = 0;
  for (;;) {
    U128 demand = 0;
    uint64_t users = 0;
    for (const Interval* iv : live) {
      if (iv->start <= t && t < iv->end) {
        demand += iv->demand;
        ++users;
      }
    }
    const uint64_t fair = w / (users + 1);
    const uint64_t avail =
        std::max<uint64_t>(demand >= w ? 0 : static_cast<uint64_t>(w - demand), fair);
    while (next < bounds.size() && bounds[next] <= t) ++next;
    const bool last = next == bounds.size();
    if (avail > 0) {
      const U128 capacity = last ? remaining : static_cast<U128>(avail) * (bounds[next] - t);
      if (last || capacity >= remaining) {
        const U128 dt = (remaining + avail - 1) / avail;
        return static_cast<uint64_t>(t - start + dt);
      }
      remaining -= capacity;
    }
    t = bounds[next];
  }
}

void HbmTimeline::Add(uint64_t start, uint64_t end, uint64_t demand_bytes_per_s) {
  if (end <= start || demand_bytes_per_s == 0) return;
  intervals_.push_back({start, end, demand_bytes_per_s});
  latest_end_ = std::max(latest_end_, end);
  if (intervals_.size() > kMaxIntervals) intervals_.pop_front();
}

}  // namespace aclsim::sim
