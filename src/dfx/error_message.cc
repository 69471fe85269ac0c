#include "dfx/error_message.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <utility>

#include "dfx/log.h"

namespace aclsim::dfx {
namespace {

using Pending = std::deque<std::string>;

std::atomic<int> g_mode{kErrMsgPerThread};

struct ThreadStore {
  Pending pending;       // err_msg_mode 0: this thread's unread messages, oldest first
  std::string returned;  // backs the pointer handed out by RecentErrorCStr()
};

ThreadStore& Tls() {
  thread_local ThreadStore store;
  return store;
}

struct ProcessStore {
  std::mutex mu;
  Pending pending;  // err_msg_mode 1: everyone's unread messages, oldest first
};

ProcessStore& Process() {
  static ProcessStore* store = new ProcessStore;  // leaked: usable from exit-time code
  return *store;
}

void Record(Pending* pending, std::string message) {
  if (std::find(pending->begin(), pending->end(), message) != pending->end()) return;
  if (pending->size() >= kMaxRecentErrors) pending->pop_front();
  pending->push_back(std::move(message));
}

}  // namespace

void SetRecentError(std::string message) {
  if (message.empty()) return;
  if (g_mode.load(std::memory_order_relaxed) == kErrMsgPerProcess) {
    message += fmt::format("[THREAD:{}]", gettid());
    ProcessStore& process = Process();
    std::lock_guard<std::mutex> lock(process.mu);
    Record(&process.pending, std::move(message));
    return;
  }
  Record(&Tls().pending, std::move(message));
}

const char* RecentErrorCStr() {
  ThreadStore& tls = Tls();
  Pending taken;
  if (g_mode.load(std::memory_order_relaxed) == kErrMsgPerProcess) {
    ProcessStore& process = Process();
    std::lock_guard<std::mutex> lock(process.mu);
    taken.swap(process.pending);
  } else {
    taken.swap(tls.pending);
  }
  if (taken.empty()) return nullptr;
  tls.returned.clear();
  for (auto it = taken.rbegin(); it != taken.rend(); ++it) {  // newest first
    if (!tls.returned.empty()) tls.returned.push_back('\n');
    tls.returned += *it;
  }
  return tls.returned.c_str();
}

void ClearRecentError() {
  if (g_mode.load(std::memory_order_relaxed) == kErrMsgPerProcess) {
    ProcessStore& process = Process();
    std::lock_guard<std::mutex> lock(process.mu);
    process.pending.clear();
    return;
  }
  Tls().pending.clear();
}

void SetErrMsgMode(int mode) {
  if (mode != kErrMsgPerThread && mode != kErrMsgPerProcess) {
    ACLSIM_LOG_WARN(Module::kAscendCl, "err_msg_mode {} is invalid (expected 0 or 1); keeping {}",
                    mode, g_mode.load(std::memory_order_relaxed));
    return;
  }
  g_mode.store(mode, std::memory_order_relaxed);
}

int GetErrMsgMode() { return g_mode.load(std::memory_order_relaxed); }

}  // namespace aclsim::dfx
