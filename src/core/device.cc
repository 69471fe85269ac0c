#include "core/device.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/device_monitor.h"
#include "core/handle_table.h"
#include "core/memory_checker.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

// The caching allocator's view of the backend device.
class BackendSegments final : public SegmentSource {
 public:
  // Every call but WaitIdle is made under the allocator's lock, and the device releases the
  // allocator (ReleaseAll) before it drops the backend, so `device` is alive for them.
  // WaitIdle runs without the lock: it holds the backend through `weak`.
  explicit BackendSegments(const std::shared_ptr<driver::Device>& device)
      : device_(device.get()), weak_(device) {}
  Status Acquire(driver::MemPool pool, driver::PageSize page, size_t bytes, void** addr) override {
    return device_->AllocPhysical(pool, page, bytes, addr);
  }
  void Release(void* addr) override { (void)device_->FreePhysical(addr); }
  uint64_t Fence() override { return device_->MemoryFence(); }
  bool FenceReached(uint64_t fence) override { return device_->FenceReached(fence); }
  void WaitIdle() override {
    // Polls (this runs only when memory is exhausted with frees pending); gives up after
    // kWaitLimit so that a task that never completes turns into an OOM error, not a hang.
    constexpr auto kPoll = std::chrono::microseconds(200);
    constexpr auto kWaitLimit = std::chrono::seconds(5);
    std::shared_ptr<driver::Device> device = weak_.lock();
    if (!device) return;
    const uint64_t fence = device->MemoryFence();
    const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
    while (fence != 0 && !device->FenceReached(fence) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(kPoll);
    }
  }

 private:
  driver::Device* const device_;
  const std::weak_ptr<driver::Device> weak_;
};

}  // namespace

Device::Device(int32_t id, uint32_t physical_id, std::unique_ptr<driver::Device> backend)
    : id_(id),
      physical_id_(physical_id),
      props_(backend->props()),
      backend_(std::move(backend)),
      segments_(std::make_unique<BackendSegments>(backend_)),
      memory_(segments_.get(), id) {
  backend_->AddressRange(&range_begin_, &range_end_);
}

Device::~Device() { Release(/*force=*/true); }

Status Device::Initialize() {
  driver::QueueId default_queue = 0;
  ACLSIM_RETURN_IF_ERROR(backend_->CreateQueue(driver::QueueConfig{}, &default_queue));
  ACLSIM_RETURN_IF_ERROR(backend_->CreateQueue(driver::QueueConfig{}, &copy_queue_));
  auto self = shared_from_this();
  auto context = MakeHandleObject<Context>(self, /*is_default=*/true);
  auto stream = MakeHandleObject<Stream>(self, default_queue, 0, 0, /*is_default=*/true);
  context->set_default_stream(stream);
  PublishHandle(context);
  PublishHandle(stream);
  std::lock_guard<SpinLock> lock(mu_);
  default_context_ = context;
  streams_.push_back(stream);
  contexts_.push_back(context);
  return Status::Ok();
}

Result<std::shared_ptr<driver::Device>> Device::backend() const {
  std::lock_guard<SpinLock> lock(mu_);
  if (!backend_) {
    return Err(StatusCode::kInvalidDevice, "device {} was reset; call aclrtSetDevice({}) again",
               id_, id_);
  }
  return backend_;
}

std::optional<Allocation> Device::FindLive(const void* ptr, size_t bytes) {
  if (auto allocation = memory_.Find(ptr, bytes)) return allocation;
  if (auto allocation = mapped_.Find(ptr, bytes)) return allocation;
  // Chunks mapped side by side in a reserved range behave as one region (llama.cpp's VMM pool
  // carves buffers across chunk boundaries).
  if (auto run = mapped_.FindRun(ptr, bytes, "aclrtMapMem")) return run;
  std::lock_guard<std::mutex> lock(heaps_mu_);
  for (const auto& heap : heaps_) {
    if (auto allocation = heap->Find(ptr, bytes)) return allocation;
  }
  return std::nullopt;
}

std::optional<Allocation> Device::FindContainingLive(const void* ptr) {
  if (auto allocation = memory_.FindContaining(ptr)) return allocation;
  if (auto allocation = mapped_.FindContaining(ptr)) return allocation;
  std::lock_guard<std::mutex> lock(heaps_mu_);
  for (const auto& heap : heaps_) {
    if (auto allocation = heap->FindContaining(ptr)) return allocation;
  }
  return std::nullopt;
}

size_t Device::FindAllLive(const void* const* ptrs, const size_t* bytes, size_t n) {
  size_t done = 0;
  while (done < n) {
    done += memory_.FindAll(ptrs + done, bytes + done, n - done);
    if (done == n) break;
    if (!FindLive(ptrs[done], bytes[done])) return done;
    ++done;
  }
  return n;
}

void Device::AttachHeap(std::shared_ptr<CachingAllocator> heap) {
  std::lock_guard<std::mutex> lock(heaps_mu_);
  heaps_.push_back(std::move(heap));
}

void Device::DetachHeap(const CachingAllocator* heap) {
  std::lock_guard<std::mutex> lock(heaps_mu_);
  heaps_.erase(std::remove_if(heaps_.begin(), heaps_.end(),
                              [heap](const auto& h) { return h.get() == heap; }),
               heaps_.end());
}

std::shared_ptr<CachingAllocator> Device::HeapOf(const void* ptr) {
  std::lock_guard<std::mutex> lock(heaps_mu_);
  for (const auto& heap : heaps_) {
    auto allocation = heap->FindContaining(ptr);
    if (allocation && allocation->base == ptr) return heap;
  }
  return nullptr;
}

bool Device::released() const {
  std::lock_guard<SpinLock> lock(mu_);
  return backend_ == nullptr;
}

std::shared_ptr<Context> Device::default_context() const {
  std::lock_guard<SpinLock> lock(mu_);
  return default_context_;
}

void Device::AddRef() {
  std::lock_guard<SpinLock> lock(mu_);
  ++refs_;
}

bool Device::DropRef() {
  std::lock_guard<SpinLock> lock(mu_);
  if (refs_ > 0) --refs_;
  return refs_ == 0;
}

int Device::ref_count() const {
  std::lock_guard<SpinLock> lock(mu_);
  return refs_;
}

namespace {

template <typename T>
void Untrack(std::vector<std::weak_ptr<T>>* list, const T* object) {
  list->erase(std::remove_if(list->begin(), list->end(),
                             [object](const std::weak_ptr<T>& weak) {
                               auto strong = weak.lock();
                               return !strong || strong.get() == object;
                             }),
              list->end());
}

}  // namespace

void Device::TrackStream(const std::shared_ptr<Stream>& stream) {
  std::lock_guard<SpinLock> lock(mu_);
  streams_.push_back(stream);
}
void Device::UntrackStream(const Stream* stream) {
  std::lock_guard<SpinLock> lock(mu_);
  Untrack(&streams_, stream);
}
void Device::TrackEvent(const std::shared_ptr<Event>& event) {
  std::lock_guard<SpinLock> lock(mu_);
  events_.push_back(event);
}
void Device::UntrackEvent(const Event* event) {
  std::lock_guard<SpinLock> lock(mu_);
  Untrack(&events_, event);
}
void Device::TrackContext(const std::shared_ptr<Context>& context) {
  std::lock_guard<SpinLock> lock(mu_);
  contexts_.push_back(context);
}
void Device::UntrackContext(const Context* context) {
  std::lock_guard<SpinLock> lock(mu_);
  Untrack(&contexts_, context);
}
size_t Device::stream_count() const {
  std::lock_guard<SpinLock> lock(mu_);
  return streams_.size();
}
size_t Device::event_count() const {
  std::lock_guard<SpinLock> lock(mu_);
  return events_.size();
}

void Device::SetPeerAccess(int32_t peer, bool enabled) {
  std::lock_guard<SpinLock> lock(mu_);
  if (enabled) {
    peers_.insert(peer);
  } else {
    peers_.erase(peer);
  }
}

bool Device::PeerAccessEnabled(int32_t peer) const {
  std::lock_guard<SpinLock> lock(mu_);
  return peers_.count(peer) != 0;
}

void Device::Release(bool force) {
  std::vector<std::weak_ptr<Stream>> streams;
  std::vector<std::weak_ptr<Event>> events;
  std::vector<std::weak_ptr<Context>> contexts;
  {
    std::lock_guard<SpinLock> lock(mu_);
    if (!backend_ || releasing_) return;
    releasing_ = true;
    streams.swap(streams_);
    events.swap(events_);
    contexts.swap(contexts_);
    default_context_.reset();
    refs_ = 0;
  }
  // The backend stays reachable (backend_ still set) while queues drain, so callbacks that
  // complete external tasks keep working; new API calls on this device's handles fail once
  // the handles are retired below.
  for (const auto& weak : streams) {
    auto stream = weak.lock();
    if (!stream) continue;
    stream->mark_destroyed();
    (void)HandleTable::Global().Remove(stream.get(), HandleKind::kStream, "stream");
  }
  for (const auto& weak : events) {
    if (auto event = weak.lock()) {
      (void)HandleTable::Global().Remove(event.get(), HandleKind::kEvent, "event");
    }
  }
  for (const auto& weak : contexts) {
    if (auto context = weak.lock()) {
      context->set_default_stream(nullptr);
      context->mark_retired();
      (void)HandleTable::Global().Remove(context.get(), HandleKind::kContext, "context");
    }
  }
  std::shared_ptr<driver::Device> raw;
  {
    std::lock_guard<SpinLock> lock(mu_);
    raw = backend_;
  }
  if (!force) {
    Status synced = raw->SyncDevice(/*timeout_ms=*/-1);
    if (!synced.ok()) {
      ACLSIM_LOG_WARN(dfx::Module::kRuntime, "device {} reset: pending work failed: {}", id_,
                      synced.message());
    }
  }
  for (const auto& weak : streams) {
    if (auto stream = weak.lock()) (void)raw->DestroyQueue(stream->queue(), /*force=*/true);
  }
  (void)raw->DestroyQueue(copy_queue_, /*force=*/true);
  for (const auto& weak : events) {
    if (auto event = weak.lock()) (void)raw->DestroyEvent(event->id());
  }
  closed_.store(true, std::memory_order_release);
  if (monitor_) monitor_->OnClose();  // the backend is still open: its counters are readable
  MemoryChecker::Instance().ForgetDevice(this);
  std::vector<std::shared_ptr<CachingAllocator>> heaps;
  {
    std::lock_guard<std::mutex> lock(heaps_mu_);
    heaps.swap(heaps_);
  }
  for (const auto& heap : heaps) {
    for (const Allocation& leak : heap->ReleaseAll()) {
      ACLSIM_LOG_WARN(dfx::Module::kRuntime,
                      "device {} reset: leaked {} bytes at {} (allocated by {})", id_, leak.size,
                      leak.base, leak.api);
    }
  }
  ipc_shares_.Clear();  // retired IPC blocks go with the rest, not as leaks: see below
  for (const Allocation& leak : memory_.ReleaseAll()) {
    ACLSIM_LOG_WARN(dfx::Module::kRuntime,
                    "device {} reset: leaked {} bytes at {} (allocated by {})", id_, leak.size,
                    leak.base, leak.api);
  }
  attachments_.Clear();
  {
    std::lock_guard<SpinLock> lock(mu_);
    backend_.reset();
  }
  raw.reset();  // the last reference joins the backend's threads
}

}  // namespace aclsim::core
