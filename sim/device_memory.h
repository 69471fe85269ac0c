// DeviceMemory: the physical memory of one simulated device.
//
// At construction (OpenDevice time) one host virtual address range is reserved for the
// device with mmap(PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE): nothing is
// backed until a page is touched, so 8 devices x 64 GiB cost nothing until used. The range
// holds the HBM pool's address space, then (if the profile has one) the DDR pool's, each
// starting on a 1 GiB boundary and twice the pool's capacity: on the device an MMU maps pages
// wherever they are, so a pool's free bytes stay usable even when its addresses are
// fragmented; then the address space reservations take (2 x the HBM capacity: room for two
// reservations of the whole memory, as llama.cpp makes one per context, within the 2-3 TiB of
// address space ThreadSanitizer leaves a process for 8 devices). A pool counts its allocated
// bytes against its capacity (kDeviceOom beyond);
// a first-fit RangeAllocator places allocations in its address space, rounded up to their
// page size and aligned to it. Huge pages (2 MiB and 1 GiB) may have a budget of their own per
// pool (backend option huge_page_bytes): beyond it, huge-page requests fail with kDeviceOom
// while 4 KiB pages remain. Freeing releases the backing pages with madvise(MADV_DONTNEED)
// (they read as zero when reused). The range is unmapped at destruction. Each allocation's
// page size is recorded (its page table) for the TLB model (tlb_model.h).
//
// Thread-safety: all methods may be called concurrently (one internal mutex); OwnsRange
// reads only immutable state and takes no lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "common/status.h"
#include "driver/driver.h"
#include "sim/range_allocator.h"

namespace aclsim::sim {

class DeviceMemory {
 public:
  // Reserves the address range. Check status() before use. `huge_bytes`: the most bytes of
  // each pool in huge pages at once (UINT64_MAX: only the pool's capacity limits them).
  DeviceMemory(uint32_t device_id, uint64_t hbm_bytes, uint64_t ddr_bytes,
               uint64_t huge_bytes = UINT64_MAX);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // kBadAlloc if the reservation failed.
  const Status& status() const { return status_; }

  // Errors: kInvalidParam (bytes == 0 or the rounded size overflows), kFeatureUnsupported
  // (DDR requested but the device has none), kDeviceOom (no free range fits; the message
  // gives the request, the free bytes and the largest free range).
  Status Allocate(driver::MemPool pool, driver::PageSize page, size_t bytes, void** addr);
  // kMemoryFree if `addr` is not the exact start of a live allocation.
  Status Free(void* addr);
  bool OwnsRange(const void* addr, size_t bytes) const;
  uintptr_t range_begin() const { return range_begin_; }
  uintptr_t range_end() const { return range_end_; }
  // The page size of the live allocation containing `addr` (its page table entry), or
  // nullopt if `addr` is not inside a live allocation of this device.
  std::optional<driver::PageSize> PageOf(const void* addr) const;
  // PageOf for `n` addresses at once (one lock): pages[i] for addrs[i].
  void PagesOf(const void* const* addrs, size_t n, std::optional<driver::PageSize>* pages) const;
  void Usage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const;
  // The same for the pool's huge pages: min(pool, huge-page budget).
  void HugeUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const;

  // Virtual memory management (driver.h; device_memory_vmm.cc). Reservations take HBM address
  // space only. Physical allocations are memfd files (so mappings alias, and other processes
  // can map them), mapped with MAP_SHARED|MAP_FIXED over the reserved range; unmapping puts
  // the reservation's anonymous pages back.
  Status Reserve(size_t bytes, size_t alignment, void** addr);
  Status Unreserve(void* addr);
  Status CreatePhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                        uint64_t* handle);
  Status ImportPhysical(int fd, size_t bytes, driver::PageSize page, uint64_t* handle);
  Status DestroyPhysical(uint64_t handle);
  int PhysicalFd(uint64_t handle) const;
  Status Map(void* addr, size_t bytes, uint64_t handle, size_t offset);
  Status Unmap(void* addr);
  // IPC: moves the allocation holding [addr, addr+bytes) onto a memfd, in place.
  Status Share(const void* addr, size_t bytes, int* fd, size_t* offset, size_t* file_bytes);
  // Private pages again, contents kept, for the shared allocation holding `addr` (no-op if it
  // is not shared); importers keep the file's pages.
  Status Unshare(const void* addr);

 private:
  struct Pool {
    uintptr_t base = 0;           // first address of the pool, 1 GiB aligned
    uint64_t capacity = 0;        // bytes of memory (0: the SoC has no such pool)
    uint64_t used = 0;            // bytes allocated (page-rounded)
    uint64_t huge_capacity = 0;   // at most this many of them in huge pages
    uint64_t huge_used = 0;       // bytes allocated in huge pages
    RangeAllocator allocator{0};  // the pool's address space (2 x capacity)
  };
  // kDeviceOom unless `bytes` more fit in the pool (and in its huge-page budget if `huge`).
  Status CheckRoom(const Pool& p, driver::MemPool pool, bool huge, uint64_t bytes, uint64_t asked,
                   uint64_t page_bytes) const;
  Pool* PoolFor(driver::MemPool pool);
  const Pool* PoolFor(driver::MemPool pool) const;

  const uint32_t device_id_;
  Status status_;
  void* mapping_ = nullptr;
  size_t mapping_bytes_ = 0;
  uintptr_t range_begin_ = 0;  // [range_begin_, range_end_) covers both pools and the
  uintptr_t range_end_ = 0;    // reservation space
  // aclrtReserveMemAddress's address space, after the pools: 2 x the HBM capacity, as a
  // device's virtual address space is far larger than its memory (llama.cpp's pool reserves
  // all of it, once per context).
  uintptr_t reserve_base_ = 0;
  RangeAllocator reserve_space_{0};
  mutable std::mutex mu_;
  Pool hbm_;
  Pool ddr_;
  struct Mapping {
    uint64_t bytes;
    driver::PageSize page;
  };
  std::map<uintptr_t, Mapping> page_tables_;  // allocation start -> size and page size
  // The page tables' version: a value no other DeviceMemory ever had, renewed on every change
  // of page_tables_ (mu_ held). PagesOf's per-thread cache is valid while it stands.
  std::atomic<uint64_t> tables_version_;
  void TablesChanged();  // mu_ held

  struct Physical {
    int fd = -1;
    uint64_t bytes = 0;
    driver::MemPool pool = driver::MemPool::kHbm;
    driver::PageSize page = driver::PageSize::k2M;
    bool imported = false;  // another process's memory: not counted against a pool
    bool huge = false;      // counted against the pool's huge-page budget
    int maps = 0;           // live mappings
  };
  struct VmMapping {
    uint64_t bytes;
    uint64_t handle;
  };
  Status Unmapped(uintptr_t addr, uint64_t bytes);  // restores reserved pages; mu_ held
  std::map<uint64_t, Physical> physicals_;
  uint64_t next_physical_ = 1;
  std::map<uintptr_t, uint64_t> reservations_;  // start -> bytes
  std::map<uintptr_t, VmMapping> vm_maps_;      // start -> mapping
  std::map<uintptr_t, int> shared_;             // allocation start -> its memfd (IPC)
};

}  // namespace aclsim::sim
