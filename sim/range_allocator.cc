#include "sim/range_allocator.h"

#include <algorithm>
#include <iterator>

namespace aclsim::sim {

RangeAllocator::RangeAllocator(uint64_t capacity) : capacity_(capacity) {
  if (capacity_ > 0) free_[0] = capacity_;
}

std::optional<uint64_t> RangeAllocator::Allocate(uint64_t size, uint64_t alignment) {
  if (size == 0 || alignment == 0) return std::nullopt;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first;
    const uint64_t end = start + it->second;
    const uint64_t aligned = (start + alignment - 1) / alignment * alignment;
    if (aligned < start || aligned >= end || end - aligned < size) continue;
    // Split the free range into [start, aligned) and [aligned + size, end).
    free_.erase(it);
    if (aligned > start) free_[start] = aligned - start;
    if (aligned + size < end) free_[aligned + size] = end - (aligned + size);
    used_ranges_[aligned] = size;
    used_ += size;
    return aligned;
  }
  return std::nullopt;
}

uint64_t RangeAllocator::Release(uint64_t offset) {
  auto used = used_ranges_.find(offset);
  if (used == used_ranges_.end()) return 0;
  const uint64_t released = used->second;
  used_ranges_.erase(used);
  used_ -= released;
  uint64_t start = offset;
  uint64_t size = released;

  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = size;
  return released;
}

uint64_t RangeAllocator::largest_free_range() const {
  uint64_t largest = 0;
  for (const auto& [offset, size] : free_) largest = std::max(largest, size);
  return largest;
}

}  // namespace aclsim::sim
