// OpLaunchMemo (core/op_launch_memo.h).
#include "core/op_launch_memo.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace aclsim::core::op_launch_memo {

namespace {

struct Entry {
  const OpCache* cache = nullptr;
  OpCache::Ticket ticket;
  std::string type;
  std::vector<ops::TensorDesc> inputs;
  std::vector<ops::TensorDesc> outputs;
  ops::AttrMap attrs;
  std::shared_ptr<const ops::OpKernel> kernel;
};

struct Memo {
  std::array<Entry, kEntries> entries;
  size_t next = 0;  // replaced next (round robin)
  // Left empty, not dangling, for calls made after the thread's thread_locals are destroyed
  // (core/runtime.cc).
  ~Memo() {
    for (Entry& e : entries) e = Entry{};
  }
};

Memo& ThreadMemo() {
  thread_local Memo memo;
  return memo;
}

bool SameDescs(const std::vector<ops::TensorDesc>& kept, const ops::TensorDesc* const* given,
               size_t count) {
  if (kept.size() != count) return false;
  for (size_t i = 0; i < count; ++i) {
    if (kept[i] != *given[i]) return false;
  }
  return true;
}

bool Same(const Entry& e, const OpCallDescs& call) {
  if (e.type != call.type || !SameDescs(e.inputs, call.inputs, call.num_inputs) ||
      !SameDescs(e.outputs, call.outputs, call.num_outputs)) {
    return false;
  }
  return call.attrs == nullptr ? e.attrs.empty() : e.attrs == *call.attrs;
}

}  // namespace

std::shared_ptr<const ops::OpKernel> Find(OpCache& cache, const OpCallDescs& call) {
  for (Entry& e : ThreadMemo().entries) {
    if (e.cache != &cache || e.kernel == nullptr || !Same(e, call)) continue;
    if (cache.Touch(e.ticket)) return e.kernel;
    e = Entry{};  // its kernel left the cache
    return nullptr;
  }
  return nullptr;
}

void Remember(const OpCache& cache, const OpCache::Ticket& ticket, const OpCallDescs& call,
              std::shared_ptr<const ops::OpKernel> kernel) {
  Entry entry;
  entry.cache = &cache;
  entry.ticket = ticket;
  entry.type = std::string(call.type);
  entry.inputs.reserve(call.num_inputs);
  for (size_t i = 0; i < call.num_inputs; ++i) entry.inputs.push_back(*call.inputs[i]);
  entry.outputs.reserve(call.num_outputs);
  for (size_t i = 0; i < call.num_outputs; ++i) entry.outputs.push_back(*call.outputs[i]);
  if (call.attrs != nullptr) entry.attrs = *call.attrs;
  entry.kernel = std::move(kernel);
  Memo& memo = ThreadMemo();
  memo.entries[memo.next] = std::move(entry);
  memo.next = (memo.next + 1) % kEntries;
}

void Clear() {
  Memo& memo = ThreadMemo();
  for (Entry& e : memo.entries) e = Entry{};
  memo.next = 0;
}

}  // namespace aclsim::core::op_launch_memo
