// The profiling markers' state (dfx/prof_marks.h).
#include "dfx/prof_marks.h"

namespace aclsim::dfx::prof {

uint64_t MessageId(std::string_view message) {
  uint64_t hash = 1469598103934665603ULL;
  for (const char c : message) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return hash == 0 ? 1 : hash;
}

void RangeBook::Push(Stack stack, MarkRecord range) {
  std::lock_guard<std::mutex> lock(mu_);
  stacks_[{range.thread_id, stack}].push_back(std::move(range));
}

std::optional<MarkRecord> RangeBook::Pop(Stack stack, uint64_t thread_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stacks_.find({thread_id, stack});
  if (it == stacks_.end()) return std::nullopt;
  MarkRecord range = std::move(it->second.back());
  it->second.pop_back();
  if (it->second.empty()) stacks_.erase(it);
  return range;
}

uint32_t RangeBook::Start(MarkRecord range) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint32_t id = next_range_++;
  ranges_[id] = std::move(range);
  return id;
}

std::optional<MarkRecord> RangeBook::Stop(uint32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ranges_.find(id);
  if (it == ranges_.end()) return std::nullopt;
  MarkRecord range = std::move(it->second);
  ranges_.erase(it);
  return range;
}

void RangeBook::Name(uint64_t id, std::string message) {
  std::lock_guard<std::mutex> lock(mu_);
  names_.emplace(id, std::move(message));
}

std::optional<std::string> RangeBook::NameOf(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = names_.find(id);
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

}  // namespace aclsim::dfx::prof
