#include "sim/task_exec.h"

#include <cstring>

namespace aclsim::sim {

using driver::TaskKind;

const char* TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kMemcpy:
      return "memcpy";
    case TaskKind::kMemcpy2d:
      return "memcpy2d";
    case TaskKind::kMemset:
      return "memset";
    case TaskKind::kEventRecord:
      return "event-record";
    case TaskKind::kEventWait:
      return "event-wait";
    case TaskKind::kEventReset:
      return "event-reset";
    case TaskKind::kHostFunc:
      return "host-func";
    case TaskKind::kExternal:
      return "external";
    case TaskKind::kKernel:
      return "kernel";
    case TaskKind::kSignal:
      return "signal";
    case TaskKind::kWaitSignal:
      return "signal-wait";
  }
  return "?";
}

Status ValidateTask(const driver::Task& task) {
  switch (task.kind) {
    case TaskKind::kMemcpy:
      if (task.bytes > 0 && (task.dst == nullptr || task.src == nullptr)) {
        return Err(StatusCode::kInvalidParam, "memcpy of {} bytes with a NULL {} pointer",
                   task.bytes, task.dst == nullptr ? "destination" : "source");
      }
      break;
    case TaskKind::kMemcpy2d:
      if (task.width > 0 && task.height > 0) {
        if (task.dst == nullptr || task.src == nullptr) {
          return Err(StatusCode::kInvalidParam, "2-D memcpy with a NULL {} pointer",
                     task.dst == nullptr ? "destination" : "source");
        }
        if (task.width > task.dpitch || task.width > task.spitch) {
          return Err(StatusCode::kInvalidParam,
                     "2-D memcpy: width {} exceeds dpitch {} or spitch {}", task.width, task.dpitch,
                     task.spitch);
        }
      }
      break;
    case TaskKind::kMemset:
      if (task.bytes > 0 && task.dst == nullptr) {
        return Err(StatusCode::kInvalidParam, "memset of {} bytes with a NULL pointer", task.bytes);
      }
      break;
    case TaskKind::kExternal:
      if (!task.external_start) {
        return Err(StatusCode::kInvalidParam, "external task without external_start");
      }
      break;
    case TaskKind::kKernel:
      if (task.blocks == 0) return Err(StatusCode::kInvalidParam, "kernel with 0 blocks");
      break;
    case TaskKind::kSignal:
    case TaskKind::kWaitSignal:
      if (task.dst != nullptr && reinterpret_cast<uintptr_t>(task.dst) % 8 != 0) {
        return Err(StatusCode::kInvalidParam, "{}: address {} is not 8-byte aligned",
                   TaskKindName(task.kind), task.dst);
      }
      break;
    default:
      break;
  }
  return Status::Ok();
}

void ExecuteDataTask(const driver::Task& task) {
  switch (task.kind) {
    case TaskKind::kMemcpy:
      if (task.bytes > 0 && task.dst != task.src) std::memmove(task.dst, task.src, task.bytes);
      break;
    case TaskKind::kMemcpy2d: {
      auto* dst = static_cast<unsigned char*>(task.dst);
      const auto* src = static_cast<const unsigned char*>(task.src);
      for (size_t row = 0; row < task.height && task.width > 0; ++row) {
        std::memmove(dst + row * task.dpitch, src + row * task.spitch, task.width);
      }
      break;
    }
    case TaskKind::kMemset:
      if (task.value_bytes == 4) {
        const auto pattern = static_cast<uint32_t>(task.value);
        auto* dst = static_cast<unsigned char*>(task.dst);
        for (size_t at = 0; at + 4 <= task.bytes; at += 4) std::memcpy(dst + at, &pattern, 4);
      } else if (task.bytes > 0) {
        std::memset(task.dst, task.value, task.bytes);
      }
      break;
    default:
      break;
  }
}

}  // namespace aclsim::sim
