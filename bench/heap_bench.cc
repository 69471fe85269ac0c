// heap_bench: the caching allocator's fragmentation figures (issue 4), each printed next to
// its target and next to a reference allocator run on the same trace, and written as JSON
// (argv[1], default heap_bench.json).
//
// The allocator runs over a pretend device pool modelled like the simulator's (sim/
// device_memory.h): pages counted against a capacity, placed first-fit in twice as much
// address space (bookkeeping only), so the figures are deterministic.
//
// Fragmentation is the figure, 1 - largest free block / free bytes, taken over the
// whole device: free bytes are the pool's free bytes plus the allocator's cached free blocks;
// the largest free block is the larger of the pool's free bytes (the device MMU maps free
// pages wherever they are) and the allocator's largest cached block -- the largest request
// that can still succeed. So it is the share of free memory trapped in the allocator's holes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "bench/figures.h"
#include "core/caching_allocator.h"
#include "sim/range_allocator.h"

namespace {

using aclsim::core::Allocation;
using aclsim::core::CachingAllocator;
using aclsim::driver::MemPool;
using aclsim::driver::PageSize;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

aclsim::bench::Figures g_figures;

// A device pool without memory behind it.
class PoolSource final : public aclsim::core::SegmentSource {
 public:
  explicit PoolSource(uint64_t capacity) : capacity_(capacity), pool_(2 * capacity) {}
  aclsim::Status Acquire(MemPool /*pool*/, PageSize page, size_t bytes, void** addr) override {
    const uint64_t align = aclsim::driver::PageBytes(page);
    const uint64_t rounded = (bytes + align - 1) / align * align;
    if (rounded > free_bytes()) return aclsim::Err(aclsim::StatusCode::kDeviceOom, "pool full");
    auto offset = pool_.Allocate(rounded, align);
    if (!offset) return aclsim::Err(aclsim::StatusCode::kDeviceOom, "address space exhausted");
    *addr = reinterpret_cast<void*>(kBase + *offset);
    return aclsim::Status::Ok();
  }
  void Release(void* addr) override { pool_.Release(reinterpret_cast<uintptr_t>(addr) - kBase); }
  uint64_t free_bytes() const { return capacity_ - pool_.used_bytes(); }
  uint64_t Fence() override { return 0; }
  bool FenceReached(uint64_t /*fence*/) override { return true; }
  void WaitIdle() override {}

 private:
  static constexpr uintptr_t kBase = uintptr_t{1} << 40;
  uint64_t capacity_;
  aclsim::sim::RangeAllocator pool_;
};

double DeviceFragmentation(const PoolSource& source, CachingAllocator& heap) {
  const aclsim::core::HeapStats stats = heap.Stats();
  const double free_bytes = static_cast<double>(source.free_bytes() + stats.free);
  const double largest =
      static_cast<double>(std::max<uint64_t>(source.free_bytes(), stats.largest_free));
  return free_bytes == 0 ? 0.0 : 1.0 - largest / free_bytes;
}

// The reference of the trace figures: first fit in address order, splitting, never
// coalescing freed neighbours. Free holes are indexed by 1 MiB bucket of their start, with a
// segment tree of each bucket's largest hole, so a first-fit search is O(log n).
class FirstFitNoCoalesce {
 public:
  explicit FirstFitNoCoalesce(uint64_t capacity)
      : capacity_(capacity), buckets_((capacity + kBucket - 1) / kBucket), tree_(2 * Leaves(), 0) {
    AddHole(0, capacity);
  }

  // The offset, or -1 when no hole fits.
  int64_t Allocate(uint64_t size) {
    size = (size + 511) / 512 * 512;
    if (tree_[1] < size) return -1;
    size_t node = 1;
    while (node < Leaves()) node = tree_[2 * node] >= size ? 2 * node : 2 * node + 1;
    const size_t bucket = node - Leaves();
    auto& holes = buckets_[bucket];
    for (auto it = holes.begin(); it != holes.end(); ++it) {
      if (it->second < size) continue;
      const uint64_t offset = it->first;
      const uint64_t rest = it->second - size;
      holes.erase(it);
      Update(bucket);
      if (rest > 0) AddHole(offset + size, rest);
      used_[offset] = size;
      allocated_ += size;
      high_water_ = std::max(high_water_, offset + size);
      return static_cast<int64_t>(offset);
    }
    throw std::logic_error("first-fit index out of date");
  }
  void Free(uint64_t offset) {
    auto it = used_.find(offset);
    AddHole(offset, it->second);
    allocated_ -= it->second;
    used_.erase(it);
  }
  uint64_t high_water() const { return high_water_; }
  double Fragmentation() const {
    const double free_bytes = static_cast<double>(capacity_ - allocated_);
    return free_bytes == 0 ? 0.0 : 1.0 - static_cast<double>(tree_[1]) / free_bytes;
  }

 private:
  static constexpr uint64_t kBucket = kMiB;
  size_t Leaves() const {
    size_t n = 1;
    while (n < buckets_.size()) n *= 2;
    return n;
  }
  void AddHole(uint64_t offset, uint64_t size) {
    const size_t bucket = offset / kBucket;
    buckets_[bucket][offset] = size;
    Update(bucket);
  }
  void Update(size_t bucket) {
    uint64_t largest = 0;
    for (const auto& hole : buckets_[bucket]) largest = std::max(largest, hole.second);
    size_t node = Leaves() + bucket;
    tree_[node] = largest;
    for (node /= 2; node >= 1; node /= 2)
      tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
  }

  uint64_t capacity_;
  std::vector<std::map<uint64_t, uint64_t>> buckets_;
  std::vector<uint64_t> tree_;
  std::map<uint64_t, uint64_t> used_;
  uint64_t allocated_ = 0;
  uint64_t high_water_ = 0;
};

// A realistic size mix for device tensors: log-uniform within three bands.
uint64_t TensorSize(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double band = unit(rng);
  double lo = 256, hi = 64 * kKiB;  // 45%: small tensors, scalars, indices
  if (band >= 0.45 && band < 0.85) {
    lo = 64 * kKiB;  // 40%: activations
    hi = 4 * kMiB;
  } else if (band >= 0.85) {
    lo = 4 * kMiB;  // 15%: large activations and weights
    hi = 64 * kMiB;
  }
  return static_cast<uint64_t>(std::exp(std::log(lo) + unit(rng) * (std::log(hi) - std::log(lo))));
}

void RandomTrace() {
  constexpr uint64_t kCapacity = 64 * kGiB;  // the default device (Ascend910B2)
  constexpr uint64_t kTargetLive = 8 * kGiB;
  constexpr int kOps = 1000000;
  PoolSource source(kCapacity);
  CachingAllocator heap(&source, 0);
  FirstFitNoCoalesce reference(kCapacity);
  std::mt19937_64 rng(2026);
  struct Live {
    void* ours;
    int64_t ref;
    uint64_t size;
  };
  std::vector<Live> live;
  uint64_t live_bytes = 0, peak = 0, reserved_at_peak = 0, ref_high_at_peak = 0;
  for (int op = 0; op < kOps; ++op) {
    const bool alloc = live.empty() || rng() % 100 < (live_bytes < kTargetLive ? 60u : 40u);
    if (alloc) {
      const uint64_t size = TensorSize(rng);
      Allocation info;
      info.size = size;
      auto ptr =
          heap.Allocate(MemPool::kHbm, size > kMiB ? PageSize::k2M : PageSize::k4K, size, info);
      if (!ptr.ok()) throw std::runtime_error(ptr.status().message());
      const int64_t ref = reference.Allocate(size);
      if (ref < 0) throw std::runtime_error("reference allocator out of memory");
      live.push_back({*ptr, ref, size});
      live_bytes += size;
      if (live_bytes > peak) {
        peak = live_bytes;
        reserved_at_peak = heap.ReservedBytes();
        if (std::getenv("HEAP_DEBUG")) {
          fmt::print("peak {} reserved {} used {}\n", peak, reserved_at_peak, heap.UsedBytes());
        }
        ref_high_at_peak = reference.high_water();
      }
    } else {
      const size_t i = rng() % live.size();
      (void)heap.Free(live[i].ours);
      reference.Free(static_cast<uint64_t>(live[i].ref));
      live_bytes -= live[i].size;
      live[i] = live.back();
      live.pop_back();
    }
  }
  const double ours_ratio = static_cast<double>(reserved_at_peak) / static_cast<double>(peak);
  const double ref_ratio = static_cast<double>(ref_high_at_peak) / static_cast<double>(peak);
  g_figures.Report("1M-op trace: reserved / allocated at peak", ours_ratio, "x", "<= 1.1",
                   ours_ratio <= 1.1);
  g_figures.Reference("  first fit, no coalescing: span / allocated at peak", ref_ratio, "x");
  // Free half of the live blocks (random ones), then measure.
  std::shuffle(live.begin(), live.end(), rng);
  for (size_t i = 0; i < live.size() / 2; ++i) {
    (void)heap.Free(live[i].ours);
    reference.Free(static_cast<uint64_t>(live[i].ref));
  }
  const double ours_frag = DeviceFragmentation(source, heap) * 100;
  g_figures.Report("fragmentation after freeing half the live blocks", ours_frag, "%", "<= 5",
                   ours_frag <= 5.0);
  g_figures.Reference("  first fit, no coalescing", reference.Fragmentation() * 100, "%");
}

// The CANN runtime literature's comparison: operator workspaces allocated and freed as a
// model runs (a window of in-flight operators), with and without a pool. Without pooling
// every workspace is carved first-fit from device memory (HUGE_FIRST page rounding: > 1 MiB
// on 2 MiB pages) and given back without coalescing; with pooling it comes from the caching
// allocator. The figure is the device fragmentation
// averaged over the run.
void WorkspaceTable() {
  constexpr uint64_t kCapacity = 64 * kGiB;
  constexpr int kOps = 200000;
  constexpr size_t kWindow = 24;
  std::mt19937_64 rng(7);
  auto workspace = [&rng] {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    return static_cast<uint64_t>(std::exp(
        std::log(16.0 * kKiB) + unit(rng) * (std::log(256.0 * kMiB) - std::log(16.0 * kKiB))));
  };
  // Without pooling.
  FirstFitNoCoalesce direct(kCapacity);
  std::deque<uint64_t> direct_live;
  // With pooling.
  PoolSource source(kCapacity);
  CachingAllocator heap(&source, 0);
  std::deque<void*> pooled_live;
  double direct_sum = 0, pooled_sum = 0;
  int samples = 0;
  for (int op = 0; op < kOps; ++op) {
    const uint64_t size = workspace();
    const uint64_t page = size > kMiB ? 2 * kMiB : 4 * kKiB;
    const int64_t offset = direct.Allocate((size + page - 1) / page * page);
    if (offset < 0) throw std::runtime_error("direct allocation out of memory");
    direct_live.push_back(static_cast<uint64_t>(offset));
    Allocation info;
    info.size = size;
    auto ptr =
        heap.Allocate(MemPool::kHbm, size > kMiB ? PageSize::k2M : PageSize::k4K, size, info);
    if (!ptr.ok()) throw std::runtime_error(ptr.status().message());
    pooled_live.push_back(*ptr);
    if (direct_live.size() > kWindow) {
      direct.Free(direct_live.front());
      direct_live.pop_front();
      (void)heap.Free(pooled_live.front());
      pooled_live.pop_front();
    }
    if (op % 1000 == 999) {
      direct_sum += direct.Fragmentation();
      pooled_sum += DeviceFragmentation(source, heap);
      ++samples;
    }
  }
  const double direct_frag = direct_sum / samples * 100;
  const double pooled_frag = pooled_sum / samples * 100;
  g_figures.Reference("workspaces without pooling (literature: 35-50%)", direct_frag, "%");
  g_figures.Report("workspaces with pooling and coalescing", pooled_frag, "%",
                   "<= 10 (literature: 5-10)", pooled_frag <= 10);
}

}  // namespace

int main(int argc, char** argv) {
  fmt::print("aclsim caching allocator: fragmentation (deterministic traces)\n");
  std::fflush(stdout);
  try {
    RandomTrace();
    WorkspaceTable();
  } catch (const std::exception& e) {
    fmt::print(stderr, "heap_bench: {}\n", e.what());
    return 1;
  }
  g_figures.WriteJson(argc > 1 ? argv[1] : "heap_bench.json", "allocator", "aclsim caching");
  return g_figures.AllPass() ? 0 : 1;
}
