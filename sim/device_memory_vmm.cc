// DeviceMemory's virtual memory management: reservations, memfd-backed physical allocations,
// and their mappings (see device_memory.h).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "sim/device_memory.h"

namespace aclsim::sim {
namespace {

constexpr uint64_t kGranularity = uint64_t{2} << 20;

bool PowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace

Status DeviceMemory::Reserve(size_t bytes, size_t alignment, void** addr) {
  ACLSIM_RETURN_IF_ERROR(status_);
  if (alignment == 0) alignment = kGranularity;
  if (bytes == 0 || bytes % kGranularity != 0) {
    return Err(StatusCode::kInvalidParam,
               "reservation size {} is not a positive multiple of the {}-byte granularity", bytes,
               kGranularity);
  }
  if (!PowerOfTwo(alignment)) {
    return Err(StatusCode::kInvalidParam, "alignment {} is not a power of two", alignment);
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto offset = reserve_space_.Allocate(bytes, std::max<uint64_t>(alignment, kGranularity));
  if (!offset) {
    return Err(StatusCode::kDeviceOom,
               "device {}: no free address range of {} bytes (largest free range {} bytes)",
               device_id_, bytes, reserve_space_.largest_free_range());
  }
  const uintptr_t start = reserve_base_ + *offset;
  reservations_[start] = bytes;
  *addr = reinterpret_cast<void*>(start);
  return Status::Ok();
}

Status DeviceMemory::Unreserve(void* addr) {
  const auto start = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = reservations_.find(start);
  if (it == reservations_.end()) {
    return Err(StatusCode::kInvalidParam, "{} is not the start of a reserved address range", addr);
  }
  auto mapped = vm_maps_.lower_bound(start);
  if (mapped != vm_maps_.end() && mapped->first < start + it->second) {
    return Err(StatusCode::kInvalidParam,
               "the range at {} still has memory mapped at {:#x}: unmap it first", addr,
               mapped->first);
  }
  reserve_space_.Release(start - reserve_base_);
  reservations_.erase(it);
  return Status::Ok();
}

Status DeviceMemory::CreatePhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                    uint64_t* handle) {
  ACLSIM_RETURN_IF_ERROR(status_);
  const uint64_t page_bytes = std::max(driver::PageBytes(page), kGranularity);
  if (bytes == 0 || bytes % page_bytes != 0) {
    return Err(StatusCode::kInvalidParam,
               "physical size {} is not a positive multiple of the {}-byte granularity", bytes,
               page_bytes);
  }
  std::lock_guard<std::mutex> lock(mu_);
  Pool* p = PoolFor(pool);
  if (p->capacity == 0) {
    return Err(StatusCode::kFeatureUnsupported, "device {}: this SoC has no such memory pool",
               device_id_);
  }
  const bool huge = page != driver::PageSize::k4K;
  ACLSIM_RETURN_IF_ERROR(CheckRoom(*p, pool, huge, bytes, bytes, page_bytes));
  const int fd = memfd_create("aclsim-physical", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int err = errno;
    if (fd >= 0) close(fd);
    return Err(StatusCode::kBadAlloc, "device {}: cannot create {} bytes of physical memory: {}",
               device_id_, bytes, std::strerror(err));
  }
  p->used += bytes;
  if (huge) p->huge_used += bytes;
  Physical physical;
  physical.fd = fd;
  physical.bytes = bytes;
  physical.pool = pool;
  physical.huge = huge;
  physical.page = page == driver::PageSize::k4K ? driver::PageSize::k2M : page;
  *handle = next_physical_++;
  physicals_[*handle] = physical;
  return Status::Ok();
}

Status DeviceMemory::ImportPhysical(int fd, size_t bytes, driver::PageSize page, uint64_t* handle) {
  ACLSIM_RETURN_IF_ERROR(status_);
  const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) {
    return Err(StatusCode::kInvalidParam, "cannot import shared memory: {}", std::strerror(errno));
  }
  std::lock_guard<std::mutex> lock(mu_);
  Physical physical;
  physical.fd = own;
  physical.bytes = bytes;
  physical.page = page;
  physical.imported = true;
  *handle = next_physical_++;
  physicals_[*handle] = physical;
  return Status::Ok();
}

Status DeviceMemory::DestroyPhysical(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = physicals_.find(handle);
  if (it == physicals_.end()) {
    return Err(StatusCode::kInvalidHandle, "physical allocation {} does not exist", handle);
  }
  if (it->second.maps > 0) {
    return Err(StatusCode::kInvalidParam,
               "the physical allocation is still mapped at {} address(es): unmap it first",
               it->second.maps);
  }
  if (!it->second.imported) {
    Pool* p = PoolFor(it->second.pool);
    p->used -= it->second.bytes;
    if (it->second.huge) p->huge_used -= it->second.bytes;
  }
  close(it->second.fd);
  physicals_.erase(it);
  return Status::Ok();
}

int DeviceMemory::PhysicalFd(uint64_t handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = physicals_.find(handle);
  return it == physicals_.end() ? -1 : it->second.fd;
}

Status DeviceMemory::Map(void* addr, size_t bytes, uint64_t handle, size_t offset) {
  const auto start = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  auto physical = physicals_.find(handle);
  if (physical == physicals_.end()) {
    return Err(StatusCode::kInvalidHandle, "physical allocation {} does not exist", handle);
  }
  Physical& phys = physical->second;
  if (bytes == 0 || start % kGranularity != 0 || bytes % kGranularity != 0 ||
      offset % kGranularity != 0) {
    return Err(StatusCode::kInvalidParam,
               "address {}, size {} and offset {} must be multiples of {} (size > 0)", addr, bytes,
               offset, kGranularity);
  }
  if (offset > phys.bytes || bytes > phys.bytes - offset) {
    return Err(StatusCode::kInvalidParam,
               "offset {} + size {} exceed the physical allocation's {} bytes", offset, bytes,
               phys.bytes);
  }
  auto reservation = reservations_.upper_bound(start);
  if (reservation == reservations_.begin() ||
      (--reservation, start + bytes > reservation->first + reservation->second)) {
    return Err(StatusCode::kInvalidParam,
               "[{}, +{}) is not inside one range reserved by aclrtReserveMemAddress", addr, bytes);
  }
  auto next = vm_maps_.lower_bound(start);
  const bool overlaps_next = next != vm_maps_.end() && next->first < start + bytes;
  const bool overlaps_prev =
      next != vm_maps_.begin() && std::prev(next)->first + std::prev(next)->second.bytes > start;
  if (overlaps_next || overlaps_prev) {
    return Err(StatusCode::kInvalidParam, "[{}, +{}) overlaps memory already mapped", addr, bytes);
  }
  void* mapped = mmap(addr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, phys.fd,
                      static_cast<off_t>(offset));
  if (mapped == MAP_FAILED) {
    return Err(StatusCode::kBadAlloc, "mapping physical memory at {} failed: {}", addr,
               std::strerror(errno));
  }
  ++phys.maps;
  vm_maps_[start] = {bytes, handle};
  page_tables_[start] = {bytes, phys.page};
  TablesChanged();
  return Status::Ok();
}

Status DeviceMemory::Unmap(void* addr) {
  const auto start = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = vm_maps_.find(start);
  if (it == vm_maps_.end()) {
    return Err(StatusCode::kInvalidParam, "no memory is mapped starting at {}", addr);
  }
  ACLSIM_RETURN_IF_ERROR(Unmapped(start, it->second.bytes));
  auto physical = physicals_.find(it->second.handle);
  if (physical != physicals_.end()) --physical->second.maps;
  page_tables_.erase(start);
  TablesChanged();
  vm_maps_.erase(it);
  return Status::Ok();
}

Status DeviceMemory::Share(const void* addr, size_t bytes, int* fd, size_t* offset,
                           size_t* file_bytes) {
  const auto start = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = page_tables_.upper_bound(start);
  if (it == page_tables_.begin() || (--it, start + bytes > it->first + it->second.bytes) ||
      vm_maps_.count(it->first) != 0) {
    return Err(StatusCode::kInvalidParam,
               "[{}, +{}) is not inside one device allocation that can be shared", addr, bytes);
  }
  const uintptr_t base = it->first;
  const uint64_t size = it->second.bytes;
  *offset = start - base;
  *file_bytes = size;
  if (auto shared = shared_.find(base); shared != shared_.end()) {
    *fd = shared->second;
    return Status::Ok();
  }
  const int file = memfd_create("aclsim-ipc", MFD_CLOEXEC);
  if (file < 0 || ftruncate(file, static_cast<off_t>(size)) != 0 ||
      pwrite(file, reinterpret_cast<const void*>(base), size, 0) != static_cast<ssize_t>(size)) {
    const int err = errno;
    if (file >= 0) close(file);
    return Err(StatusCode::kBadAlloc, "cannot share {} bytes of device memory: {}", size,
               std::strerror(err));
  }
  void* mapped = mmap(reinterpret_cast<void*>(base), size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED, file, 0);
  if (mapped == MAP_FAILED) {
    const int err = errno;
    close(file);
    return Err(StatusCode::kBadAlloc, "cannot share device memory at {:#x}: {}", base,
               std::strerror(err));
  }
  shared_[base] = file;
  *fd = file;
  return Status::Ok();
}

Status DeviceMemory::Unshare(const void* addr) {
  const auto start = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = page_tables_.upper_bound(start);
  if (it == page_tables_.begin() || (--it, start >= it->first + it->second.bytes)) {
    return Status::Ok();
  }
  auto shared = shared_.find(it->first);
  if (shared == shared_.end()) return Status::Ok();
  const uintptr_t base = it->first;
  const uint64_t size = it->second.bytes;
  // Fresh private pages, filled with the current contents, moved over the shared mapping in
  // one step: the range is never unmapped, and the file's pages stay with the importers.
  void* fresh = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (fresh == MAP_FAILED) {
    return Err(StatusCode::kBadAlloc, "cannot unshare {} bytes of device memory: {}", size,
               std::strerror(errno));
  }
  std::memcpy(fresh, reinterpret_cast<const void*>(base), size);
  void* moved =
      mremap(fresh, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, reinterpret_cast<void*>(base));
  if (moved == MAP_FAILED) {
    const int err = errno;
    munmap(fresh, size);
    return Err(StatusCode::kBadAlloc, "cannot unshare device memory at {:#x}: {}", base,
               std::strerror(err));
  }
  close(shared->second);
  shared_.erase(shared);
  return Status::Ok();
}

Status DeviceMemory::Unmapped(uintptr_t addr, uint64_t bytes) {
  void* back = mmap(reinterpret_cast<void*>(addr), bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (back == MAP_FAILED) {
    return Err(StatusCode::kBadAlloc, "unmapping {:#x} failed: {}", addr, std::strerror(errno));
  }
  return Status::Ok();
}

}  // namespace aclsim::sim
