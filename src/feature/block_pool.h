// Fixed-block device memory pools (acl/acl_ext.h: aclextBlockPool*): one allocation of the
// device's caching allocator, cut into equal blocks kept on a free stack.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"
#include "core/device.h"
#include "core/handle_table.h"
#include "core/runtime.h"

namespace aclsim::feature {

class BlockPool {
 public:
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kBlockPool;
  static constexpr size_t kAlignment = 64;

  BlockPool(std::shared_ptr<core::Device> device, void* base, size_t block_size, size_t blocks);

  Result<void*> Alloc();
  Status Free(const void* ptr);
  size_t block_size() const { return block_size_; }
  size_t block_count() const { return in_use_.size(); }
  size_t free_count() const;
  void* base() const { return base_; }
  const std::shared_ptr<core::Device>& device() const { return device_; }

 private:
  const std::shared_ptr<core::Device> device_;
  void* const base_;
  const size_t block_size_;
  mutable std::mutex mu_;
  std::vector<uint32_t> free_;  // indices of free blocks (a stack)
  std::vector<bool> in_use_;
};

// Returns the new aclextBlockPool.
Result<void*> CreateBlockPool(core::Runtime& runtime, size_t total, size_t block_size,
                              uint32_t policy);
Status DestroyBlockPool(core::Runtime& runtime, void* handle);
Result<std::shared_ptr<BlockPool>> LookupBlockPool(void* handle);

}  // namespace aclsim::feature
