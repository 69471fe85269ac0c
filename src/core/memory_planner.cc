// MemoryPlanner: greedy placement in several orders, then a bounded search on small inputs.
#include "core/memory_planner.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <utility>

#include "core/plan_place.h"
#include "core/plan_problem.h"
#include "core/plan_window.h"

namespace aclsim::core {
namespace {

using plan::Fit;
using plan::Problem;

// Above this many buffers only the first-fit orders by size and by peak run: the others
// (best fit especially) cost more and won on none of the large traces we measured.
constexpr size_t kAllOrderingsMaxBuffers = 8192;

// The non-zero-size buffers, sorted by `key` (larger first), ties by input order.
template <typename Key>
std::vector<uint32_t> OrderBy(const Problem& problem, Key key) {
  using Value = decltype(key(0));
  std::vector<std::pair<Value, uint32_t>> keyed;  // (key, index)
  keyed.reserve(problem.count());
  for (size_t i = 0; i < problem.count(); ++i) {
    if (problem.size[i] != 0) keyed.emplace_back(key(static_cast<uint32_t>(i)), i);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return b.first < a.first; });
  std::vector<uint32_t> order(keyed.size());
  for (size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

// For each buffer, the peak of live bytes during its lifetime (MiniMalloc's "total"): the
// buffers of the busiest moments are the ones that decide the arena.
std::vector<uint64_t> PeakDuringLifetime(const Problem& problem) {
  const size_t n = problem.count();
  const size_t sections = problem.sections;
  std::vector<uint64_t> peak(n, 0);
  if (sections == 0) return peak;
  // A sparse table over the live bytes per section answers the range maxima in O(1).
  std::vector<std::vector<uint64_t>> table(1, plan::LivePerSection(problem));
  for (size_t width = 1; 2 * width <= sections; width *= 2) {
    const std::vector<uint64_t>& prev = table.back();
    std::vector<uint64_t> next(sections - 2 * width + 1);
    for (size_t s = 0; s < next.size(); ++s) next[s] = std::max(prev[s], prev[s + width]);
    table.push_back(std::move(next));
  }
  for (size_t i = 0; i < n; ++i) {
    if (problem.size[i] == 0) continue;
    const size_t first = problem.first_section[i];
    const size_t count = problem.end_section[i] - first;  // >= 1
    const size_t level = 63 - static_cast<size_t>(__builtin_clzll(count));
    const size_t width = size_t{1} << level;
    peak[i] = std::max(table[level][first], table[level][first + count - width]);
  }
  return peak;
}

Plan MakePlan(const Problem& problem, std::vector<uint64_t> offsets, std::string strategy) {
  Plan result;
  result.arena = plan::ArenaOf(problem, offsets);
  result.offsets = std::move(offsets);
  result.lower_bound = problem.lower_bound;
  result.total = problem.total;
  result.strategy = std::move(strategy);
  return result;
}

}  // namespace

Result<Plan> GreedyBySize(const std::vector<PlanBuffer>& buffers, uint64_t alignment) {
  Problem problem;
  ACLSIM_RETURN_IF_ERROR(plan::BuildProblem(buffers, alignment, &problem));
  const std::vector<uint32_t> order =
      OrderBy(problem, [&problem](uint32_t i) { return problem.size[i]; });
  std::vector<uint64_t> offsets;
  plan::Placer(problem).PlaceInOrder(order, Fit::kFirst, &offsets);
  return MakePlan(problem, std::move(offsets), "greedy-by-size");
}

Result<Plan> PlanMemory(const std::vector<PlanBuffer>& buffers, const PlanOptions& options) {
  Problem problem;
  ACLSIM_RETURN_IF_ERROR(plan::BuildProblem(buffers, options.alignment, &problem));
  const std::vector<uint64_t> peak = PeakDuringLifetime(problem);
  auto duration = [&problem](uint32_t i) {
    return static_cast<uint64_t>(problem.upper[i] - problem.lower[i]);
  };
  using Key = std::pair<uint64_t, uint64_t>;
  struct Strategy {
    const char* name;
    std::function<Key(uint32_t)> key;  // larger first
    Fit fit;
    bool on_large_inputs;  // also tried above kAllOrderingsMaxBuffers buffers
  };
  const Problem& p = problem;
  const Strategy strategies[] = {
      // TFLite's greedy by size comes first: it is the baseline we never lose to.
      {"greedy-by-size",
       [&p](uint32_t i) {
         return Key{p.size[i], 0};
       },
       Fit::kFirst, true},
      {"size/best-fit",
       [&p](uint32_t i) {
         return Key{p.size[i], 0};
       },
       Fit::kBest, false},
      {"peak,size/first-fit",
       [&](uint32_t i) {
         return Key{peak[i], p.size[i]};
       },
       Fit::kFirst, true},
      {"peak,size/best-fit",
       [&](uint32_t i) {
         return Key{peak[i], p.size[i]};
       },
       Fit::kBest, false},
      {"size,duration/first-fit",
       [&](uint32_t i) {
         return Key{p.size[i], duration(i)};
       },
       Fit::kFirst, false},
      {"duration,size/best-fit",
       [&](uint32_t i) {
         return Key{duration(i), p.size[i]};
       },
       Fit::kBest, false},
  };
  std::vector<uint64_t> offsets, best_offsets;
  plan::Placer placer(problem);
  uint64_t best = std::numeric_limits<uint64_t>::max();
  std::string best_name;
  const bool large = problem.count() > kAllOrderingsMaxBuffers;
  // Right after greedy by size: an exact plan of the few buffers around the peak
  // (plan_window.h; its own budget, a tenth of the search's). Unless it reaches the bound,
  // the other orders and the search run as if it had not, and the smaller plan wins.
  uint64_t window_best = 0;
  std::vector<uint64_t> window_offsets;
  bool window_won = false;
  for (const Strategy& strategy : strategies) {
    if (large && !strategy.on_large_inputs) continue;
    const bool first = &strategy == &strategies[0];
    const std::vector<uint32_t> order = OrderBy(problem, strategy.key);
    const uint64_t arena = placer.PlaceInOrder(order, strategy.fit, &offsets);
    if (arena < best) {
      best = arena;
      best_offsets.swap(offsets);
      best_name = strategy.name;
    }
    if (best == problem.lower_bound) break;
    if (first && options.search_nodes > 0) {
      uint64_t window_budget = options.search_nodes / 10 + 1;
      window_best = best;
      window_won = plan::PlanAroundPeak(problem, &placer, order, &window_budget, &window_best,
                                        &window_offsets);
      if (window_won && window_best == problem.lower_bound) {
        return MakePlan(problem, std::move(window_offsets), "peak-window");
      }
    }
  }
  if (best > problem.lower_bound && options.search_nodes > 0 &&
      problem.count() <= options.search_max_buffers) {
    plan::BuildConflicts(&problem);
    // First the lower bound itself with half the nodes, then bisect between the best plan
    // and the highest capacity that failed, each try with half of what is left.
    uint64_t budget = options.search_nodes;
    uint64_t failed = problem.lower_bound - 1;  // capacities <= this found nothing
    uint64_t target = problem.lower_bound;
    while (budget > 0 && best - failed > options.alignment) {
      uint64_t share = target == problem.lower_bound ? budget / 2 : budget / 2 + 1;
      budget -= share;
      const bool found = plan::SearchWithin(problem, target, &share, &offsets);
      budget += share;  // what the try did not use
      if (found) {
        best = plan::ArenaOf(problem, offsets);
        best_offsets.swap(offsets);
        best_name = "search";
      } else {
        failed = target;
      }
      const uint64_t mid = failed + (best - failed) / 2;
      target = (mid + options.alignment - 1) / options.alignment * options.alignment;
      if (target <= failed || target >= best) break;
    }
  }
  if (window_won && window_best < best) {
    return MakePlan(problem, std::move(window_offsets), "peak-window");
  }
  return MakePlan(problem, std::move(best_offsets), best_name);
}

uint64_t LowerBound(const std::vector<PlanBuffer>& buffers, uint64_t alignment) {
  std::vector<std::pair<int64_t, int64_t>> events;  // (time, +/- size); ends sort first
  events.reserve(2 * buffers.size());
  for (const PlanBuffer& b : buffers) {
    const auto size = static_cast<int64_t>((b.size + alignment - 1) / alignment * alignment);
    events.emplace_back(b.lower, size);
    events.emplace_back(b.upper, -size);
  }
  std::sort(events.begin(), events.end());
  uint64_t live = 0, peak = 0;
  for (const auto& [time, delta] : events) {
    live += static_cast<uint64_t>(delta);  // modular: adds or subtracts
    peak = std::max(peak, live);
  }
  return peak;
}

Status ValidatePlan(const std::vector<PlanBuffer>& buffers, const std::vector<uint64_t>& offsets,
                    PlanConflict* conflict) {
  if (offsets.size() != buffers.size()) {
    return Err(StatusCode::kInvalidParam, "{} offsets for {} buffers", offsets.size(),
               buffers.size());
  }
  // Sweep time; the live buffers, keyed by offset, must not overlap their neighbours.
  std::vector<std::pair<int64_t, int64_t>> events;  // (time, -(i + 1) end / +(i + 1) start)
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].size == 0) continue;
    if (offsets[i] > std::numeric_limits<uint64_t>::max() - buffers[i].size) {
      return Err(StatusCode::kInvalidParam, "buffer {} ends past 2^64", buffers[i].id);
    }
    events.emplace_back(buffers[i].lower, static_cast<int64_t>(i) + 1);
    events.emplace_back(buffers[i].upper, -static_cast<int64_t>(i) - 1);
  }
  std::sort(events.begin(), events.end());
  std::map<uint64_t, size_t> live;  // offset -> buffer index
  auto report = [&](size_t a, size_t b) {
    if (conflict != nullptr) *conflict = {a, b};
    return Err(StatusCode::kInvalidParam,
               "buffers {} [{}, {}) at {} and {} [{}, {}) at {} are live together and overlap",
               buffers[a].id, buffers[a].lower, buffers[a].upper, offsets[a], buffers[b].id,
               buffers[b].lower, buffers[b].upper, offsets[b]);
  };
  for (const auto& [time, signed_index] : events) {
    if (signed_index < 0) {
      live.erase(offsets[static_cast<size_t>(-signed_index - 1)]);
      continue;
    }
    const auto i = static_cast<size_t>(signed_index - 1);
    const uint64_t begin = offsets[i], end = begin + buffers[i].size;
    auto next = live.lower_bound(begin);
    if (next != live.end() && next->first < end) return report(next->second, i);
    if (next != live.begin()) {
      const size_t prev = std::prev(next)->second;
      if (offsets[prev] + buffers[prev].size > begin) return report(prev, i);
    }
    live.emplace(begin, i);
  }
  return Status::Ok();
}

}  // namespace aclsim::core
