#include "core/notifies.h"

#include <limits>

#include "core/streams.h"

namespace aclsim::core {
namespace {

// Wait timeouts are given in seconds; the driver takes milliseconds (capped: ~49 days).
uint32_t SecondsToMs(uint32_t seconds) {
  constexpr uint32_t kMax = std::numeric_limits<uint32_t>::max() / 1000;
  return seconds > kMax ? kMax * 1000 : seconds * 1000;
}

template <typename T>
Result<std::shared_ptr<T>> Create(Runtime& runtime) {
  auto context = runtime.CurrentContext();
  if (!context.ok()) return context.status();
  const auto& device = (*context)->device();
  auto backend = device->backend();
  if (!backend.ok()) return backend.status();
  driver::CounterId id = 0;
  ACLSIM_RETURN_IF_ERROR((*backend)->CreateCounter(&id));
  auto notify = MakeHandleObject<T>(device, id);
  PublishHandle(notify);
  return notify;
}

template <typename T>
Status Destroy(const void* handle, const char* what) {
  auto notify = RetireHandle<T>(handle, what);
  if (!notify.ok()) return notify.status();
  auto backend = (*notify)->device()->backend();
  if (!backend.ok()) return Status::Ok();  // the device was reset: its counters are gone
  return (*backend)->DestroyCounter((*notify)->id());
}

template <typename T>
Status SameDevice(const T& notify, const Stream& stream, const char* api) {
  if (notify.device() != stream.device()) {
    return Err(StatusCode::kResourceNotMatch,
               "{}: the notify belongs to device {}, the stream to device {}", api,
               notify.device()->id(), stream.device()->id());
  }
  return Status::Ok();
}

driver::Task CounterTask(driver::TaskKind kind, driver::CounterId id, const char* label) {
  driver::Task task;
  task.kind = kind;
  task.event = id;
  task.label = label;
  return task;
}

Status CheckDeviceValue(const Stream& stream, const void* addr, const char* api) {
  if (addr == nullptr) return Err(StatusCode::kInvalidParam, "devAddr is NULL");
  if (reinterpret_cast<uintptr_t>(addr) % 8 != 0) {
    return Err(StatusCode::kInvalidParam, "devAddr {} is not 8-byte aligned", addr);
  }
  const auto& device = stream.device();
  if (!device->Covers(addr, 8) || !device->FindLive(addr, 8).has_value()) {
    return Err(StatusCode::kInvalidParam,
               "{}: devAddr {} is not 8 bytes of live device memory of device {} (the stream's)",
               api, addr, device->id());
  }
  return Status::Ok();
}

}  // namespace

Result<std::shared_ptr<Notify>> CreateNotify(Runtime& runtime) { return Create<Notify>(runtime); }

Result<std::shared_ptr<CntNotify>> CreateCntNotify(Runtime& runtime) {
  return Create<CntNotify>(runtime);
}

Status DestroyNotify(const void* handle) { return Destroy<Notify>(handle, "notify"); }

Status DestroyCntNotify(const void* handle) { return Destroy<CntNotify>(handle, "cntNotify"); }

Status RecordNotify(Notify& notify, Stream& stream) {
  ACLSIM_RETURN_IF_ERROR(SameDevice(notify, stream, "aclrtRecordNotify"));
  driver::Task task = CounterTask(driver::TaskKind::kSignal, notify.id(), "aclrtRecordNotify");
  task.signal_op = driver::SignalOp::kSet;
  task.signal_value = 1;
  return Submit(stream, std::move(task));
}

Status WaitAndResetNotify(Notify& notify, Stream& stream, uint32_t timeout_s) {
  ACLSIM_RETURN_IF_ERROR(SameDevice(notify, stream, "aclrtWaitAndResetNotify"));
  driver::Task task =
      CounterTask(driver::TaskKind::kWaitSignal, notify.id(), "aclrtWaitAndResetNotify");
  task.wait_cmp = driver::WaitCmp::kAnd;  // set: any bit
  task.signal_value = ~uint64_t{0};
  task.wait_clear = true;
  task.wait_timeout_ms = SecondsToMs(timeout_s);
  return Submit(stream, std::move(task));
}

Status ResetNotify(Notify& notify) {
  auto backend = notify.device()->backend();
  if (!backend.ok()) return backend.status();
  return (*backend)->ResetCounter(notify.id());
}

Status CntNotifyRecord(CntNotify& notify, Stream& stream, uint32_t mode, uint32_t value) {
  driver::SignalOp op = driver::SignalOp::kSet;
  switch (mode) {
    case 0:  // ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE
      op = driver::SignalOp::kSet;
      break;
    case 1:  // ADD_MODE
      op = driver::SignalOp::kAdd;
      break;
    case 2:  // BIT_OR_MODE
      op = driver::SignalOp::kOr;
      break;
    case 4:  // BIT_AND_MODE
      op = driver::SignalOp::kAnd;
      break;
    default:
      return Err(StatusCode::kInvalidParam,
                 "record mode {} is not an aclrtCntNotifyRecordMode (0 set, 1 add, 2 bit-or, 4 "
                 "bit-and)",
                 mode);
  }
  ACLSIM_RETURN_IF_ERROR(SameDevice(notify, stream, "aclrtCntNotifyRecord"));
  driver::Task task = CounterTask(driver::TaskKind::kSignal, notify.id(), "aclrtCntNotifyRecord");
  task.signal_op = op;
  task.signal_value = value;
  return Submit(stream, std::move(task));
}

Status CntNotifyWait(CntNotify& notify, Stream& stream, uint32_t mode, uint32_t value,
                     uint32_t timeout_s, bool clear) {
  driver::WaitCmp cmp = driver::WaitCmp::kEq;
  switch (mode) {
    case 0:  // ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: count < value
      cmp = driver::WaitCmp::kLess;
      break;
    case 1:  // EQUAL_MODE
      cmp = driver::WaitCmp::kEq;
      break;
    case 2:  // BIGGER_MODE: count > value
      cmp = driver::WaitCmp::kGreater;
      break;
    case 3:  // BIGGER_OR_EQUAL_MODE
      cmp = driver::WaitCmp::kGreaterEq;
      break;
    case 4:  // EQUAL_WITH_BITMASK_MODE: every bit of value set in the count
      cmp = driver::WaitCmp::kMaskEq;
      break;
    default:
      return Err(StatusCode::kInvalidParam,
                 "wait mode {} is not an aclrtCntNotifyWaitMode (0 less, 1 equal, 2 bigger, 3 "
                 "bigger-or-equal, 4 equal-with-bitmask)",
                 mode);
  }
  ACLSIM_RETURN_IF_ERROR(SameDevice(notify, stream, "aclrtCntNotifyWaitWithTimeout"));
  driver::Task task =
      CounterTask(driver::TaskKind::kWaitSignal, notify.id(), "aclrtCntNotifyWaitWithTimeout");
  task.wait_cmp = cmp;
  task.signal_value = value;
  task.wait_clear = clear;
  task.wait_timeout_ms = SecondsToMs(timeout_s);
  return Submit(stream, std::move(task));
}

Status CntNotifyReset(CntNotify& notify, Stream& stream) {
  ACLSIM_RETURN_IF_ERROR(SameDevice(notify, stream, "aclrtCntNotifyReset"));
  driver::Task task = CounterTask(driver::TaskKind::kSignal, notify.id(), "aclrtCntNotifyReset");
  task.signal_op = driver::SignalOp::kSet;
  task.signal_value = 0;
  return Submit(stream, std::move(task));
}

Status ValueWrite(Stream& stream, void* addr, uint64_t value, uint32_t flag) {
  if (flag != 0) {
    return Err(StatusCode::kInvalidParam, "flag {} is reserved and must be 0", flag);
  }
  ACLSIM_RETURN_IF_ERROR(CheckDeviceValue(stream, addr, "aclrtValueWrite"));
  driver::Task task;
  task.kind = driver::TaskKind::kSignal;
  task.dst = addr;
  task.signal_op = driver::SignalOp::kSet;
  task.signal_value = value;
  task.label = "aclrtValueWrite";
  return Submit(stream, std::move(task));
}

Status ValueWait(Stream& stream, void* addr, uint64_t value, uint32_t flag) {
  driver::WaitCmp cmp = driver::WaitCmp::kGeq;
  switch (flag) {
    case 0:  // ACL_STREAM_WAIT_VALUE_GEQ: (int64_t)(*addr - value) >= 0
      cmp = driver::WaitCmp::kGeq;
      break;
    case 1:  // EQ
      cmp = driver::WaitCmp::kEq;
      break;
    case 2:  // AND: (*addr & value) != 0
      cmp = driver::WaitCmp::kAnd;
      break;
    case 3:  // NOR: ~(*addr | value) != 0
      cmp = driver::WaitCmp::kNor;
      break;
    default:
      return Err(StatusCode::kInvalidParam,
                 "flag {} is not an ACL_STREAM_WAIT_VALUE_* value (0 GEQ, 1 EQ, 2 AND, 3 NOR)",
                 flag);
  }
  ACLSIM_RETURN_IF_ERROR(CheckDeviceValue(stream, addr, "aclrtValueWait"));
  driver::Task task;
  task.kind = driver::TaskKind::kWaitSignal;
  task.dst = addr;
  task.wait_cmp = cmp;
  task.signal_value = value;
  task.label = "aclrtValueWait";
  return Submit(stream, std::move(task));
}

}  // namespace aclsim::core
