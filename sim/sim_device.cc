#include "sim/sim_device.h"

#include <utility>

#include "sim/host_clock.h"

namespace aclsim::sim {

SimDevice::SimDevice(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config,
                     uint32_t device_id)
    : id_(device_id),
      props_(config.props),
      scheduler_(std::move(scheduler)),
      memory_(device_id, config.props.hbm_bytes, config.props.ddr_bytes) {}

Status SimDevice::Open(std::shared_ptr<Scheduler> scheduler, const BackendConfig& config,
                       uint32_t device_id, std::unique_ptr<driver::Device>* device) {
  std::unique_ptr<SimDevice> dev(new SimDevice(std::move(scheduler), config, device_id));
  ACLSIM_RETURN_IF_ERROR(dev->memory_.status());
  ACLSIM_RETURN_IF_ERROR(
      dev->scheduler_->OpenDevice(device_id, config.props, config.cost, config.fault_fail_task));
  dev->registered_ = true;
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

Status SimDevice::AllocPhysical(driver::MemPool pool, driver::PageSize page, size_t bytes,
                                void** addr) {
  return memory_.Allocate(pool, page, bytes, addr);
}

Status SimDevice::FreePhysical(void* addr) { return memory_.Free(addr); }

bool SimDevice::OwnsRange(const void* addr, size_t bytes) const {
  return memory_.OwnsRange(addr, bytes);
}

void SimDevice::PoolUsage(driver::MemPool pool, size_t* free_bytes, size_t* total_bytes) const {
  memory_.Usage(pool, free_bytes, total_bytes);
}

Status SimDevice::CreateQueue(const driver::QueueConfig& config, driver::QueueId* queue) {
  return scheduler_->CreateQueue(id_, config, queue);
}

Status SimDevice::DestroyQueue(driver::QueueId queue, bool force) {
  return scheduler_->DestroyQueue(id_, queue, force);
}

Status SimDevice::Submit(driver::QueueId queue, driver::Task task, uint64_t* task_id) {
  return scheduler_->Submit(id_, queue, std::move(task), task_id);
}

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

}  // namespace aclsim::sim
