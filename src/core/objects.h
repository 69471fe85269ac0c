// The runtime's resource objects behind the ACL handles: Context, Stream, Event.
//
// Each is owned by the HandleTable (via shared_ptr) from creation until its destroy call
// (or until its device is reset) and points at its Device. All three are small: the work
// of creating, destroying and using them is in device.cc / stream_ops.cc / event_ops.cc.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "core/handle_table.h"
#include "core/param_table.h"
#include "driver/driver.h"

namespace aclsim::core {

class Device;
class Stream;

class Context {
 public:
  static constexpr HandleKind kHandleKind = HandleKind::kContext;

  Context(std::shared_ptr<Device> device, bool is_default)
      : device_(std::move(device)), is_default_(is_default) {}

  const std::shared_ptr<Device>& device() const { return device_; }
  bool is_default() const { return is_default_; }
  // The context's default stream (the NULL stream while this context is current).
  std::shared_ptr<Stream> default_stream() const {
    std::lock_guard<std::mutex> lock(mu_);
    return default_stream_;
  }
  void set_default_stream(std::shared_ptr<Stream> stream) {
    std::lock_guard<std::mutex> lock(mu_);
    default_stream_ = std::move(stream);
  }
  // aclrtCtxSetSysParamOpt values.
  ParamTable& params() { return params_; }
  // Set when the handle is retired (aclrtDestroyContext, device reset): the context can no
  // longer be current.
  bool retired() const { return retired_.load(std::memory_order_acquire); }
  void mark_retired() { retired_.store(true, std::memory_order_release); }

 private:
  std::shared_ptr<Device> device_;
  bool is_default_;
  std::atomic<bool> retired_{false};
  mutable std::mutex mu_;
  std::shared_ptr<Stream> default_stream_;
  ParamTable params_;
};

class Stream : public std::enable_shared_from_this<Stream> {
 public:
  static constexpr HandleKind kHandleKind = HandleKind::kStream;

  Stream(std::shared_ptr<Device> device, driver::QueueId queue, uint32_t flags, int32_t priority,
         bool is_default)
      : device_(std::move(device)),
        queue_(queue),
        flags_(flags),
        priority_(priority),
        is_default_(is_default) {}

  const std::shared_ptr<Device>& device() const { return device_; }
  driver::QueueId queue() const { return queue_; }
  uint32_t flags() const { return flags_; }
  int32_t priority() const { return priority_; }
  bool is_default() const { return is_default_; }
  // Serialises submissions to this stream from several threads (task order = call order).
  std::mutex& submit_mutex() { return submit_mu_; }

  uint64_t failure_mode() const { return failure_mode_.load(); }
  void set_failure_mode(uint64_t mode) { failure_mode_.store(mode); }
  // Report thread subscribed with aclrtSubscribeReport (0 = none).
  uint64_t report_thread() const { return report_thread_.load(); }
  void set_report_thread(uint64_t thread) { report_thread_.store(thread); }
  bool destroyed() const { return destroyed_.load(); }
  void mark_destroyed() { destroyed_.store(true); }

 private:
  std::shared_ptr<Device> device_;
  driver::QueueId queue_;
  uint32_t flags_;
  int32_t priority_;
  bool is_default_;
  std::mutex submit_mu_;
  std::atomic<uint64_t> failure_mode_{0};
  std::atomic<uint64_t> report_thread_{0};
  std::atomic<bool> destroyed_{false};
};

class Event {
 public:
  static constexpr HandleKind kHandleKind = HandleKind::kEvent;

  Event(std::shared_ptr<Device> device, driver::EventId id, uint32_t flags)
      : device_(std::move(device)), id_(id), flags_(flags) {}

  const std::shared_ptr<Device>& device() const { return device_; }
  driver::EventId id() const { return id_; }
  uint32_t flags() const { return flags_; }

 private:
  std::shared_ptr<Device> device_;
  driver::EventId id_;
  uint32_t flags_;
};

// A notify (aclrtNotify) or counting notify (aclrtCntNotify): a counter of its device's
// backend (driver.h CreateCounter). kKind is HandleKind::kNotify or kCntNotify.
template <HandleKind kKind>
class NotifyObject {
 public:
  static constexpr HandleKind kHandleKind = kKind;

  NotifyObject(std::shared_ptr<Device> device, driver::CounterId id)
      : device_(std::move(device)), id_(id) {}

  const std::shared_ptr<Device>& device() const { return device_; }
  driver::CounterId id() const { return id_; }

 private:
  std::shared_ptr<Device> device_;
  driver::CounterId id_;
};

using Notify = NotifyObject<HandleKind::kNotify>;
using CntNotify = NotifyObject<HandleKind::kCntNotify>;

}  // namespace aclsim::core
