// OpLaunchMemo: the calls this thread launched last and their compiled kernels.
//
// A program usually runs the same op with the same descriptor and attribute objects again
// and again. The memo lets such a call skip validation, the cache key and the single-op
// model lookup: an entry is the call as launched (type, every descriptor field, attributes;
// before values are read from buffers -- calls that need that are not remembered) with the
// OpCache ticket of its kernel. A hit still counts as an OpCache hit and refreshes the
// entry's LRU position; an entry whose kernel has left the cache is dropped, so the memo
// never changes which kernel a call runs or what the cache reports.
//
// Thread-safety: per thread (thread_local storage); no locking.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "core/op_cache.h"
#include "ops/op_kernel.h"

namespace aclsim::core {

// The descriptors and attributes of a call, as views.
struct OpCallDescs {
  std::string_view type;
  const ops::TensorDesc* const* inputs = nullptr;
  size_t num_inputs = 0;
  const ops::TensorDesc* const* outputs = nullptr;
  size_t num_outputs = 0;
  const ops::AttrMap* attrs = nullptr;  // null: none
};

namespace op_launch_memo {

inline constexpr size_t kEntries = 8;

// The remembered kernel of an identical call in `cache`, or nullptr.
std::shared_ptr<const ops::OpKernel> Find(OpCache& cache, const OpCallDescs& call);
// Remembers `call` (copied) with its kernel and cache ticket, replacing the oldest entry.
void Remember(const OpCache& cache, const OpCache::Ticket& ticket, const OpCallDescs& call,
              std::shared_ptr<const ops::OpKernel> kernel);
// Forgets everything this thread remembers.
void Clear();

}  // namespace op_launch_memo
}  // namespace aclsim::core
