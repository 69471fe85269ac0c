#include "core/report_hub.h"

#include <pthread.h>

#include <chrono>
#include <vector>

namespace aclsim::core {

uint64_t ReportHub::CurrentThreadId() { return static_cast<uint64_t>(pthread_self()); }

Status ReportHub::Subscribe(uint64_t thread_id, const void* stream_key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stream_thread_.find(stream_key);
  if (it != stream_thread_.end()) {
    return Err(StatusCode::kRepeatSubscribe, "stream {} is already subscribed to report thread {}",
               stream_key, it->second);
  }
  stream_thread_[stream_key] = thread_id;
  queues_[thread_id];  // the thread now counts as subscribed
  return Status::Ok();
}

Status ReportHub::Unsubscribe(uint64_t thread_id, const void* stream_key) {
  std::vector<std::function<void()>> leftovers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = stream_thread_.find(stream_key);
    if (it == stream_thread_.end() || it->second != thread_id) {
      return Err(StatusCode::kStreamNotSubscribe, "stream {} is not subscribed to report thread {}",
                 stream_key, thread_id);
    }
    stream_thread_.erase(it);
    auto& queue = queues_[thread_id];
    for (auto pending = queue.begin(); pending != queue.end();) {
      if (pending->stream_key == stream_key) {
        leftovers.push_back(std::move(pending->run));
        pending = queue.erase(pending);
      } else {
        ++pending;
      }
    }
    bool still_used = false;
    for (const auto& entry : stream_thread_) still_used |= entry.second == thread_id;
    if (!still_used && queue.empty()) queues_.erase(thread_id);
  }
  for (auto& run : leftovers) run();
  return Status::Ok();
}

uint64_t ReportHub::ThreadOf(const void* stream_key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stream_thread_.find(stream_key);
  return it == stream_thread_.end() ? 0 : it->second;
}

void ReportHub::Post(uint64_t thread_id, const void* stream_key, std::function<void()> run) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) {
      closing_.push_back(std::move(run));
    } else {
      queues_[thread_id].push_back(Pending{stream_key, std::move(run)});
    }
  }
  cv_.notify_all();
}

Status ReportHub::Process(int32_t timeout_ms) {
  const uint64_t self = CurrentThreadId();
  std::deque<Pending> ready;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (queues_.find(self) == queues_.end()) {
      return Err(StatusCode::kThreadNotSubscribe,
                 "thread {} has no stream subscribed with aclrtSubscribeReport", self);
    }
    auto has_work = [&] {
      auto it = queues_.find(self);
      return closed_ || it == queues_.end() || !it->second.empty();
    };
    if (timeout_ms < 0) {
      cv_.wait(lock, has_work);
    } else if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), has_work)) {
      return Err(StatusCode::kWaitTimeout, "no callback arrived within {} ms", timeout_ms);
    }
    if (closed_) {
      return Err(StatusCode::kUninitialized,
                 "aclFinalize ran while this thread waited: the callbacks still pending were run "
                 "by the runtime; end the report thread");
    }
    auto it = queues_.find(self);
    if (it == queues_.end()) {
      return Err(StatusCode::kThreadNotSubscribe, "thread {} was unsubscribed while waiting", self);
    }
    ready.swap(it->second);
  }
  for (auto& pending : ready) pending.run();
  return Status::Ok();
}

void ReportHub::BeginClose() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return;
    closed_ = true;
    stopping_ = false;
    for (auto& entry : queues_) {
      for (auto& pending : entry.second) closing_.push_back(std::move(pending.run));
      entry.second.clear();
    }
    closer_ = std::thread([this] { RunClosed(); });
  }
  cv_.notify_all();
}

void ReportHub::RunClosed() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !closing_.empty(); });
    if (closing_.empty()) return;  // stopping, and nothing left
    std::function<void()> run = std::move(closing_.front());
    closing_.pop_front();
    lock.unlock();
    run();
    lock.lock();
  }
}

void ReportHub::EndClose() {
  std::thread closer;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    closer = std::move(closer_);
  }
  cv_.notify_all();
  if (closer.joinable()) closer.join();
  std::vector<std::function<void()>> left;  // posted after the thread ended
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& run : closing_) left.push_back(std::move(run));
    closing_.clear();
  }
  for (auto& run : left) run();
}

ReportHub::~ReportHub() { EndClose(); }

}  // namespace aclsim::core
