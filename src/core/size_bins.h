// SizeBins: free blocks sorted into size classes, for best-fit search in O(1).
//
// Sizes are counted in granules (the allocator's unit, 512 bytes). Classes follow TLSF:
// granule counts 1..7 have a class each; above that every power of two is split into 8
// classes (so a class spans at most 1/8 of its sizes). Each class keeps an intrusive
// doubly-linked list of its blocks, and a bitmap tells which classes are non-empty.
//
// FindFit(n) returns the smallest block of at least n granules among those it looks at:
// the first kScanLimit blocks of n's own class (they may be smaller or larger than n; an
// exact size ends the scan), then, if none fits, the smallest of the first kScanLimit blocks of the
// next non-empty class (every block there fits).
//
// `Node` must have members `Node* bin_prev`, `Node* bin_next`, `size_t size` (bytes) and
// `uint16_t bin`. Thread-safety: none; the owner serialises calls.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace aclsim::core {

template <typename Node, size_t kGranule>
class SizeBins {
 public:
  static constexpr size_t kLinear = 8;  // classes 0..7: granule counts 0..7 (0 unused)
  static constexpr size_t kSubLog2 = 3;
  static constexpr size_t kClasses = kLinear + 56 * (size_t{1} << kSubLog2);
  static constexpr size_t kScanLimit = 64;

  static size_t ClassOf(size_t granules) {
    if (granules < kLinear) return granules;
    const size_t top = 63 - static_cast<size_t>(__builtin_clzll(granules));  // >= 3
    const size_t sub = (granules >> (top - kSubLog2)) & ((size_t{1} << kSubLog2) - 1);
    return kLinear + (top - kSubLog2) * (size_t{1} << kSubLog2) + sub;
  }

  void Insert(Node* node) {
    const size_t cls = ClassOf(node->size / kGranule);
    node->bin = static_cast<uint16_t>(cls);
    node->bin_prev = nullptr;
    node->bin_next = heads_[cls];
    if (heads_[cls] != nullptr) heads_[cls]->bin_prev = node;
    heads_[cls] = node;
    bitmap_[cls / 64] |= uint64_t{1} << (cls % 64);
    ++count_;
  }

  void Remove(Node* node) {
    const size_t cls = node->bin;
    if (node->bin_prev != nullptr) {
      node->bin_prev->bin_next = node->bin_next;
    } else {
      heads_[cls] = node->bin_next;
      if (heads_[cls] == nullptr) bitmap_[cls / 64] &= ~(uint64_t{1} << (cls % 64));
    }
    if (node->bin_next != nullptr) node->bin_next->bin_prev = node->bin_prev;
    node->bin_prev = node->bin_next = nullptr;
    --count_;
  }

  // The best-fitting block for `bytes` (a multiple of kGranule), or nullptr. Not removed.
  Node* FindFit(size_t bytes) const {
    const size_t cls = ClassOf(bytes / kGranule);
    Node* best = nullptr;
    size_t scanned = 0;
    for (Node* n = heads_[cls]; n != nullptr && scanned < kScanLimit; n = n->bin_next, ++scanned) {
      if (n->size == bytes) return n;
      if (n->size > bytes && (best == nullptr || n->size < best->size)) best = n;
    }
    if (best != nullptr) return best;
    const size_t next = NextNonEmpty(cls + 1);
    if (next >= kClasses) return nullptr;
    scanned = 0;
    for (Node* n = heads_[next]; n != nullptr && scanned < kScanLimit; n = n->bin_next, ++scanned) {
      if (best == nullptr || n->size < best->size) best = n;
    }
    return best;
  }

  size_t count() const { return count_; }
  bool empty() const { return count_ == 0; }

  // The size of the largest block (0 if none): the highest non-empty class, scanned whole.
  size_t LargestSize() const {
    for (size_t word = bitmap_.size(); word-- > 0;) {
      if (bitmap_[word] == 0) continue;
      const size_t cls = word * 64 + 63 - static_cast<size_t>(__builtin_clzll(bitmap_[word]));
      size_t largest = 0;
      for (Node* n = heads_[cls]; n != nullptr; n = n->bin_next)
        largest = std::max(largest, n->size);
      return largest;
    }
    return 0;
  }

  // Visits every block (no changes during the visit).
  template <typename F>
  void ForEach(F&& visit) const {
    for (Node* head : heads_) {
      for (Node* n = head; n != nullptr; n = n->bin_next) visit(n);
    }
  }

 private:
  size_t NextNonEmpty(size_t from) const {
    for (size_t word = from / 64; word < bitmap_.size(); ++word) {
      uint64_t bits = bitmap_[word];
      if (word == from / 64) bits &= ~uint64_t{0} << (from % 64);
      if (bits != 0) return word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
    }
    return kClasses;
  }

  std::array<Node*, kClasses> heads_{};
  std::array<uint64_t, (kClasses + 63) / 64> bitmap_{};
  size_t count_ = 0;
};

}  // namespace aclsim::core
