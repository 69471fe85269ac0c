// Backend creation, device enumeration and properties.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class DeviceTest : public DriverTest {
 protected:
  void SetUp() override {}  // each test builds its own backend
};

TEST_P(DeviceTest, EnumeratesTheConfiguredDevices) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->name(), GetParam());
  EXPECT_EQ(driver->DeviceCount(), 2u);
}

// DESIGN.md: the defaults are 8 devices of Ascend910B2.
TEST_P(DeviceTest, DefaultsAreEightAscend910B2Devices) {
  auto created = CreateBackend(GetParam(), {});
  ASSERT_TRUE(created.ok()) << created.status().message();
  EXPECT_EQ(created.value()->DeviceCount(), 8u);
  Result<DeviceProps> props = created.value()->Props(7);
  ASSERT_TRUE(props.ok()) << props.status().message();
  EXPECT_EQ(props->soc_name, "Ascend910B2");
}

TEST_P(DeviceTest, PropsAreFilledIn) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  for (uint32_t id = 0; id < driver->DeviceCount(); ++id) {
    SCOPED_TRACE(testing::Message() << "device " << id);
    Result<DeviceProps> props = driver->Props(id);
    ASSERT_TRUE(props.ok()) << props.status().message();
    EXPECT_EQ(props->soc_name, "Ascend910B2");
    EXPECT_GT(props->npu_arch, 0u);
    EXPECT_GT(props->aicore_num, 0u);
    EXPECT_GT(props->clock_hz, 0u);
    EXPECT_GT(props->hbm_bytes, 0u);
    EXPECT_GT(props->max_streams, 0u);
    EXPECT_GT(props->max_events, 0u);
    EXPECT_GT(props->max_blocks_per_kernel, 0u);
    // CANN convention: 0 is the greatest priority, larger numbers are lower priorities.
    EXPECT_LE(props->stream_priority_greatest, props->stream_priority_least);
  }
}

TEST_P(DeviceTest, OpenedDeviceHasTheEnumeratedProps) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  for (uint32_t id = 0; id < driver->DeviceCount(); ++id) {
    Result<DeviceProps> props = driver->Props(id);
    ASSERT_TRUE(props.ok()) << props.status().message();
    auto device = OpenDevice(*driver, id);
    ASSERT_NE(device, nullptr);
    EXPECT_EQ(device->props().soc_name, props->soc_name);
    EXPECT_EQ(device->props().hbm_bytes, props->hbm_bytes);
    EXPECT_EQ(device->props().max_streams, props->max_streams);
    EXPECT_EQ(device->props().max_events, props->max_events);
    EXPECT_EQ(device->props().aicore_num, props->aicore_num);
  }
}

TEST_P(DeviceTest, EverySocProfileNamesItself) {
  for (const char* soc :
       {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910A", "Ascend310",
        "Ascend310B1", "Ascend310B2", "Ascend310B3", "Ascend310B4", "Ascend310P3"}) {
    SCOPED_TRACE(soc);
    auto driver = MakeDriver({{"soc", soc}});
    ASSERT_NE(driver, nullptr);
    Result<DeviceProps> props = driver->Props(0);
    ASSERT_TRUE(props.ok()) << props.status().message();
    EXPECT_EQ(props->soc_name, soc);
    EXPECT_GT(props->aicore_num, 0u);
    EXPECT_GT(props->max_streams, 0u);
    EXPECT_GT(props->max_events, 0u);
  }
}

TEST_P(DeviceTest, UnknownSocIsInvalidParam) {
  auto created = CreateBackend(GetParam(), {{"soc", "Ascend123X"}});
  ACLSIM_EXPECT_CODE(created.status(), StatusCode::kInvalidParam);
}

TEST_P(DeviceTest, MalformedOptionsAreInvalidParam) {
  const BackendOptions bad[] = {
      {{"device_count", "two"}}, {{"device_count", "0"}},    {{"device_count", "-1"}},
      {{"device_count", ""}},    {{"hbm_bytes", "12x"}},     {{"hbm_bytes", "0"}},
      {{"workers", "0"}},        {{"fault_fail_task", "a"}}, {{"ddr_bytes", "1.5"}},
  };
  for (const BackendOptions& options : bad) {
    SCOPED_TRACE(testing::Message()
                 << options.begin()->first << "='" << options.begin()->second << "'");
    auto created = CreateBackend(GetParam(), options);
    ACLSIM_EXPECT_CODE(created.status(), StatusCode::kInvalidParam);
  }
}

TEST_P(DeviceTest, UnknownOptionsAreIgnored) {
  auto driver = MakeDriver({{"no_such_option", "whatever"}});
  EXPECT_NE(driver, nullptr);
}

TEST_P(DeviceTest, UnknownBackendIsInvalidParam) {
  DriverRegistry registry;
  RegisterConformanceBackends(registry);
  EXPECT_TRUE(registry.Has(GetParam()));
  ACLSIM_EXPECT_CODE(registry.Create("no-such-backend", {}).status(), StatusCode::kInvalidParam);
}

TEST_P(DeviceTest, DeviceIdPastTheCountIsRefused) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  EXPECT_FALSE(driver->Props(driver->DeviceCount()).ok());
  std::unique_ptr<Device> device;
  EXPECT_FALSE(driver->OpenDevice(driver->DeviceCount(), &device).ok());
  EXPECT_EQ(device, nullptr);
}

TEST_P(DeviceTest, DevicesOfOneBackendOpenTogether) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  auto d0 = OpenDevice(*driver, 0);
  auto d1 = OpenDevice(*driver, 1);
  ASSERT_NE(d0, nullptr);
  ASSERT_NE(d1, nullptr);
}

// The core destroys a device at reset and may open it again later.
TEST_P(DeviceTest, DeviceReopensAfterClose) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    auto device = OpenDevice(*driver, 0);
    ASSERT_NE(device, nullptr);
    QueueId queue = NewQueue(*device);
    void* buf = Alloc(*device, 4096);
    ASSERT_NE(buf, nullptr);
    SubmitOk(*device, queue, MemsetTask(buf, 7, 4096));
    SyncOk(*device, queue);
    // A fresh device numbers its tasks from 1 again.
    EXPECT_EQ(SubmitOk(*device, queue, HostFuncTask([] {})), 2u);
    SyncOk(*device, queue);
  }
}

// Closing a device with work that can never run (a wait for a record that never comes) and
// a held external task must not hang.
TEST_P(DeviceTest, CloseWithOutstandingWorkReturns) {
  auto driver = MakeDriver();
  ASSERT_NE(driver, nullptr);
  auto device = OpenDevice(*driver, 0);
  ASSERT_NE(device, nullptr);
  QueueId q0 = NewQueue(*device);
  QueueId q1 = NewQueue(*device);
  EventId never = NewEvent(*device);
  std::atomic<bool> ran{false};
  SubmitOk(*device, q0, WaitTask(never, 0));
  SubmitOk(*device, q0, HostFuncTask([&ran] { ran = true; }));
  Task held;
  held.kind = TaskKind::kExternal;
  held.external_start = [](uint64_t) {};
  SubmitOk(*device, q1, std::move(held));
  device.reset();
  EXPECT_FALSE(ran.load());
}

ACLSIM_CONFORMANCE_SUITE(DeviceTest);

}  // namespace
}  // namespace aclsim::driver::conformance
