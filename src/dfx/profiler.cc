#include "dfx/profiler.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

namespace aclsim::dfx::prof {
namespace {

thread_local uint64_t current_api_call = 0;

}  // namespace

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
  if (active()) trace_.tasks.push_back(std::move(record));
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
