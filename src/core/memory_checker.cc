#include "core/memory_checker.h"

#include <cstring>

#include "core/device.h"
#include "core/objects.h"
#include "core/streams.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

// Memory the host or an alias may write directly: never an uninitialised read.
bool WrittenOutsideTasks(const Allocation& allocation) {
  return std::strcmp(allocation.api, "aclrtMemAllocManaged") == 0 ||
         std::strcmp(allocation.api, "aclrtHostRegister") == 0 ||
         std::strcmp(allocation.api, "aclrtMapMem") == 0 ||
         std::strcmp(allocation.api, "aclrtIpcMemImportByKey") == 0;
}

// The first byte of [start, end) not covered by `written`, or end if all are.
uintptr_t FirstUnwritten(const std::map<uintptr_t, uintptr_t>& written, uintptr_t start,
                         uintptr_t end) {
  auto it = written.upper_bound(start);
  if (it == written.begin()) return start;
  --it;
  if (it->second <= start) return start;
  return it->second >= end ? end : it->second;
}

void AddRange(std::map<uintptr_t, uintptr_t>* written, uintptr_t start, uintptr_t end) {
  auto it = written->upper_bound(start);
  if (it != written->begin()) {
    auto prev = std::prev(it);
    if (prev->second >= start) {
      start = prev->first;
      end = std::max(end, prev->second);
      it = written->erase(prev);
    }
  }
  while (it != written->end() && it->first <= end) {
    end = std::max(end, it->second);
    it = written->erase(it);
  }
  (*written)[start] = end;
}

}  // namespace

std::atomic<bool> MemoryChecker::on_{false};

MemoryChecker& MemoryChecker::Instance() {
  static MemoryChecker* checker = new MemoryChecker();  // never destroyed: used at exit
  return *checker;
}

void MemoryChecker::set_enabled(bool enabled) {
  on_.store(enabled, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  states_.clear();
}

std::vector<std::string> MemoryChecker::Check(Device& device, const char* api,
                                              const Access* accesses, size_t n) {
  std::vector<std::string> violations;
  for (size_t i = 0; i < n; ++i) {
    const Access& access = accesses[i];
    if (access.write || access.bytes == 0) continue;
    auto allocation = device.FindContainingLive(access.ptr);
    if (!allocation || WrittenOutsideTasks(*allocation)) continue;
    const auto start = reinterpret_cast<uintptr_t>(access.ptr);
    const auto base = reinterpret_cast<uintptr_t>(allocation->base);
    uintptr_t gap = start;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto state = states_.find({&device, base});
      if (state != states_.end())
        gap = FirstUnwritten(state->second.written, start, start + access.bytes);
    }
    if (gap < start + access.bytes) {
      violations.push_back(
          fmt::format("{} reads {} bytes at {} on device {}, but byte {} of them (offset {} of the "
                      "{}-byte allocation at {} made by {}) was never written",
                      api, access.bytes, access.ptr, device.id(), gap - start, gap - base,
                      allocation->size, allocation->base, allocation->api));
    }
  }
  return violations;
}

std::string MemoryChecker::CheckPinned(const void* host, size_t bytes, const char* api,
                                       bool host_is_pinned) {
  if (host_is_pinned) return {};
  return fmt::format(
      "{} copies {} bytes from/to host memory at {} that is not pinned (use aclrtMallocHost "
      "or aclrtHostRegister for asynchronous copies)",
      api, bytes, host);
}

void MemoryChecker::Record(Device& device, Stream* stream, uint64_t task_id, const Access* accesses,
                           size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const Access& access = accesses[i];
    auto allocation = device.FindContainingLive(access.ptr);
    if (!allocation) continue;
    const auto start = reinterpret_cast<uintptr_t>(access.ptr);
    std::lock_guard<std::mutex> lock(mu_);
    State& state = states_[{&device, reinterpret_cast<uintptr_t>(allocation->base)}];
    if (access.write && access.bytes > 0) AddRange(&state.written, start, start + access.bytes);
    if (stream != nullptr) {
      state.last_task = task_id;
      state.last_queue = stream->queue();
      state.last_stream = stream->weak_from_this();
    }
  }
}

std::pair<std::string, std::shared_ptr<Stream>> MemoryChecker::OnFree(
    Device& device, const Allocation& allocation) {
  State state;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = states_.find({&device, reinterpret_cast<uintptr_t>(allocation.base)});
    if (it == states_.end()) return {};
    state = std::move(it->second);
    states_.erase(it);
  }
  if (state.last_task == 0) return {};
  auto backend = device.backend();
  if (!backend.ok() || (*backend)->QueueDoneThrough(state.last_queue, state.last_task)) return {};
  auto stream = state.last_stream.lock();
  return {
      fmt::format("aclrtFree of {} ({} bytes, made by {}) on device {} while task {} that "
                  "uses it has not run yet: the task would use freed memory",
                  allocation.base, allocation.size, allocation.api, device.id(), state.last_task),
      stream};
}

void MemoryChecker::OnAllocate(Device& device, const void* base) {
  std::lock_guard<std::mutex> lock(mu_);
  states_.erase({&device, reinterpret_cast<uintptr_t>(base)});
}

void MemoryChecker::MarkWritten(Device& device, const void* ptr, size_t bytes) {
  const Access access{ptr, bytes, true};
  Record(device, nullptr, 0, &access, 1);
}

void MemoryChecker::ForgetDevice(const Device* device) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = states_.begin(); it != states_.end();) {
    it = it->first.first == device ? states_.erase(it) : std::next(it);
  }
}

Status MemoryChecker::Report(const std::shared_ptr<Stream>& stream, const std::string& message) {
  ACLSIM_LOG_ERROR(dfx::Module::kRuntime, "memcheck: {}", message);
  if (!stream) {
    return Status(StatusCode::kTaskFailed, "memcheck: " + message, kMemcheckErrorCode);
  }
  auto backend = stream->device()->backend();
  if (!backend.ok()) return backend.status();
  // A raw pointer: the backend outlives its running tasks (it joins its workers when
  // destroyed), and a worker must never hold the last reference (it would join itself).
  driver::Device* device = backend->get();
  driver::Task task;
  task.kind = driver::TaskKind::kExternal;
  task.label = "memcheck";
  task.external_start = [device, message](uint64_t task_id) {
    device->CompleteExternal(
        task_id, Status(StatusCode::kTaskFailed, "memcheck: " + message, kMemcheckErrorCode));
  };
  return Submit(*stream, std::move(task));
}

}  // namespace aclsim::core
