// DeviceMonitor: the device-side log and the persisted status of one opened device.
//
// Created when the runtime opens a device (Runtime::OpenLocked); it reads the device's
// settings (<log root>/npu/device-<id>/log_config.json, dfx/device_settings.h) and writes:
//  * the device log (dfx/device_log.h): the open (SoC, AI Core count, HBM) and the close
//    (task counters, simulated time) as EVENT lines of DRV; every task failure as an ERROR
//    line of TSCH (stream, task, op, error code); an injected fault as an ERROR of DRV, a lost
//    device as an ERROR of DRV; with task trace on, one DEBUG line of TSCH per completed task
//    (stream, task, op, simulated start and end in ns);
//  * status.json: at open, after each task failure and at close.
// The host plog keeps its own lines (ExceptionHub logs each failure under RUNTIME).
//
// A malformed log_config.json does not stop the device from opening: the defaults apply and a
// WARNING names the file in the host log.
//
// Thread-safety: all methods may be called concurrently (OnTaskFailure and OnTaskTraced run
// on backend threads).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "dfx/device_log.h"
#include "dfx/device_settings.h"
#include "driver/driver.h"

namespace aclsim::core {

class DeviceMonitor {
 public:
  // `root`: the log root (dfx::LogRootFromEnv() by default).
  DeviceMonitor(int32_t device_id, const driver::DeviceProps& props, std::string root);
  ~DeviceMonitor();
  DeviceMonitor(const DeviceMonitor&) = delete;
  DeviceMonitor& operator=(const DeviceMonitor&) = delete;

  const dfx::DeviceLogSettings& settings() const { return log_.settings(); }

  // The device is open: logs it and writes the first status. `backend` must stay valid until
  // OnClose (its counters are read at failures; they are relative to this call).
  void OnOpen(const driver::Device* backend);
  void OnTaskFailure(const driver::TaskFailure& failure);
  void OnTaskTraced(const driver::TaskTrace& trace);
  // The device is closing (its work has drained): logs and writes the final status. Later
  // failures are still logged, without counters. Idempotent.
  void OnClose();

 private:
  // Fills the counters of status_ from the backend (mu_ held).
  void UpdateCountersLocked();
  void SaveStatusLocked();

  const int32_t id_;
  const std::string root_;
  dfx::DeviceLog log_;
  std::mutex mu_;
  const driver::Device* backend_ = nullptr;
  driver::DeviceCounters baseline_;
  dfx::DeviceStatus status_;
  bool traces_ = false;  // counted in g_device_task_traces
  bool closed_ = false;
};

}  // namespace aclsim::core
