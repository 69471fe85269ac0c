#include "core/memory_table.h"

#include <algorithm>

namespace aclsim::core {

const char* MemRegionName(MemRegion region) {
  switch (region) {
    case MemRegion::kHbm:
      return "HBM";
    case MemRegion::kDdr:
      return "DDR";
    case MemRegion::kCount:
      break;
  }
  return "?";
}

void MemoryTable::Insert(const Allocation& allocation) {
  std::lock_guard<std::mutex> lock(mu_);
  by_base_[reinterpret_cast<uintptr_t>(allocation.base)] = allocation;
  used_ += allocation.reserved;
  RegionUsage& region = regions_[static_cast<size_t>(allocation.region)];
  region.current += allocation.reserved;
  region.peak = std::max(region.peak, region.current);
}

RegionUsage MemoryTable::Usage(MemRegion region) const {
  std::lock_guard<std::mutex> lock(mu_);
  return regions_[static_cast<size_t>(region)];
}

std::optional<Allocation> MemoryTable::Erase(const void* base) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return std::nullopt;
  Allocation allocation = it->second;
  used_ -= allocation.reserved;
  regions_[static_cast<size_t>(allocation.region)].current -= allocation.reserved;
  by_base_.erase(it);
  return allocation;
}

size_t MemoryTable::FindAll(const void* const* ptrs, const size_t* bytes, size_t n) const {
  if (n == 0) return 0;
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < n; ++i) {
    auto allocation = FindContainingLocked(ptrs[i]);
    if (!allocation) return i;
    auto addr = reinterpret_cast<uintptr_t>(ptrs[i]);
    auto base = reinterpret_cast<uintptr_t>(allocation->base);
    if (bytes[i] > allocation->size || addr - base > allocation->size - bytes[i]) return i;
  }
  return n;
}

std::optional<Allocation> MemoryTable::FindRun(const void* ptr, size_t bytes,
                                               std::string_view api) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto first = FindContainingLocked(ptr);
  if (!first || api != first->api) return std::nullopt;
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  if (bytes > UINTPTR_MAX - addr) return std::nullopt;
  const uintptr_t want_end = addr + bytes;
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(first->base));
  uintptr_t end = it->first + it->second.size;
  while (end < want_end) {
    ++it;
    if (it == by_base_.end() || it->first != end || api != it->second.api) return std::nullopt;
    end += it->second.size;
  }
  Allocation run = *first;
  run.size = end - reinterpret_cast<uintptr_t>(first->base);
  run.reserved = run.size;
  return run;
}

std::optional<Allocation> MemoryTable::FindContaining(const void* ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  return FindContainingLocked(ptr);
}

std::optional<Allocation> MemoryTable::FindContainingLocked(const void* ptr) const {
  auto addr = reinterpret_cast<uintptr_t>(ptr);
  auto it = by_base_.upper_bound(addr);
  if (it == by_base_.begin()) return std::nullopt;
  --it;
  const Allocation& allocation = it->second;
  if (addr >= it->first + allocation.size && !(allocation.size == 0 && addr == it->first)) {
    return std::nullopt;
  }
  return allocation;
}

std::optional<Allocation> MemoryTable::Find(const void* ptr, size_t bytes) const {
  auto allocation = FindContaining(ptr);
  if (!allocation) return std::nullopt;
  auto addr = reinterpret_cast<uintptr_t>(ptr);
  auto base = reinterpret_cast<uintptr_t>(allocation->base);
  if (bytes > allocation->size || addr - base > allocation->size - bytes) return std::nullopt;
  return allocation;
}

size_t MemoryTable::Count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_base_.size();
}

size_t MemoryTable::UsedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return used_;
}

void MemoryTable::ForEach(const std::function<void(const Allocation&)>& visit) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& entry : by_base_) visit(entry.second);
}

std::map<uintptr_t, Allocation> MemoryTable::TakeAll() {
  std::lock_guard<std::mutex> lock(mu_);
  used_ = 0;
  for (RegionUsage& region : regions_) region.current = 0;
  std::map<uintptr_t, Allocation> all;
  all.swap(by_base_);
  return all;
}

}  // namespace aclsim::core
