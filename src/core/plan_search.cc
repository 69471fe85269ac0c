// Branch and bound over canonical placements, for small hard inputs.
//
// The idea is MiniMalloc's (Moffitt, ASPLOS 2023): it suffices to search plans in which
// buffers are placed in non-decreasing order of offset, each at its lowest possible offset
// (the highest end of the placed buffers it conflicts with). A node of the search is a
// partial plan; its children place one more buffer, tried in order of that lowest offset
// (ties: a static preorder). Pruned:
//   - canonical order: a child may not go below the last placed buffer (or level with it and
//     earlier in the preorder): that plan is reached through another branch;
//   - dominance: a buffer placed at or above the lowest end any unplaced buffer can reach
//     would leave a gap that buffer could fill;
//   - section bound: in every stretch of time where the live set does not change, the
//     floor (the end of the highest placed buffer there, at least the current offset) plus
//     the bytes still unplaced there must fit in the capacity.
// The preorder is tried in several variants with growing node limits (round robin), as one
// variant can be lucky where another is not.
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/plan_problem.h"

namespace aclsim::core::plan {
namespace {

constexpr uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();

class Search {
 public:
  Search(const Problem& problem, uint64_t capacity) : p_(problem), capacity_(capacity) {
    const size_t n = p_.count();
    std::vector<int64_t> times;
    for (size_t i = 0; i < n; ++i) {
      if (p_.size[i] == 0) continue;
      times.push_back(p_.lower[i]);
      times.push_back(p_.upper[i]);
      active_.push_back(static_cast<uint32_t>(i));
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    auto index_of = [&times](int64_t t) {
      return static_cast<uint32_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
    };
    first_section_.assign(n, 0);
    end_section_.assign(n, 0);
    remaining_.assign(times.size(), 0);
    floor_.assign(times.size(), 0);
    levels_ = 1;
    while ((size_t{1} << levels_) <= times.size()) ++levels_;
    lowest_.assign(levels_ * times.size(), 0);
    for (const uint32_t i : active_) {
      first_section_[i] = index_of(p_.lower[i]);
      end_section_[i] = index_of(p_.upper[i]);
      for (uint32_t s = first_section_[i]; s < end_section_[i]; ++s) remaining_[s] += p_.size[i];
    }
    candidates_.resize(active_.size() + 1);
    peak_.assign(n, 0);
    for (const uint32_t i : active_) {
      for (uint32_t s = first_section_[i]; s < end_section_[i]; ++s) {
        peak_[i] = std::max(peak_[i], remaining_[s]);
      }
    }
  }

  // The preorder variants: 0 = (peak, area), 1 = (peak, size), 2 = (area), 3 = (duration).
  static constexpr int kVariants = 4;

  // Runs one variant with `limit` nodes. 1 = found, 0 = proved impossible, -1 = out of nodes.
  int Run(int variant, uint64_t limit, uint64_t* used, std::vector<uint64_t>* offsets) {
    SetPreorder(variant);
    offset_.assign(p_.count(), kUnplaced);
    min_offset_.assign(p_.count(), 0);
    std::fill(floor_.begin(), floor_.end(), 0);
    nodes_left_ = limit;
    unplaced_ = active_.size();
    const int outcome = Node(0, 0, 0);
    *used += limit - nodes_left_;
    if (outcome == 1) {
      offsets->assign(p_.count(), 0);
      for (const uint32_t i : active_) (*offsets)[i] = solution_[i];
    }
    return outcome;
  }

 private:
  void SetPreorder(int variant) {
    auto area = [this](uint32_t i) {
      return static_cast<double>(p_.size[i]) * static_cast<double>(p_.upper[i] - p_.lower[i]);
    };
    std::vector<uint32_t> order = active_;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      switch (variant) {
        case 0:
          if (peak_[a] != peak_[b]) return peak_[a] > peak_[b];
          return area(a) > area(b);
        case 1:
          if (peak_[a] != peak_[b]) return peak_[a] > peak_[b];
          return p_.size[a] > p_.size[b];
        case 2:
          return area(a) > area(b);
        default:
          return p_.upper[a] - p_.lower[a] > p_.upper[b] - p_.lower[b];
      }
    });
    rank_.assign(p_.count(), 0);
    by_rank_.assign(order.size(), 0);
    for (size_t r = 0; r < order.size(); ++r) {
      rank_[order[r]] = static_cast<uint32_t>(r);
      by_rank_[r] = order[r];
    }
  }

  // The section bound after placing a buffer at `offset`. A section's floor is at least
  // the lowest offset any of its unplaced buffers can still take: the bytes below are lost.
  bool SectionsFit(uint64_t offset) {
    // The cheap part first: the floor and the offset alone.
    const size_t sections = floor_.size();
    for (size_t s = 0; s < sections; ++s) {
      if (remaining_[s] != 0 && std::max(floor_[s], offset) + remaining_[s] > capacity_) {
        return false;
      }
    }
    // lowest_[s] = min of min_offset_ over the unplaced buffers live in section s: each
    // buffer lowers the two power-of-two blocks that tile its span at one level of a
    // table; then every level pushes its minima down to the one below.
    std::fill(lowest_.begin(), lowest_.end(), kUnplaced);
    for (const uint32_t i : active_) {
      if (offset_[i] != kUnplaced) continue;
      const uint32_t first = first_section_[i], count = end_section_[i] - first;
      const uint32_t level = 31 - static_cast<uint32_t>(__builtin_clz(count));
      uint64_t* row = lowest_.data() + level * sections;
      row[first] = std::min(row[first], min_offset_[i]);
      const uint32_t last = end_section_[i] - (1u << level);
      row[last] = std::min(row[last], min_offset_[i]);
    }
    for (size_t level = levels_ - 1; level > 0; --level) {
      const uint64_t* row = lowest_.data() + level * sections;
      uint64_t* below = lowest_.data() + (level - 1) * sections;
      const size_t half = size_t{1} << (level - 1);
      for (size_t s = 0; s + 2 * half <= sections; ++s) {
        if (row[s] == kUnplaced) continue;
        below[s] = std::min(below[s], row[s]);
        below[s + half] = std::min(below[s + half], row[s]);
      }
    }
    for (size_t s = 0; s < sections; ++s) {
      if (remaining_[s] == 0) continue;
      if (std::max({floor_[s], offset, lowest_[s]}) + remaining_[s] > capacity_) return false;
    }
    return true;
  }

  int Node(uint64_t last_offset, uint32_t last_rank, size_t depth) {
    if (unplaced_ == 0) {
      solution_ = offset_;
      return 1;
    }
    if (nodes_left_ == 0) return -1;
    --nodes_left_;
    // Candidates by (lowest offset, rank); only those below the lowest end any unplaced
    // buffer can reach (dominance) and not below the last placement (canonical order).
    uint64_t lowest_end = kUnplaced;
    for (const uint32_t i : active_) {
      if (offset_[i] == kUnplaced) lowest_end = std::min(lowest_end, min_offset_[i] + p_.size[i]);
    }
    std::vector<std::pair<uint64_t, uint32_t>>& candidates = candidates_[depth];
    candidates.clear();
    for (const uint32_t i : active_) {
      const uint64_t at = min_offset_[i];
      if (offset_[i] != kUnplaced || at >= lowest_end || at + p_.size[i] > capacity_) continue;
      if (at < last_offset || (at == last_offset && rank_[i] < last_rank)) continue;
      candidates.emplace_back(at, rank_[i]);
    }
    std::sort(candidates.begin(), candidates.end());
    int outcome = 0;
    for (const auto& [at, rank] : candidates) {
      const uint32_t b = by_rank_[rank];
      const uint64_t top = at + p_.size[b];
      // Place b and record what changes.
      offset_[b] = at;
      --unplaced_;
      const size_t mark = undo_.size();
      for (const uint32_t* it = p_.ConflictsBegin(b); it != p_.ConflictsEnd(b); ++it) {
        if (offset_[*it] == kUnplaced && min_offset_[*it] < top) {
          undo_.emplace_back(*it, min_offset_[*it]);
          min_offset_[*it] = top;
        }
      }
      const size_t floor_mark = floor_undo_.size();
      for (uint32_t s = first_section_[b]; s < end_section_[b]; ++s) {
        floor_undo_.emplace_back(s, floor_[s]);
        floor_[s] = top;
        remaining_[s] -= p_.size[b];
      }
      if (SectionsFit(at)) outcome = Node(at, rank, depth + 1);
      // Undo.
      for (uint32_t s = first_section_[b]; s < end_section_[b]; ++s) remaining_[s] += p_.size[b];
      while (floor_undo_.size() > floor_mark) {
        floor_[floor_undo_.back().first] = floor_undo_.back().second;
        floor_undo_.pop_back();
      }
      while (undo_.size() > mark) {
        min_offset_[undo_.back().first] = undo_.back().second;
        undo_.pop_back();
      }
      offset_[b] = kUnplaced;
      ++unplaced_;
      if (outcome != 0) return outcome;
    }
    return 0;
  }

  const Problem& p_;
  const uint64_t capacity_;
  std::vector<uint32_t> active_;  // the non-zero-size buffers
  std::vector<uint32_t> first_section_, end_section_;
  std::vector<uint64_t> remaining_;  // per section: unplaced bytes live there
  std::vector<uint64_t> floor_;      // per section: end of the highest placed buffer there
  std::vector<uint64_t> lowest_;     // per level and section: scratch of SectionsFit
  size_t levels_ = 1;
  std::vector<uint64_t> peak_;  // per buffer: most bytes live at once in its lifetime
  std::vector<uint32_t> rank_, by_rank_;
  std::vector<uint64_t> offset_, min_offset_, solution_;
  std::vector<std::pair<uint32_t, uint64_t>> undo_, floor_undo_;
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> candidates_;  // per depth
  size_t unplaced_ = 0;
  uint64_t nodes_left_ = 0;
};

}  // namespace

bool SearchWithin(const Problem& problem, uint64_t capacity, uint64_t* node_budget,
                  std::vector<uint64_t>* offsets) {
  Search search(problem, capacity);
  // Round robin over the preorders, doubling the node limit each round.
  uint64_t limit = std::max<uint64_t>(1000, 2 * problem.count());
  while (*node_budget > 0) {
    bool all_proved = true;
    for (int variant = 0; variant<Search::kVariants&& * node_budget> 0; ++variant) {
      uint64_t used = 0;
      const int outcome = search.Run(variant, std::min(limit, *node_budget), &used, offsets);
      *node_budget -= std::min(used, *node_budget);
      if (outcome == 1) return true;
      if (outcome == 0) return false;  // the search is complete: no plan fits
      all_proved = false;
    }
    if (all_proved) return false;
    limit *= 2;
  }
  return false;
}

}  // namespace aclsim::core::plan
