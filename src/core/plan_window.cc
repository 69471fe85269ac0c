// The peak window (see plan_window.h).
#include "core/plan_window.h"

#include <algorithm>
#include <utility>

#include "core/memory_planner.h"

namespace aclsim::core::plan {
namespace {

// Sections on each side of the peak, tried in turn until one gives a plan at the bound (48
// reaches it on every SOMAS trace; 16 helps where the wider window's rest does not fit).
// Above kLargeInput buffers only the first width and one stacking of the base are tried:
// each try costs a placement of every buffer, and the planner must stay within 100 ms there.
constexpr uint32_t kHalfWidths[] = {48, 16};
constexpr size_t kLargeInput = 8192;
// Windows with more buffers that start or end inside them are left alone (the search is
// meant for a handful).
constexpr size_t kMaxWindowBuffers = 256;

// The first section where the live bytes reach their peak.
uint32_t PeakSection(const Problem& problem) {
  const std::vector<uint64_t> live = LivePerSection(problem);
  return static_cast<uint32_t>(std::max_element(live.begin(), live.end()) - live.begin());
}

}  // namespace

bool PlanAroundPeak(const Problem& problem, Placer* placer, const std::vector<uint32_t>& order,
                    uint64_t* node_budget, uint64_t* arena, std::vector<uint64_t>* offsets) {
  if (problem.sections == 0 || *arena <= problem.lower_bound) return false;
  const uint32_t peak = PeakSection(problem);
  bool improved = false;
  const bool large = problem.count() > kLargeInput;
  for (const uint32_t half : kHalfWidths) {
    if (large && half != kHalfWidths[0]) break;
    const uint32_t lo = peak > half ? peak - half : 0;
    const uint32_t hi = std::min(problem.sections, peak + half + 1);
    // The window's buffers: `through` live over all of it, `inside` start or end in it.
    std::vector<uint32_t> through, inside;
    std::vector<char> in_window(problem.count(), 0);
    uint64_t base = 0;
    for (uint32_t i = 0; i < problem.count(); ++i) {
      if (problem.size[i] == 0 || problem.first_section[i] >= hi || problem.end_section[i] <= lo) {
        continue;
      }
      in_window[i] = 1;
      if (problem.first_section[i] <= lo && problem.end_section[i] >= hi) {
        through.push_back(i);
        base += problem.size[i];
      } else {
        inside.push_back(i);
      }
    }
    if (inside.size() > kMaxWindowBuffers || base > problem.lower_bound) break;
    // The inside buffers on the window's own time axis (sections), exactly, above the base.
    std::vector<PlanBuffer> local(inside.size());
    for (size_t k = 0; k < inside.size(); ++k) {
      const uint32_t i = inside[k];
      local[k] = {static_cast<int64_t>(i), std::max(problem.first_section[i], lo),
                  std::min(problem.end_section[i], hi), problem.size[i]};
    }
    Problem window;
    if (!BuildProblem(local, /*alignment=*/1, &window).ok()) break;
    BuildConflicts(&window);
    std::vector<uint64_t> local_offsets;
    if (!SearchWithin(window, problem.lower_bound - base, node_budget, &local_offsets)) {
      continue;
    }
    std::vector<uint32_t> rest;
    rest.reserve(order.size());
    for (const uint32_t i : order) {
      if (!in_window[i]) rest.push_back(i);
    }
    // The base's stacking matters outside the window only: the longest-lived to the right
    // at the bottom (what dies first leaves its hole next to the inside buffers), then the
    // earliest-born at the bottom (the same to the left).
    for (const bool by_death : {true, false}) {
      if (large && !by_death) break;
      std::stable_sort(through.begin(), through.end(), [&](uint32_t a, uint32_t b) {
        return by_death ? problem.end_section[a] > problem.end_section[b]
                        : problem.first_section[a] < problem.first_section[b];
      });
      std::vector<std::pair<uint32_t, uint64_t>> fixed;
      fixed.reserve(through.size() + inside.size());
      uint64_t at = 0;
      for (const uint32_t i : through) {
        fixed.emplace_back(i, at);
        at += problem.size[i];
      }
      for (size_t k = 0; k < inside.size(); ++k) {
        fixed.emplace_back(inside[k], base + local_offsets[k]);
      }
      std::vector<uint64_t> trial;
      const uint64_t result = placer->PlaceAround(fixed, rest, Fit::kFirst, &trial);
      if (result < *arena) {
        *arena = result;
        offsets->swap(trial);
        improved = true;
        if (result == problem.lower_bound) return true;
      }
    }
  }
  return improved;
}

}  // namespace aclsim::core::plan
