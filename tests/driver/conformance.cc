#include "conformance.h"

#include <cctype>
#include <utility>

#include "sim/register.h"

namespace aclsim::driver::conformance {

void RegisterConformanceBackends(DriverRegistry& registry) {
  sim::RegisterSimBackends(registry);  // "sim", "sim-inline"
}

std::string BackendParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// --- task builders --------------------------------------------------------------------

Task CopyTask(void* dst, const void* src, size_t bytes, CopyDir dir) {
  Task t;
  t.kind = TaskKind::kMemcpy;
  t.dst = dst;
  t.src = src;
  t.bytes = bytes;
  t.dir = dir;
  t.label = "copy";
  return t;
}

Task Copy2dTask(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                size_t height, CopyDir dir) {
  Task t;
  t.kind = TaskKind::kMemcpy2d;
  t.dst = dst;
  t.dpitch = dpitch;
  t.src = src;
  t.spitch = spitch;
  t.width = width;
  t.height = height;
  t.bytes = width * height;
  t.dir = dir;
  t.label = "copy2d";
  return t;
}

Task MemsetTask(void* dst, int value, size_t bytes) {
  Task t;
  t.kind = TaskKind::kMemset;
  t.dst = dst;
  t.value = value;
  t.bytes = bytes;
  t.label = "memset";
  return t;
}

Task HostFuncTask(std::function<void()> fn) {
  Task t;
  t.kind = TaskKind::kHostFunc;
  t.host_fn = std::move(fn);
  t.label = "host-func";
  return t;
}

Task KernelTask(std::function<void()> fn, uint32_t blocks) {
  Task t;
  t.kind = TaskKind::kKernel;
  t.host_fn = std::move(fn);
  t.engine = Engine::kAiCore;
  t.blocks = blocks;
  t.label = "kernel";
  return t;
}

Task RecordTask(EventId event) {
  Task t;
  t.kind = TaskKind::kEventRecord;
  t.event = event;
  t.label = "record";
  return t;
}

Task ResetTask(EventId event) {
  Task t;
  t.kind = TaskKind::kEventReset;
  t.event = event;
  t.label = "reset";
  return t;
}

Task WaitTask(EventId event, uint32_t event_device) {
  Task t;
  t.kind = TaskKind::kEventWait;
  t.event = event;
  t.event_device = event_device;
  t.label = "wait";
  return t;
}

// --- Flag, Log --------------------------------------------------------------------------

void Flag::Set() {
  std::lock_guard<std::mutex> lock(mu_);
  set_ = true;
  cv_.notify_all();
}

bool Flag::IsSet() const {
  std::lock_guard<std::mutex> lock(mu_);
  return set_;
}

bool Flag::WaitFor(std::chrono::milliseconds limit) const {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, limit, [this] { return set_; });
}

void Log::Add(int value) {
  std::lock_guard<std::mutex> lock(mu_);
  values_.push_back(value);
}

std::vector<int> Log::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return values_;
}

size_t Log::Size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return values_.size();
}

// --- Blocker ----------------------------------------------------------------------------

Blocker::Blocker(Device& device, QueueId queue) : device_(device) {
  Task t;
  t.kind = TaskKind::kExternal;
  t.label = "blocker";
  auto started = started_;
  auto calls = start_calls_;
  t.external_start = [started, calls](uint64_t) {
    calls->fetch_add(1);
    started->Set();
  };
  Status status = device_.Submit(queue, std::move(t), &task_id_);
  EXPECT_TRUE(status.ok()) << "Submit(blocker): " << status.message();
  submitted_ = status.ok();
}

Blocker::~Blocker() {
  Join();
  // Cleanup after a failed test: complete a started task so that nothing waits for it; an
  // unstarted one is dropped when its device closes.
  if (submitted_ && !released_ && Started()) {
    released_ = true;
    device_.CompleteExternal(task_id_, Status::Ok());
  }
}

void Blocker::Release(Status status) {
  if (!submitted_ || released_) return;
  released_ = true;
  EXPECT_TRUE(WaitStarted()) << "external_start of task " << task_id_ << " was never called";
  device_.CompleteExternal(task_id_, std::move(status));
}

void Blocker::ReleaseLater(std::chrono::milliseconds delay, Status status) {
  if (!submitted_ || released_) return;
  released_ = true;
  releaser_ = std::thread([this, delay, status] {
    std::this_thread::sleep_for(delay);
    if (started_->WaitFor()) device_.CompleteExternal(task_id_, status);
  });
}

void Blocker::Join() {
  if (releaser_.joinable()) releaser_.join();
}

// --- HeldHostFunc -------------------------------------------------------------------------

HeldHostFunc::HeldHostFunc(Device& device, QueueId queue) {
  auto entered = entered_;
  auto open = open_;
  submitter_ = std::thread([this, &device, queue, entered, open] {
    uint64_t id = 0;
    submit_status_ = device.Submit(queue, HostFuncTask([entered, open] {
                                     entered->Set();
                                     open->WaitFor();
                                   }),
                                   &id);
  });
}

HeldHostFunc::~HeldHostFunc() { Open(); }

void HeldHostFunc::Open() {
  open_->Set();
  if (submitter_.joinable()) submitter_.join();
}

// --- buffers --------------------------------------------------------------------------

std::vector<uint8_t> Pattern(size_t bytes, uint32_t seed) {
  std::vector<uint8_t> data(bytes);
  uint32_t x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < bytes; ++i) {
    x = x * 1103515245u + 12345u;
    data[i] = static_cast<uint8_t>(x >> 16);
  }
  return data;
}

// --- backends, DriverTest -----------------------------------------------------------------------

BackendOptions BaseOptions() {
  return {{"soc", "Ascend910B2"}, {"device_count", "2"}, {"hbm_bytes", std::to_string(256 * kMiB)}};
}

Result<std::unique_ptr<Driver>> CreateBackend(const std::string& name,
                                              const BackendOptions& options) {
  DriverRegistry registry;
  RegisterConformanceBackends(registry);
  return registry.Create(name, options);
}

std::unique_ptr<Driver> MakeBackend(const std::string& name, const BackendOptions& extra) {
  BackendOptions options = BaseOptions();
  for (const auto& [key, value] : extra) options[key] = value;
  auto created = CreateBackend(name, options);
  EXPECT_TRUE(created.ok()) << "creating backend '" << name << "': " << created.status().message();
  if (!created.ok()) return nullptr;
  return std::move(created.value());
}

std::unique_ptr<Device> OpenDeviceOf(Driver& driver, uint32_t id) {
  std::unique_ptr<Device> device;
  Status status = driver.OpenDevice(id, &device);
  EXPECT_TRUE(status.ok()) << "OpenDevice(" << id << "): " << status.message();
  EXPECT_TRUE(!status.ok() || device != nullptr);
  return device;
}

void DriverTest::SetUp() {
  driver_ = MakeDriver();
  ASSERT_NE(driver_, nullptr);
  device_ = OpenDevice(*driver_, 0);
  ASSERT_NE(device_, nullptr);
}

void DriverTest::TearDown() {
  device_.reset();
  driver_.reset();
}

QueueId DriverTest::NewQueue(Device& device) {
  QueueId queue = 0;
  Status status = device.CreateQueue({}, &queue);
  EXPECT_TRUE(status.ok()) << "CreateQueue: " << status.message();
  return queue;
}

EventId DriverTest::NewEvent(Device& device) {
  EventId event = 0;
  Status status = device.CreateEvent(0, &event);
  EXPECT_TRUE(status.ok()) << "CreateEvent: " << status.message();
  return event;
}

uint64_t DriverTest::SubmitOk(Device& device, QueueId queue, Task task) {
  uint64_t id = 0;
  Status status = device.Submit(queue, std::move(task), &id);
  EXPECT_TRUE(status.ok()) << "Submit: " << status.message();
  return id;
}

void* DriverTest::Alloc(Device& device, size_t bytes, MemPool pool, PageSize page) {
  void* addr = nullptr;
  Status status = device.AllocPhysical(pool, page, bytes, &addr);
  EXPECT_TRUE(status.ok()) << "AllocPhysical(" << bytes << "): " << status.message();
  return addr;
}

void DriverTest::SyncOk(Device& device, QueueId queue) {
  Status status = device.SyncQueue(queue, kSyncLimitMs);
  EXPECT_TRUE(status.ok()) << "SyncQueue(" << queue << "): " << status.message();
}

uint64_t DriverTest::Timestamp(Device& device, EventId event) {
  Device::EventState state = device.QueryEvent(event);
  EXPECT_TRUE(state.recorded) << "event " << event << " not recorded";
  EXPECT_TRUE(state.complete) << "event " << event << " not complete";
  return state.timestamp_ns;
}

}  // namespace aclsim::driver::conformance
