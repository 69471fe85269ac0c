#include "dfx/profiler.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

namespace aclsim::dfx::prof {
namespace {

thread_local uint64_t current_api_call = 0;

}  // namespace

std::atomic<bool> Profiler::active_{false};

Profiler& Profiler::Get() {
  static Profiler* profiler = new Profiler();  // never destroyed: used until the last exit
  return *profiler;
}

Status Profiler::Start(const RunInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  if (active()) return Err(StatusCode::kProfAlreadyRun, "profiling is already running");
  trace_ = Trace{};
  trace_.info = info;
  active_.store(true, std::memory_order_relaxed);
  return Status::Ok();
}

void Profiler::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  active_.store(false, std::memory_order_relaxed);
}

Trace Profiler::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  Trace out = std::move(trace_);
  trace_ = Trace{};
  return out;
}

void Profiler::AddTask(TaskRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  if (record.model_id != 0 && subscribed_any()) {
    auto it = subscribed_.find(record.model_id);
    if (it != subscribed_.end()) it->second.push_back(record);
  }
  if (active()) trace_.tasks.push_back(std::move(record));
}

void Profiler::Subscribe(uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (subscribed_.emplace(model_id, std::vector<TaskRecord>{}).second) {
    subscriptions_.fetch_add(1, std::memory_order_relaxed);
  }
}

void Profiler::Unsubscribe(uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (subscribed_.erase(model_id) > 0) subscriptions_.fetch_sub(1, std::memory_order_relaxed);
}

bool Profiler::IsSubscribed(uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return subscribed_.count(model_id) != 0;
}

std::vector<TaskRecord> Profiler::TakeSubscribed(uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = subscribed_.find(model_id);
  if (it == subscribed_.end()) return {};
  return std::exchange(it->second, {});
}

void Profiler::AddApi(ApiRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  if (active()) trace_.apis.push_back(std::move(record));
}

void Profiler::AddMark(MarkRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  if (active()) trace_.marks.push_back(std::move(record));
}

void Profiler::AddMemory(MemoryRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  if (active()) trace_.memory.push_back(record);
}

const char* Profiler::Intern(const char* text) {
  if (text == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(intern_mu_);
  return interned_.emplace(text).first->c_str();
}

uint64_t CurrentApiCall() { return current_api_call; }

void SetCurrentApiCall(uint64_t id) { current_api_call = id; }

uint64_t OsThreadId() { return static_cast<uint64_t>(::syscall(SYS_gettid)); }

}  // namespace aclsim::dfx::prof
