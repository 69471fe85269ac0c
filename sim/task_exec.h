// Functional execution of the data-moving tasks: the real memcpy / memset a task stands for.
//
// Device memory is host virtual memory (DeviceMemory), so every copy direction is a plain
// host copy. Arguments were validated at submission (ValidateTask).
//
// Thread-safety: pure functions over the task's buffers; the caller guarantees that the
// buffers are not written concurrently (queue order and event dependencies).
#pragma once

#include "common/status.h"
#include "driver/task.h"

namespace aclsim::sim {

// Checks a task's plain arguments at submission: kInvalidParam naming the bad argument
// (NULL buffer with a non-zero size, 2-D width larger than a pitch, kExternal without
// external_start, kernel with 0 blocks).
Status ValidateTask(const driver::Task& task);

// A short name for logs and messages ("memcpy", "event-wait", ...).
const char* TaskKindName(driver::TaskKind kind);

// Performs kMemcpy / kMemcpy2d / kMemset; other kinds do nothing here.
void ExecuteDataTask(const driver::Task& task);

}  // namespace aclsim::sim
