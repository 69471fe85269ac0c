// Notifies, counting notifies and stream-ordered memory values: the core behind aclrt*Notify*,
// aclrtCntNotify* and aclrtValueWrite / aclrtValueWait.
//
// A notify (aclrtNotify) is a binary flag of its device: a record sets it, a wait blocks its
// stream until it is set and then clears it. A counting notify (aclrtCntNotify) holds a 32-bit
// count that records change (set, add, or, and) and waits compare against. Both are counters
// of the backend (driver.h CreateCounter); records, waits and resets are stream tasks
// (driver::TaskKind::kSignal / kWaitSignal). aclrtValueWrite / aclrtValueWait do the same on
// 8 bytes of live device memory. Wait timeouts are wall-clock (driver::Task::wait_timeout_ms).
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "core/objects.h"
#include "core/runtime.h"

namespace aclsim::core {

// Creates a notify / counting notify on the current context's device.
Result<std::shared_ptr<Notify>> CreateNotify(Runtime& runtime);
Result<std::shared_ptr<CntNotify>> CreateCntNotify(Runtime& runtime);
// Retires the handle and frees the counter; waits still blocked on it are released.
Status DestroyNotify(const void* handle);
Status DestroyCntNotify(const void* handle);

// Notify: record (sets the flag), wait-and-reset (timeout in seconds, 0 = forever), and the
// host-side reset of aclrtNotifyBatchReset.
Status RecordNotify(Notify& notify, Stream& stream);
Status WaitAndResetNotify(Notify& notify, Stream& stream, uint32_t timeout_s);
Status ResetNotify(Notify& notify);

// Counting notify. `mode`: ACL_RT_CNT_NOTIFY_RECORD_* / ACL_RT_CNT_NOTIFY_WAIT_* values
// (kInvalidParam for others); the wait's timeout is in seconds (0 = forever); `clear` resets
// the count to 0 when the wait is satisfied.
Status CntNotifyRecord(CntNotify& notify, Stream& stream, uint32_t mode, uint32_t value);
Status CntNotifyWait(CntNotify& notify, Stream& stream, uint32_t mode, uint32_t value,
                     uint32_t timeout_s, bool clear);
Status CntNotifyReset(CntNotify& notify, Stream& stream);

// aclrtValueWrite / aclrtValueWait: `addr` must be 8 live bytes of device memory on the
// stream's device, 8-byte aligned (kInvalidParam otherwise). Write flag: 0 only. Wait flag:
// ACL_STREAM_WAIT_VALUE_GEQ / EQ / AND / NOR. The wait has no timeout.
Status ValueWrite(Stream& stream, void* addr, uint64_t value, uint32_t flag);
Status ValueWait(Stream& stream, void* addr, uint64_t value, uint32_t flag);

}  // namespace aclsim::core
