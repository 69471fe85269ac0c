// Helpers shared by the sim backend tests: backends, devices and task builders.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "driver/driver.h"
#include "driver/registry.h"
#include "sim/register.h"
#include "sim/soc_profile.h"

namespace aclsim::sim::testing {

// The cost parameters and device properties of the default SoC (Ascend910B2).
inline const CostParams& Cost() { return FindSocProfile("Ascend910B2")->cost; }
inline const driver::DeviceProps& Props() { return FindSocProfile("Ascend910B2")->props; }

using driver::BackendOptions;
using driver::CopyDir;
using driver::Device;
using driver::Driver;
using driver::QueueId;
using driver::Task;
using driver::TaskKind;

// Creates a backend by name ("sim" or "sim-inline") through a registry, as the core does.
inline std::unique_ptr<Driver> MakeBackend(const std::string& name, BackendOptions options = {}) {
  driver::DriverRegistry registry;
  RegisterSimBackends(registry);
  if (options.count("hbm_bytes") == 0) options["hbm_bytes"] = std::to_string(256u << 20);
  auto created = registry.Create(name, options);
  EXPECT_TRUE(created.ok()) << created.status().message();
  return created.ok() ? std::move(created.value()) : nullptr;
}

inline std::unique_ptr<Device> Open(Driver& driver, uint32_t id = 0) {
  std::unique_ptr<Device> device;
  Status status = driver.OpenDevice(id, &device);
  EXPECT_TRUE(status.ok()) << status.message();
  return device;
}

inline QueueId NewQueue(Device& device) {
  QueueId queue = 0;
  Status status = device.CreateQueue({}, &queue);
  EXPECT_TRUE(status.ok()) << status.message();
  return queue;
}

inline driver::EventId NewEvent(Device& device) {
  driver::EventId event = 0;
  Status status = device.CreateEvent(0, &event);
  EXPECT_TRUE(status.ok()) << status.message();
  return event;
}

inline Task Copy(void* dst, const void* src, size_t bytes, CopyDir dir) {
  Task t;
  t.kind = TaskKind::kMemcpy;
  t.dst = dst;
  t.src = src;
  t.bytes = bytes;
  t.dir = dir;
  return t;
}

inline Task HostFunc(std::function<void()> fn, const char* label = "host-func") {
  Task t;
  t.kind = TaskKind::kHostFunc;
  t.host_fn = std::move(fn);
  t.label = label;
  return t;
}

inline Task Kernel(uint32_t blocks, uint64_t flops, uint64_t bytes_moved,
                   std::function<void()> fn = {}, const char* label = "kernel") {
  Task t;
  t.kind = TaskKind::kKernel;
  t.engine = driver::Engine::kAiCore;
  t.blocks = blocks;
  t.flops = flops;
  t.bytes_moved = bytes_moved;
  t.host_fn = std::move(fn);
  t.label = label;
  return t;
}

inline Task EventTask(TaskKind kind, driver::EventId event, uint32_t event_device = 0) {
  Task t;
  t.kind = kind;
  t.event = event;
  t.event_device = event_device;
  return t;
}

// An external task whose id is stored in *id when it starts.
inline Task External(std::atomic<uint64_t>* started_id) {
  Task t;
  t.kind = TaskKind::kExternal;
  t.external_start = [started_id](uint64_t id) { started_id->store(id); };
  t.label = "external";
  return t;
}

inline uint64_t SubmitOk(Device& device, QueueId queue, Task task) {
  uint64_t id = 0;
  Status status = device.Submit(queue, std::move(task), &id);
  EXPECT_TRUE(status.ok()) << status.message();
  return id;
}

#define ASSERT_OK(expr)                                      \
  do {                                                       \
    ::aclsim::Status _st = (expr);                           \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.message(); \
  } while (0)
#define EXPECT_OK(expr)                                      \
  do {                                                       \
    ::aclsim::Status _st = (expr);                           \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.message(); \
  } while (0)

// Parameter name printer for tests run against both backends.
inline std::string BackendParamName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param == "sim" ? "Threaded" : "Inline";
}

}  // namespace aclsim::sim::testing
