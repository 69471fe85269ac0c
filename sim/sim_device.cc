#include "sim/sim_device.h"

#include <utility>

#include "sim/host_clock.h"

namespace aclsim::sim {

SimDevice::SimDevice(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config,
                     uint32_t device_id)
    : id_(device_id),
      props_(config.props),
      scheduler_(std::move(scheduler)),
      memory_(device_id, config.props.hbm_bytes, config.props.ddr_bytes, config.huge_page_bytes),
      faults_(config.faults) {}

Status SimDevice::Open(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config,
                       uint32_t device_id, std::unique_ptr<driver::Device>* device) {
  std::unique_ptr<SimDevice> dev(new SimDevice(std::move(scheduler), config, device_id));
  ACLSIM_RETURN_IF_ERROR(dev->memory_.status());
  ACLSIM_RETURN_IF_ERROR(
      dev->scheduler_->OpenDevice(device_id, config.props, config.cost, config.faults));
  dev->registered_ = true;
  dev->progress_ = dev->scheduler_->Progress(device_id);
  if (!dev->scheduler_->inline_mode()) {
    for (uint32_t i = 0; i < config.workers; ++i) {
      Scheduler* sched = dev->scheduler_.get();
      dev->workers_.emplace_back([sched, device_id] { sched->WorkerLoop(device_id); });
    }
  }
  *device = std::move(dev);
  return Status::Ok();
}

SimDevice::~SimDevice() {
  if (!registered_) return;
  scheduler_->StopDevice(id_);
  for (auto& worker : workers_) worker.join();
  scheduler_->RemoveDevice(id_);
}

Status SimDevice::Health() const { return scheduler_->LostStatus(id_); }

driver::DeviceCounters SimDevice::Counters() const {
  driver::DeviceCounters counters;
  if (progress_ == nullptr) return counters;
  // Task ids of a device are 1, 2, ... in submission order.
  counters.tasks_finished = progress_->completed.load(std::memory_order_acquire);
  counters.tasks_submitted = progress_->last_issued.load(std::memory_order_acquire);
  counters.sim_time_ns = progress_->latest_end_ns.load(std::memory_order_relaxed);
  return counters;
}

Status SimDevice::CheckAllocation(size_t bytes) {
  // The scheduler's lock only once the device is lost (its flag is read without it).
  if (progress_ != nullptr && progress_->lost.load(std::memory_order_relaxed)) {
    ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  }
  if (faults_.fail_alloc == 0) return Status::Ok();
  const uint64_t n = alloc_count_.fetch_add(1) + 1;
  if (n == faults_.fail_alloc) {
    return Err(StatusCode::kDeviceOom,
               "device {}: allocation {} of {} bytes failed (fault injection: fault_fail_alloc={})",
               id_, n, bytes, faults_.fail_alloc);
  }
  return Status::Ok();
}

Status SimDevice::AllocPhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                void** addr) {
  ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  return memory_.Allocate(pool, page, bytes, addr);
}

Status SimDevice::FreePhysical(void* addr) { return memory_.Free(addr); }

void SimDevice::AddressRange(uintptr_t* begin, uintptr_t* end) const {
  *begin = memory_.range_begin();
  *end = memory_.range_end();
}

bool SimDevice::OwnsRange(const void* addr, size_t bytes) const {
  return memory_.OwnsRange(addr, bytes);
}

void SimDevice::PoolUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
  memory_.Usage(pool, free_bytes, total_bytes);
}

void SimDevice::HugePageUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
  memory_.HugeUsage(pool, free_bytes, total_bytes);
}

Status SimDevice::ReserveAddress(size_t bytes, size_t alignment, void** addr) {
  ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  return memory_.Reserve(bytes, alignment, addr);
}

Status SimDevice::ReleaseAddress(void* addr) { return memory_.Unreserve(addr); }

Status SimDevice::CreatePhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                 uint64_t* handle) {
  ACLSIM_RETURN_IF_ERROR(CheckAllocation(bytes));
  return memory_.CreatePhysical(pool, page, bytes, handle);
}

Status SimDevice::DestroyPhysical(uint64_t handle) { return memory_.DestroyPhysical(handle); }

Status SimDevice::MapPhysical(void* addr, size_t bytes, uint64_t handle, size_t offset) {
  ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  return memory_.Map(addr, bytes, handle, offset);
}

Status SimDevice::UnmapPhysical(void* addr) { return memory_.Unmap(addr); }

int SimDevice::ExportPhysical(uint64_t handle) { return memory_.PhysicalFd(handle); }

Status SimDevice::ShareRange(const void* addr, size_t bytes, int* fd, size_t* offset,
                             size_t* file_bytes) {
  ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  return memory_.Share(addr, bytes, fd, offset, file_bytes);
}

Status SimDevice::UnshareRange(const void* addr) { return memory_.Unshare(addr); }

Status SimDevice::ImportPhysical(int fd, size_t bytes, driver::PageSize page, uint64_t* handle) {
  ACLSIM_RETURN_IF_ERROR(scheduler_->LostStatus(id_));
  return memory_.ImportPhysical(fd, bytes, page, handle);
}

uint64_t SimDevice::MemoryFence() const {
  // `completed` first: whatever completes or is issued after it was read only makes the
  // fence later (safe), never earlier.
  const uint64_t completed = progress_->completed.load(std::memory_order_acquire);
  const uint64_t issued = progress_->last_issued.load(std::memory_order_acquire);
  return issued == completed ? 0 : issued;
}

bool SimDevice::FenceReached(uint64_t fence) { return scheduler_->FenceReached(id_, fence); }

bool SimDevice::QueueDoneThrough(driver::QueueId queue, uint64_t task_id) {
  return scheduler_->QueueDoneThrough(id_, queue, task_id);
}

Status SimDevice::CreateQueue(const driver::QueueConfig& config, driver::QueueId* queue) {
  return scheduler_->CreateQueue(id_, config, queue);
}

Status SimDevice::DestroyQueue(driver::QueueId queue, bool force) {
  return scheduler_->DestroyQueue(id_, queue, force);
}

void SimDevice::Translate(const driver::Task& task, TaskTranslation* tr) const {
  // At most a handful of buffers per task: looked up together under one lock.
  constexpr size_t kInline = 8;
  const void* inline_addrs[kInline];
  uint64_t inline_bytes[kInline];
  std::optional<driver::PageSize> inline_pages[kInline];
  std::vector<const void*> more_addrs;
  std::vector<uint64_t> more_bytes;
  std::vector<std::optional<driver::PageSize>> more_pages;
  const size_t count = task.kind == driver::TaskKind::kKernel ? task.work.buffers.size() : 2;
  if (count > kInline) {
    more_addrs.resize(count);
    more_bytes.resize(count);
    more_pages.resize(count);
  }
  const void** addrs = count > kInline ? more_addrs.data() : inline_addrs;
  uint64_t* bytes = count > kInline ? more_bytes.data() : inline_bytes;
  std::optional<driver::PageSize>* pages = count > kInline ? more_pages.data() : inline_pages;
  size_t n = 0;
  auto add = [&](const void* addr, uint64_t size) {
    if (addr == nullptr || size == 0) return;
    addrs[n] = addr;
    bytes[n] = size;
    ++n;
  };
  switch (task.kind) {
    case driver::TaskKind::kMemcpy:
      add(task.dst, task.bytes);
      add(task.src, task.bytes);
      break;
    case driver::TaskKind::kMemcpy2d:
      add(task.dst, static_cast<uint64_t>(task.width) * task.height);
      add(task.src, static_cast<uint64_t>(task.width) * task.height);
      break;
    case driver::TaskKind::kMemset:
      add(task.dst, task.bytes);
      break;
    case driver::TaskKind::kKernel:
      for (const auto& b : task.work.buffers) add(b.addr, b.bytes);
      break;
    default:
      break;
  }
  tr->buffers.clear();
  if (n == 0) return;
  memory_.PagesOf(addrs, n, pages);
  for (size_t i = 0; i < n; ++i) {
    if (pages[i]) tr->buffers.push_back({bytes[i], *pages[i]});
  }
}

Status SimDevice::Submit(driver::QueueId queue, driver::Task&& task, uint64_t* task_id) {
  // Per thread, so that its capacity is reused (Scheduler::Submit is done with it before any
  // task it makes ready runs in this thread, so a nested Submit may reuse it).
  thread_local TaskTranslation translation;
  Translate(task, &translation);
  return scheduler_->Submit(id_, queue, std::move(task), translation, task_id);
}

TlbCounts SimDevice::TlbTotals() const { return scheduler_->TlbTotals(id_); }

Status SimDevice::SyncQueue(driver::QueueId queue, int32_t timeout_ms) {
  return scheduler_->SyncQueue(id_, queue, timeout_ms);
}

driver::QueueState SimDevice::QueryQueue(driver::QueueId queue) {
  return scheduler_->QueryQueue(id_, queue);
}

Status SimDevice::SyncDevice(int32_t timeout_ms) { return scheduler_->SyncDevice(id_, timeout_ms); }

void SimDevice::CompleteExternal(uint64_t task_id, Status status) {
  scheduler_->CompleteExternal(id_, task_id, std::move(status));
}

Status SimDevice::CreateEvent(uint32_t flags, driver::EventId* event) {
  return scheduler_->CreateEvent(id_, flags, event);
}

Status SimDevice::CreateCounter(driver::CounterId* counter) {
  return scheduler_->CreateCounter(id_, counter);
}

Status SimDevice::DestroyCounter(driver::CounterId counter) {
  return scheduler_->DestroyCounter(id_, counter);
}

Status SimDevice::ResetCounter(driver::CounterId counter) {
  return scheduler_->ResetCounter(id_, counter);
}

Status SimDevice::DestroyEvent(driver::EventId event) {
  return scheduler_->DestroyEvent(id_, event);
}

driver::Device::EventState SimDevice::QueryEvent(driver::EventId event) {
  return scheduler_->QueryEvent(id_, event);
}

Status SimDevice::SyncEvent(driver::EventId event, int32_t timeout_ms) {
  return scheduler_->SyncEvent(id_, event, timeout_ms);
}

uint64_t SimDevice::HostClockNs() const { return HostClocks::Now(scheduler_->clock_domain()); }

void SimDevice::AdvanceHostClock(uint64_t ns) {
  HostClocks::Advance(scheduler_->clock_domain(), ns);
}

void SimDevice::SetFailureHandler(std::function<void(const driver::TaskFailure&)> handler) {
  scheduler_->SetFailureHandler(id_, std::move(handler));
}

void SimDevice::SetTaskTracer(std::function<void(const driver::TaskTrace&)> tracer) {
  scheduler_->SetTaskTracer(id_, std::move(tracer));
}

void SimDevice::FlushTraces() { scheduler_->FlushTraces(id_); }

void SimDevice::SetWatchdog(uint32_t period_ms, std::function<void(const std::string&)> report) {
  scheduler_->SetWatchdog(id_, period_ms, std::move(report));
}

}  // namespace aclsim::sim
