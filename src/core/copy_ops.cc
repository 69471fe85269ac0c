// Copies and memsets (declared in memory_ops.h): validation, then one task.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/memory_checker.h"
#include "core/memory_ops.h"
#include "core/streams.h"
#include "core/task_tracing.h"

namespace aclsim::core {
namespace {

const char* KindName(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHostToHost:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case CopyKind::kHostToDevice:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case CopyKind::kDeviceToHost:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case CopyKind::kDeviceToDevice:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case CopyKind::kDefault:
      return "ACL_MEMCPY_DEFAULT";
  }
  return "?";
}

// The device owning [ptr, ptr+span) (nullptr for host memory); a device range must lie in
// one live allocation.
Result<std::shared_ptr<Device>> ResolveSide(Runtime& runtime, const void* ptr, size_t span,
                                            const char* name) {
  auto device = runtime.DeviceOfAddress(ptr, 1);
  if (!device) {
    // Host memory aclsim cannot size, but no range runs past the end of an address space
    // (user addresses stay below 2^57 even with 5-level paging): a pitch or count that claims
    // so is a wrapped computation, refused before a worker reads or writes it.
    constexpr uint64_t kAddressSpaceEnd = uint64_t{1} << 57;
    const auto start = reinterpret_cast<uint64_t>(ptr);
    if (span > kAddressSpaceEnd || start > kAddressSpaceEnd - span) {
      return Err(StatusCode::kInvalidParam,
                 "{} range [{}, +{}) runs past the end of the address space", name, ptr, span);
    }
    return std::shared_ptr<Device>();
  }
  if (!device->FindLive(ptr, span)) {
    auto inside = device->FindContainingLive(ptr);
    if (inside) {
      return Err(StatusCode::kInvalidParam,
                 "{} range [{}, +{}) overruns its allocation at {} of {} bytes on device {}", name,
                 ptr, span, inside->base, inside->size, device->id());
    }
    return Err(StatusCode::kInvalidParam,
               "{} {} is not inside a live allocation on device {} (freed or never allocated)",
               name, ptr, device->id());
  }
  return device;
}

struct CopyPlan {
  driver::CopyDir dir = driver::CopyDir::kHostToHost;
  std::shared_ptr<Device> src_device;
  std::shared_ptr<Device> dst_device;
  // The device whose queue runs the copy (null for host-to-host).
  std::shared_ptr<Device> executor() const { return src_device ? src_device : dst_device; }
};

Result<CopyPlan> PlanCopy(Runtime& runtime, const void* dst, size_t dst_span, const void* src,
                          size_t src_span, CopyKind kind) {
  if (dst == nullptr) return Err(StatusCode::kInvalidParam, "dst must not be NULL");
  if (src == nullptr) return Err(StatusCode::kInvalidParam, "src must not be NULL");
  CopyPlan plan;
  auto dst_device = ResolveSide(runtime, dst, dst_span, "dst");
  if (!dst_device.ok()) return dst_device.status();
  auto src_device = ResolveSide(runtime, src, src_span, "src");
  if (!src_device.ok()) return src_device.status();
  plan.dst_device = *dst_device;
  plan.src_device = *src_device;
  const bool dst_on_device = plan.dst_device != nullptr;
  const bool src_on_device = plan.src_device != nullptr;
  CopyKind actual = src_on_device
                        ? (dst_on_device ? CopyKind::kDeviceToDevice : CopyKind::kDeviceToHost)
                        : (dst_on_device ? CopyKind::kHostToDevice : CopyKind::kHostToHost);
  if (kind != CopyKind::kDefault && kind != actual) {
    return Err(StatusCode::kInvalidParam,
               "kind {} does not match the addresses: src {} is {} memory, dst {} is {} memory",
               KindName(kind), src, src_on_device ? "device" : "host", dst,
               dst_on_device ? "device" : "host");
  }
  switch (actual) {
    case CopyKind::kHostToHost:
      plan.dir = driver::CopyDir::kHostToHost;
      break;
    case CopyKind::kHostToDevice:
      plan.dir = driver::CopyDir::kHostToDevice;
      break;
    case CopyKind::kDeviceToHost:
      plan.dir = driver::CopyDir::kDeviceToHost;
      break;
    default:
      plan.dir = driver::CopyDir::kDeviceToDevice;
      if (plan.src_device != plan.dst_device) {
        const int32_t s = plan.src_device->id();
        const int32_t d = plan.dst_device->id();
        if (!plan.src_device->PeerAccessEnabled(d) && !plan.dst_device->PeerAccessEnabled(s)) {
          return Err(StatusCode::kPeerAccessDenied,
                     "copy from device {} to device {} needs peer access: call "
                     "aclrtDeviceEnablePeerAccess first",
                     s, d);
        }
        plan.dir = driver::CopyDir::kPeerToPeer;
      }
      break;
  }
  return plan;
}

// The memory checker's view of a copy or memset: its device-side reads and writes.
struct CheckedSides {
  MemoryChecker::Access read{nullptr, 0, false};
  MemoryChecker::Access write{nullptr, 0, true};
};

// The bytes one side of a copy task spans: pitch x (height - 1) + width for a 2-D copy (checked
// not to wrap by Memcpy2d), else its byte count.
size_t SideSpan(const driver::Task& task, size_t pitch) {
  return task.kind == driver::TaskKind::kMemcpy2d ? pitch * (task.height - 1) + task.width
                                                  : task.bytes;
}

CheckedSides SidesOf(const CopyPlan& plan, const driver::Task& task) {
  CheckedSides sides;
  if (plan.dst_device) sides.write = {task.dst, SideSpan(task, task.dpitch), true};
  if (plan.src_device && task.kind != driver::TaskKind::kMemset) {
    sides.read = {task.src, SideSpan(task, task.spitch), false};
  }
  return sides;
}

// Memory checker violations of a copy or memset about to be enqueued.
std::vector<std::string> CheckCopy(Runtime& runtime, const CopyPlan& plan, const driver::Task& task,
                                   const CheckedSides& sides, bool async) {
  MemoryChecker& checker = MemoryChecker::Instance();
  std::vector<std::string> violations;
  if (plan.src_device && sides.read.ptr != nullptr) {
    violations = checker.Check(*plan.src_device, task.label, &sides.read, 1);
  }
  const bool h2d = plan.dir == driver::CopyDir::kHostToDevice;
  const bool d2h = plan.dir == driver::CopyDir::kDeviceToHost;
  if (async && (h2d || d2h)) {
    const void* host = h2d ? task.src : task.dst;
    std::string pinned = checker.CheckPinned(
        host, task.bytes, task.label, runtime.host_memory().Find(host, task.bytes).has_value());
    if (!pinned.empty()) violations.push_back(std::move(pinned));
  }
  return violations;
}

void RecordCopy(const CopyPlan& plan, const CheckedSides& sides, Stream* stream, uint64_t task_id) {
  MemoryChecker& checker = MemoryChecker::Instance();
  if (plan.dst_device) checker.Record(*plan.dst_device, stream, task_id, &sides.write, 1);
  if (plan.src_device && sides.read.ptr != nullptr) {
    checker.Record(*plan.src_device, stream, task_id, &sides.read, 1);
  }
}

// Runs `task` synchronously on the executor device's copy queue, or on `stream` if async.
// An async copy from pageable host memory (not from aclrtMallocHost / aclrtHostRegister) copies
// its source at enqueue, as CUDA stages pageable memory: the caller may free or reuse the buffer
// as soon as the call returns (docs/errors.md, "Hostile input"). Pinned memory is read when the
// task runs, as CANN requires of it.
void StagePageableSource(Runtime& runtime, const CopyPlan& plan, driver::Task* task) {
  if (plan.dir != driver::CopyDir::kHostToDevice) return;
  const size_t span = SideSpan(*task, task->spitch);
  if (runtime.host_memory().Find(task->src, span)) return;
  auto staged = std::make_shared<std::vector<uint8_t>>(
      static_cast<const uint8_t*>(task->src), static_cast<const uint8_t*>(task->src) + span);
  task->src = staged->data();
  task->keep_alive = std::move(staged);
}

Status Execute(Runtime& runtime, const CopyPlan& plan, driver::Task task, const void* stream,
               bool async) {
  task.dir = plan.dir;
  const bool checking = MemoryChecker::On() && plan.executor() != nullptr;
  std::vector<std::string> violations;
  CheckedSides sides;
  if (checking) {
    sides = SidesOf(plan, task);
    violations = CheckCopy(runtime, plan, task, sides, async);
  }
  if (async) {
    auto target = runtime.ResolveStream(stream, "stream");
    if (!target.ok()) return target.status();
    const auto& device = (*target)->device();
    if (plan.src_device && plan.src_device != device && plan.dst_device != device) {
      return Err(StatusCode::kResourceNotMatch,
                 "{}: stream belongs to device {}, but the copy's device memory does not",
                 task.label, device->id());
    }
    if (!plan.src_device && plan.dst_device && plan.dst_device != device) {
      return Err(StatusCode::kResourceNotMatch,
                 "{}: stream belongs to device {}, dst is memory of device {}", task.label,
                 device->id(), plan.dst_device->id());
    }
    StagePageableSource(runtime, plan, &task);
    if (!checking) return Submit(**target, std::move(task));
    uint64_t task_id = 0;
    ACLSIM_RETURN_IF_ERROR(Submit(**target, std::move(task), &task_id));
    RecordCopy(plan, sides, target->get(), task_id);
    for (const std::string& violation : violations) {
      ACLSIM_RETURN_IF_ERROR(MemoryChecker::Report(*target, violation));
    }
    return Status::Ok();
  }
  auto device = plan.executor();
  if (!device) {  // host to host: nothing for a device to do
    if (task.kind == driver::TaskKind::kMemcpy2d) {
      for (size_t row = 0; row < task.height; ++row) {
        std::memmove(static_cast<char*>(task.dst) + row * task.dpitch,
                     static_cast<const char*>(task.src) + row * task.spitch, task.width);
      }
    } else if (task.kind == driver::TaskKind::kMemset) {
      std::memset(task.dst, task.value, task.bytes);
    } else {
      std::memmove(task.dst, task.src, task.bytes);
    }
    return Status::Ok();
  }
  auto backend = device->backend();
  if (!backend.ok()) return backend.status();
  {
    std::lock_guard<std::mutex> lock(device->copy_mutex());
    MarkTraced(task);
    ACLSIM_RETURN_IF_ERROR((*backend)->Submit(device->copy_queue(), std::move(task), nullptr));
  }
  ACLSIM_RETURN_IF_ERROR((*backend)->SyncQueue(device->copy_queue(), /*timeout_ms=*/-1));
  if (!checking) return Status::Ok();
  RecordCopy(plan, sides, nullptr, 0);
  if (!violations.empty()) return MemoryChecker::Report(nullptr, violations.front());
  return Status::Ok();
}

Status CopyImpl(Runtime& runtime, void* dst, size_t dest_max, const void* src, size_t count,
                CopyKind kind, const void* stream, bool async) {
  if (count > dest_max) {
    return Err(StatusCode::kInvalidParam, "count {} exceeds destMax {}", count, dest_max);
  }
  auto plan = PlanCopy(runtime, dst, count, src, count, kind);
  if (!plan.ok()) return plan.status();
  if (count == 0) return Status::Ok();
  driver::Task task;
  task.kind = driver::TaskKind::kMemcpy;
  task.dst = dst;
  task.src = src;
  task.bytes = count;
  task.label = async ? "aclrtMemcpyAsync" : "aclrtMemcpy";
  return Execute(runtime, *plan, std::move(task), stream, async);
}

}  // namespace

Status Memcpy(Runtime& runtime, void* dst, size_t dest_max, const void* src, size_t count,
              CopyKind kind) {
  return CopyImpl(runtime, dst, dest_max, src, count, kind, nullptr, /*async=*/false);
}

Status MemcpyAsync(Runtime& runtime, void* dst, size_t dest_max, const void* src, size_t count,
                   CopyKind kind, const void* stream) {
  return CopyImpl(runtime, dst, dest_max, src, count, kind, stream, /*async=*/true);
}

Status Memcpy2d(Runtime& runtime, void* dst, size_t dpitch, const void* src, size_t spitch,
                size_t width, size_t height, CopyKind kind, const void* stream, bool async) {
  if (width == 0 || height == 0) {
    return Err(StatusCode::kInvalidParam, "width ({}) and height ({}) must be greater than 0",
               width, height);
  }
  if (dpitch < width || spitch < width) {
    return Err(StatusCode::kInvalidParam, "dpitch ({}) and spitch ({}) must be >= width ({})",
               dpitch, spitch, width);
  }
  // The bytes each side spans, pitch x (height - 1) + width, must not wrap.
  size_t dst_span = 0;
  size_t src_span = 0;
  if (__builtin_mul_overflow(dpitch, height - 1, &dst_span) ||
      __builtin_add_overflow(dst_span, width, &dst_span) ||
      __builtin_mul_overflow(spitch, height - 1, &src_span) ||
      __builtin_add_overflow(src_span, width, &src_span)) {
    return Err(StatusCode::kInvalidParam,
               "dpitch {} / spitch {} x height {} span more bytes than an address space holds",
               dpitch, spitch, height);
  }
  auto plan = PlanCopy(runtime, dst, dst_span, src, src_span, kind);
  if (!plan.ok()) return plan.status();
  driver::Task task;
  task.kind = driver::TaskKind::kMemcpy2d;
  task.dst = dst;
  task.src = src;
  task.dpitch = dpitch;
  task.spitch = spitch;
  task.width = width;
  task.height = height;
  task.bytes = width * height;
  task.label = async ? "aclrtMemcpy2dAsync" : "aclrtMemcpy2d";
  return Execute(runtime, *plan, std::move(task), stream, async);
}

namespace {

// A memset of `count` bytes at `dst` (`what` names the pointer argument): `value` repeated
// as `value_bytes`-byte elements.
Status SubmitMemset(Runtime& runtime, void* dst, size_t count, int value, uint8_t value_bytes,
                    const char* what, const char* label, const void* stream, bool async) {
  auto device = ResolveSide(runtime, dst, count, what);
  if (!device.ok()) return device.status();
  // A memset writes only memory aclsim knows: a live device allocation, or host memory from
  // aclrtMallocHost / aclrtHostRegister. Any other pointer (the caller's malloc or stack, an
  // unmapped address) is refused, as aclrtMemcpy refuses a device range it cannot find.
  if (!*device && !runtime.host_memory().Find(dst, std::max<size_t>(count, 1))) {
    return Err(StatusCode::kInvalidParam,
               "{} {} (+{} bytes) is neither device memory (aclrtMalloc) nor host memory from "
               "aclrtMallocHost or aclrtHostRegister",
               what, dst, count);
  }
  if (count == 0) return Status::Ok();
  CopyPlan plan;
  plan.dst_device = *device;
  plan.dir = *device ? driver::CopyDir::kDeviceToDevice : driver::CopyDir::kHostToHost;
  driver::Task task;
  task.kind = driver::TaskKind::kMemset;
  task.dst = dst;
  task.bytes = count;
  task.value = value;
  task.value_bytes = value_bytes;
  task.label = label;
  return Execute(runtime, plan, std::move(task), stream, async);
}

}  // namespace

Status Memset(Runtime& runtime, void* dst, size_t max_count, int32_t value, size_t count,
              const void* stream, bool async) {
  if (dst == nullptr) return Err(StatusCode::kInvalidParam, "devPtr must not be NULL");
  if (count > max_count) {
    return Err(StatusCode::kInvalidParam, "count {} exceeds maxCount {}", count, max_count);
  }
  return SubmitMemset(runtime, dst, count, value, 1, "devPtr",
                      async ? "aclrtMemsetAsync" : "aclrtMemset", stream, async);
}

Status MemsetD32(Runtime& runtime, void* dst, size_t mem_size, uint32_t value, size_t n,
                 const void* stream, bool async) {
  if (dst == nullptr) return Err(StatusCode::kInvalidParam, "ptr must not be NULL");
  if (reinterpret_cast<uintptr_t>(dst) % 4 != 0) {
    return Err(StatusCode::kInvalidParam, "ptr {} is not 4-byte aligned", dst);
  }
  if (n > mem_size / 4) {
    return Err(StatusCode::kInvalidParam, "N {} 32-bit values do not fit in memSize {} bytes", n,
               mem_size);
  }
  return SubmitMemset(runtime, dst, n * 4, static_cast<int>(value), 4, "ptr",
                      async ? "aclrtMemsetD32Async" : "aclrtMemsetD32", stream, async);
}

}  // namespace aclsim::core
