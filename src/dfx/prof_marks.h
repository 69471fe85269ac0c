// The profiling markers' state of one runtime (acl_prof.h): the ranges in flight and the
// messages named by id.
//
//   * per thread, two stacks: aclprofPush / aclprofPop and aclprofRangePushEx / aclprofRangePop;
//   * by id: aclprofRangeStart / aclprofRangeStop (ids from 1, per runtime);
//   * aclprofStr2Id's messages, so a range pushed with an op's name id is named by its text.
//
// The runtime owns it (core::Runtime::attachments), so aclFinalize forgets every open range
// and every name: nothing of one init reaches the next.
//
// Thread-safety: every member may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfx/prof_records.h"

namespace aclsim::dfx::prof {

// aclprofStr2Id: FNV-1a of the message, never 0 (the same string gives the same id in every
// run and every process).
uint64_t MessageId(std::string_view message);

class RangeBook {
 public:
  enum class Stack { kPush, kPushEx };

  // Pushes `range` on its thread's (range.thread_id) stack.
  void Push(Stack stack, MarkRecord range);
  // The range on top of `thread_id`'s stack, removed; nullopt if the stack is empty.
  std::optional<MarkRecord> Pop(Stack stack, uint64_t thread_id);
  // Starts a range by id (from 1); Stop returns it, or nullopt for an id not started (or
  // already stopped).
  uint32_t Start(MarkRecord range);
  std::optional<MarkRecord> Stop(uint32_t id);

  // Names `id` by `message` (the first name of an id stays); the name of an id, if any.
  void Name(uint64_t id, std::string message);
  std::optional<std::string> NameOf(uint64_t id) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<uint64_t, Stack>, std::vector<MarkRecord>> stacks_;
  std::map<uint32_t, MarkRecord> ranges_;
  uint32_t next_range_ = 1;
  std::map<uint64_t, std::string> names_;
};

}  // namespace aclsim::dfx::prof
