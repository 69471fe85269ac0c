#include "sim/device_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace aclsim::sim {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
// Address space per pool, as a multiple of its capacity: device pages need not be contiguous
// physically (the device MMU maps them), so a pool's free bytes stay usable however its
// address space is fragmented -- up to this much headroom.
constexpr uint64_t kAddressSpaceFactor = 2;
// Address space for aclrtReserveMemAddress, as a multiple of the HBM capacity.
constexpr uint64_t kReserveSpaceFactor = 2;

uint64_t RoundUp(uint64_t value, uint64_t to) { return (value + to - 1) / to * to; }

const char* PoolName(driver::MemPool pool) { return pool == driver::MemPool::kHbm ? "HBM" : "DDR"; }

}  // namespace

DeviceMemory::DeviceMemory(uint32_t device_id, uint64_t hbm_bytes, uint64_t ddr_bytes,
                           uint64_t huge_bytes)
    : device_id_(device_id) {
  TablesChanged();
  // Pools start on 1 GiB boundaries so that 1 GiB pages can be aligned; the extra GiB lets
  // the first pool be aligned whatever address mmap returns.
  const uint64_t hbm_span = RoundUp(hbm_bytes * kAddressSpaceFactor, kGiB);
  const uint64_t ddr_span = RoundUp(ddr_bytes * kAddressSpaceFactor, kGiB);
  const uint64_t reserve_span = RoundUp(hbm_bytes * kReserveSpaceFactor, kGiB);
  mapping_bytes_ = static_cast<size_t>(hbm_span + ddr_span + reserve_span + kGiB);
  void* mapping = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    status_ = Err(StatusCode::kBadAlloc,
                  "device {}: cannot reserve {} bytes of host address space for device memory: {}",
                  device_id, mapping_bytes_, std::strerror(errno));
    mapping_bytes_ = 0;
    return;
  }
  mapping_ = mapping;
  const uintptr_t aligned = RoundUp(reinterpret_cast<uintptr_t>(mapping), kGiB);
  hbm_.base = aligned;
  hbm_.capacity = hbm_bytes;
  hbm_.huge_capacity = std::min(hbm_bytes, huge_bytes);
  hbm_.allocator = RangeAllocator(hbm_span);
  ddr_.base = aligned + hbm_span;
  ddr_.capacity = ddr_bytes;
  ddr_.huge_capacity = std::min(ddr_bytes, huge_bytes);
  ddr_.allocator = RangeAllocator(ddr_bytes > 0 ? ddr_span : 0);
  reserve_base_ = ddr_bytes > 0 ? ddr_.base + ddr_span : hbm_.base + hbm_span;
  reserve_space_ = RangeAllocator(reserve_span);
  range_begin_ = aligned;
  range_end_ = reserve_base_ + reserve_span;
}

DeviceMemory::~DeviceMemory() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);  // mappings inside go with it
  for (auto& entry : physicals_) close(entry.second.fd);
  for (auto& entry : shared_) close(entry.second);
}

DeviceMemory::Pool* DeviceMemory::PoolFor(driver::MemPool pool) {
  return pool == driver::MemPool::kHbm ? &hbm_ : &ddr_;
}

const DeviceMemory::Pool* DeviceMemory::PoolFor(driver::MemPool pool) const {
  return pool == driver::MemPool::kHbm ? &hbm_ : &ddr_;
}

Status DeviceMemory::Allocate(driver::MemPool pool, driver::PageSize page, size_t bytes,
                              void** addr) {
  if (addr == nullptr) return Err(StatusCode::kInvalidParam, "AllocPhysical: addr is NULL");
  *addr = nullptr;
  if (bytes == 0) return Err(StatusCode::kInvalidParam, "AllocPhysical: size is 0");
  ACLSIM_RETURN_IF_ERROR(status_);
  const uint64_t page_bytes = driver::PageBytes(page);
  if (bytes > UINT64_MAX - page_bytes) {
    return Err(StatusCode::kInvalidParam, "AllocPhysical: size {} is too large", bytes);
  }
  const uint64_t rounded = RoundUp(bytes, page_bytes);
  std::lock_guard<std::mutex> lock(mu_);
  Pool* p = PoolFor(pool);
  if (p->capacity == 0) {
    return Err(StatusCode::kFeatureUnsupported, "device {}: this SoC has no {} memory pool",
               device_id_, PoolName(pool));
  }
  const bool huge = page != driver::PageSize::k4K;
  ACLSIM_RETURN_IF_ERROR(CheckRoom(*p, pool, huge, rounded, bytes, page_bytes));
  std::optional<uint64_t> offset = p->allocator.Allocate(rounded, page_bytes);
  if (!offset) {
    return Err(StatusCode::kDeviceOom,
               "device {}: {} address space exhausted: requested {} bytes ({} with {}-byte "
               "pages), largest free address range {} bytes",
               device_id_, PoolName(pool), bytes, rounded, page_bytes,
               p->allocator.largest_free_range());
  }
  *addr = reinterpret_cast<void*>(p->base + *offset);
  p->used += rounded;
  if (huge) p->huge_used += rounded;
  page_tables_[p->base + *offset] = {rounded, page};
  TablesChanged();
  return Status::Ok();
}

Status DeviceMemory::CheckRoom(const Pool& p, driver::MemPool pool, bool huge, uint64_t bytes,
                               uint64_t asked, uint64_t page_bytes) const {
  if (bytes > p.capacity - p.used) {
    return Err(StatusCode::kDeviceOom,
               "device {}: out of {} memory: requested {} bytes ({} with {}-byte pages), {} of "
               "{} bytes free",
               device_id_, PoolName(pool), asked, bytes, page_bytes, p.capacity - p.used,
               p.capacity);
  }
  if (huge && bytes > p.huge_capacity - p.huge_used) {
    return Err(StatusCode::kDeviceOom,
               "device {}: out of {} huge pages: requested {} bytes ({} with {}-byte pages), {} "
               "of the {}-byte huge-page budget free (sim option huge_page_bytes)",
               device_id_, PoolName(pool), asked, bytes, page_bytes, p.huge_capacity - p.huge_used,
               p.huge_capacity);
  }
  return Status::Ok();
}

Status DeviceMemory::Free(void* addr) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  for (Pool* p : {&hbm_, &ddr_}) {
    if (a < p->base || a >= p->base + p->allocator.capacity()) continue;
    const uint64_t size = p->allocator.Release(a - p->base);
    if (size == 0) break;
    p->used -= size;
    if (auto entry = page_tables_.find(a); entry != page_tables_.end()) {
      if (entry->second.page != driver::PageSize::k4K) p->huge_used -= size;
      page_tables_.erase(entry);
      TablesChanged();
    }
    if (auto shared = shared_.find(a); shared != shared_.end()) {  // IPC: back to private pages
      (void)Unmapped(a, size);
      close(shared->second);
      shared_.erase(shared);
    }
    // Give the pages back to the host; the range stays reserved and reads as zero.
    madvise(addr, size, MADV_DONTNEED);
    return Status::Ok();
  }
  return Err(StatusCode::kMemoryFree,
             "device {}: FreePhysical({}): not the start of a live device allocation", device_id_,
             addr);
}

bool DeviceMemory::OwnsRange(const void* addr, size_t bytes) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (range_begin_ == 0 || a < range_begin_ || a >= range_end_) return false;
  return bytes <= range_end_ - a;
}

std::optional<driver::PageSize> DeviceMemory::PageOf(const void* addr) const {
  std::optional<driver::PageSize> page;
  PagesOf(&addr, 1, &page);
  return page;
}

namespace {

// Versions of page tables: unique across every DeviceMemory of the process.
std::atomic<uint64_t> g_next_tables_version{1};

// The allocations this thread looked up last (each task submission translates its buffers):
// valid while their tables' version is current. Races with a concurrent Free are no worse
// than with the lock: either order could have happened.
// Plain data, zero-initialised: a thread_local without a constructor needs no guard.
struct CachedMapping {
  uint64_t version;  // 0: empty
  uintptr_t begin;
  uintptr_t end;
  driver::PageSize page;
};
struct CachedMappings {
  static constexpr size_t kCount = 8;
  CachedMapping entries[kCount];
  size_t next;

  const CachedMapping* Find(uint64_t version, uintptr_t a) const {
    for (const CachedMapping& m : entries) {
      if (m.version == version && a >= m.begin && a < m.end) return &m;
    }
    return nullptr;
  }
};
thread_local CachedMappings t_mappings;

}  // namespace

void DeviceMemory::TablesChanged() {
  tables_version_.store(g_next_tables_version.fetch_add(1, std::memory_order_relaxed),
                        std::memory_order_release);
}

void DeviceMemory::PagesOf(const void* const* addrs, size_t n,
                           std::optional<driver::PageSize>* pages) const {
  CachedMappings& cache = t_mappings;  // one TLS lookup
  uint64_t version = tables_version_.load(std::memory_order_acquire);
  size_t hits = 0;
  for (size_t i = 0; i < n; ++i) {
    const CachedMapping* m = cache.Find(version, reinterpret_cast<uintptr_t>(addrs[i]));
    if (m == nullptr) break;
    pages[i] = m->page;
    ++hits;
  }
  if (hits == n) return;
  std::lock_guard<std::mutex> lock(mu_);
  version = tables_version_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(addrs[i]);
    pages[i].reset();
    auto it = page_tables_.upper_bound(a);
    if (it == page_tables_.begin()) continue;
    --it;
    if (a >= it->first + it->second.bytes) continue;
    pages[i] = it->second.page;
    if (cache.Find(version, a) == nullptr) {
      cache.entries[cache.next++ % CachedMappings::kCount] = {
          version, it->first, it->first + it->second.bytes, it->second.page};
    }
  }
}

void DeviceMemory::Usage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Pool* p = PoolFor(pool);
  if (free_bytes != nullptr) *free_bytes = static_cast<size_t>(p->capacity - p->used);
  if (total_bytes != nullptr) *total_bytes = static_cast<size_t>(p->capacity);
}

void DeviceMemory::HugeUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Pool* p = PoolFor(pool);
  const uint64_t free_huge = std::min(p->capacity - p->used, p->huge_capacity - p->huge_used);
  if (free_bytes != nullptr) *free_bytes = static_cast<size_t>(free_huge);
  if (total_bytes != nullptr) *total_bytes = static_cast<size_t>(p->huge_capacity);
}

}  // namespace aclsim::sim
