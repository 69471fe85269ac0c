// Greedy placement without a conflict graph (private to the MemoryPlanner's sources).
//
// A Placer keeps the buffers placed so far in a segment tree over the compressed time axis
// (the problem's sections). Every node holds two unions of memory ranges, each a sorted list
// of disjoint runs (touching ranges merge):
//   own  the buffers whose time range covers the node's range (their canonical nodes);
//   sub  every buffer with a canonical node in the node's subtree.
// The memory taken at some moment of a time range [l, r) is then the union of `sub` of the
// O(log T) nodes that cover [l, r) and `own` of their ancestors, so a buffer finds its gap
// from O(log T) short lists instead of visiting every placed buffer it conflicts with.
// Placing costs O(log T) list insertions. Runs merge, so the lists stay short in practice
// (pangu_2.6B: 4 runs on average): the memory in use over a stretch of time is mostly one
// block with a few holes. A list keeps its first runs inline in the tree node and moves to a
// heap vector only when it outgrows them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/plan_problem.h"

namespace aclsim::core::plan {

// How a buffer chooses among the gaps it fits in.
enum class Fit {
  kFirst,  // the lowest gap (TFLite's greedy by size)
  kBest,   // the smallest gap; the lowest of equal ones; on top if none fits
};

class Placer {
 public:
  explicit Placer(const Problem& problem);

  // Places the buffers one by one in `order` (indices into the problem; every non-zero-size
  // buffer exactly once), each in a gap among the already placed buffers live at some moment
  // of its lifetime. Writes offsets[i] for every buffer in `order` (0 for the others) and
  // returns the arena. The result is exactly that of a scan over all conflicting pairs.
  uint64_t PlaceInOrder(const std::vector<uint32_t>& order, Fit fit,
                        std::vector<uint64_t>* offsets);
  // The same with some buffers already in place: `fixed` (buffer, offset) pairs are put
  // first, as given (they may not overlap each other), then `order` (the other non-zero-size
  // buffers) is placed around them. offsets[i] is written for both.
  uint64_t PlaceAround(const std::vector<std::pair<uint32_t, uint64_t>>& fixed,
                       const std::vector<uint32_t>& order, Fit fit, std::vector<uint64_t>* offsets);

 private:
  struct Run {
    uint64_t begin;
    uint64_t end;
  };
  // A union of memory ranges [begin, end): disjoint, sorted, touching runs merged. Up to
  // kInline runs live in `runs`; past that all of them are in spill_[spill - 1].
  static constexpr uint32_t kInline = 4;
  struct List {
    uint32_t count = 0;  // runs inline (when spill == 0)
    uint32_t spill = 0;
    Run runs[kInline];
  };
  struct Span {
    const Run* begin;
    const Run* end;
  };

  // Clear() empties the arena; Fix(b, at) puts buffer b at `at`; Find(b, fit) is the offset
  // `fit` chooses for b among the buffers placed so far.
  void Clear();
  void Fix(uint32_t b, uint64_t at);
  uint64_t Find(uint32_t b, Fit fit);
  Span View(const List& list) const;
  bool Empty(const List& list) const { return list.count == 0 && list.spill == 0; }
  void AddRun(List* list, uint64_t begin, uint64_t end);
  void Insert(size_t node, uint32_t lo, uint32_t hi, uint32_t l, uint32_t r, uint64_t begin,
              uint64_t end);
  void Collect(size_t node, uint32_t lo, uint32_t hi, uint32_t l, uint32_t r);
  uint64_t FirstFit(uint64_t size);
  uint64_t BestFit(uint64_t size);

  const Problem& p_;
  std::vector<List> own_, sub_;          // per tree node (preorder: 2T - 1 nodes)
  std::vector<std::vector<Run>> spill_;  // lists that outgrew kInline; reused between orders
  size_t spilled_ = 0;                   // spill_[0 .. spilled_) are in use
  bool dirty_ = false;                   // something was placed since the last Clear()
  std::vector<Span> collected_;          // the lists a query looks at
  std::vector<Run> merged_;              // scratch of BestFit
};

}  // namespace aclsim::core::plan
