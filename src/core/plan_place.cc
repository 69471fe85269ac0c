// Greedy placement over a segment tree of memory-range unions (see plan_place.h).
#include "core/plan_place.h"

#include <algorithm>
#include <limits>

namespace aclsim::core::plan {
namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

}  // namespace

Placer::Placer(const Problem& problem) : p_(problem) {
  // Splitting at the midpoint, the tree over T sections is ceil(log2 T) deep and has 2T - 1
  // nodes, numbered in preorder: the node of [lo, hi) split at mid has its left child next to
  // it and its right child 2 (mid - lo) further (past the 2 (mid - lo) - 1 nodes of the left
  // subtree).
  const size_t nodes = p_.sections == 0 ? 1 : 2 * size_t{p_.sections} - 1;
  own_.resize(nodes);
  sub_.resize(nodes);
}

Placer::Span Placer::View(const List& list) const {
  if (list.spill != 0) {
    const std::vector<Run>& runs = spill_[list.spill - 1];
    return {runs.data(), runs.data() + runs.size()};
  }
  return {list.runs, list.runs + list.count};
}

void Placer::AddRun(List* list, uint64_t begin, uint64_t end) {
  if (list->spill == 0) {
    // Inline: the runs [first, last) touch or overlap [begin, end) and merge with it.
    Run* runs = list->runs;
    const uint32_t count = list->count;
    uint32_t first = 0;
    while (first < count && runs[first].end < begin) ++first;
    uint32_t last = first;
    while (last < count && runs[last].begin <= end) ++last;
    if (first != last) {
      runs[first] = {std::min(runs[first].begin, begin), std::max(runs[last - 1].end, end)};
      std::copy(runs + last, runs + count, runs + first + 1);
      list->count = count - (last - first - 1);
      return;
    }
    if (count < kInline) {
      std::copy_backward(runs + first, runs + count, runs + count + 1);
      runs[first] = {begin, end};
      list->count = count + 1;
      return;
    }
    // Full: move the runs to a vector of the pool.
    if (spilled_ == spill_.size()) spill_.emplace_back();
    spill_[spilled_].assign(runs, runs + count);
    list->spill = static_cast<uint32_t>(++spilled_);
  }
  std::vector<Run>& runs = spill_[list->spill - 1];
  auto first = std::lower_bound(runs.begin(), runs.end(), begin,
                                [](const Run& run, uint64_t at) { return run.end < at; });
  auto last = first;
  while (last != runs.end() && last->begin <= end) ++last;
  if (first == last) {
    runs.insert(first, Run{begin, end});
    return;
  }
  *first = {std::min(first->begin, begin), std::max(std::prev(last)->end, end)};
  runs.erase(first + 1, last);
}

void Placer::Insert(size_t node, uint32_t lo, uint32_t hi, uint32_t l, uint32_t r, uint64_t begin,
                    uint64_t end) {
  AddRun(&sub_[node], begin, end);
  if (l <= lo && hi <= r) {
    AddRun(&own_[node], begin, end);
    return;
  }
  const uint32_t mid = lo + (hi - lo) / 2;
  if (l < mid) Insert(node + 1, lo, mid, l, r, begin, end);
  if (mid < r) Insert(node + 2 * (mid - lo), mid, hi, l, r, begin, end);
}

void Placer::Collect(size_t node, uint32_t lo, uint32_t hi, uint32_t l, uint32_t r) {
  if (l <= lo && hi <= r) {
    collected_.push_back(View(sub_[node]));
    return;
  }
  if (!Empty(own_[node])) collected_.push_back(View(own_[node]));
  const uint32_t mid = lo + (hi - lo) / 2;
  const size_t left = node + 1, right = node + 2 * (mid - lo);
  if (l < mid && !Empty(sub_[left])) Collect(left, lo, mid, l, r);
  if (mid < r && !Empty(sub_[right])) Collect(right, mid, hi, l, r);
}

uint64_t Placer::FirstFit(uint64_t size) {
  // Raise the candidate past every run that overlaps it until a full round of the lists
  // leaves it where it is. The candidate only rises, so each list's scan resumes where it
  // stopped: a span's `begin` is moved past the runs that end at or below the candidate.
  const size_t count = collected_.size();
  uint64_t at = 0;
  size_t quiet = 0;  // lists checked in a row without a change
  size_t i = 0;
  while (quiet < count) {
    // The first run ending after `at`; it blocks when it begins before at + size.
    Span& runs = collected_[i];
    if (runs.end - runs.begin > 8) {
      runs.begin = std::upper_bound(runs.begin, runs.end, at,
                                    [](uint64_t value, const Run& r) { return value < r.end; });
    } else {
      while (runs.begin != runs.end && runs.begin->end <= at) ++runs.begin;
    }
    if (runs.begin != runs.end && runs.begin->begin < at + size) {
      at = runs.begin->end;  // and look at this list again: its next run may block too
      ++runs.begin;
      quiet = 0;
      continue;
    }
    ++quiet;
    i = i + 1 == count ? 0 : i + 1;
  }
  return at;
}

uint64_t Placer::BestFit(uint64_t size) {
  merged_.clear();
  for (const Span& runs : collected_) merged_.insert(merged_.end(), runs.begin, runs.end);
  std::sort(merged_.begin(), merged_.end(),
            [](const Run& a, const Run& b) { return a.begin < b.begin; });
  uint64_t cursor = 0;  // the lowest free byte above the runs seen so far
  uint64_t best = kNone, best_gap = kNone;
  for (const Run& run : merged_) {
    if (run.begin >= cursor + size && run.begin - cursor < best_gap) {
      best_gap = run.begin - cursor;
      best = cursor;
    }
    cursor = std::max(cursor, run.end);
  }
  return best == kNone ? cursor : best;
}

void Placer::Clear() {
  // A fresh tree is empty already: the first order skips touching all of it again (at the
  // planner's sizes the first touch of the tree's pages is a good part of its cost).
  if (!dirty_) return;
  dirty_ = false;
  std::fill(own_.begin(), own_.end(), List{});
  std::fill(sub_.begin(), sub_.end(), List{});
  spilled_ = 0;
}

void Placer::Fix(uint32_t b, uint64_t at) {
  dirty_ = true;
  Insert(0, 0, p_.sections, p_.first_section[b], p_.end_section[b], at, at + p_.size[b]);
}

uint64_t Placer::Find(uint32_t b, Fit fit) {
  collected_.clear();
  if (!Empty(sub_[0])) Collect(0, 0, p_.sections, p_.first_section[b], p_.end_section[b]);
  return fit == Fit::kFirst ? FirstFit(p_.size[b]) : BestFit(p_.size[b]);
}

uint64_t Placer::PlaceInOrder(const std::vector<uint32_t>& order, Fit fit,
                              std::vector<uint64_t>* offsets) {
  return PlaceAround({}, order, fit, offsets);
}

uint64_t Placer::PlaceAround(const std::vector<std::pair<uint32_t, uint64_t>>& fixed,
                             const std::vector<uint32_t>& order, Fit fit,
                             std::vector<uint64_t>* offsets) {
  Clear();
  offsets->assign(p_.count(), 0);
  uint64_t arena = 0;
  for (const auto& [b, at] : fixed) {
    (*offsets)[b] = at;
    arena = std::max(arena, at + p_.size[b]);
    Fix(b, at);
  }
  for (const uint32_t b : order) {
    const uint64_t at = Find(b, fit);
    (*offsets)[b] = at;
    arena = std::max(arena, at + p_.size[b]);
    Fix(b, at);
  }
  return arena;
}

}  // namespace aclsim::core::plan
