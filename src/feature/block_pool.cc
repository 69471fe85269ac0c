#include "feature/block_pool.h"

#include <limits>

#include "core/memory_ops.h"

namespace aclsim::feature {

BlockPool::BlockPool(std::shared_ptr<core::Device> device, void* base, size_t block_size,
                     size_t blocks)
    : device_(std::move(device)), base_(base), block_size_(block_size), in_use_(blocks, false) {
  free_.reserve(blocks);
  for (size_t i = blocks; i > 0; --i) free_.push_back(static_cast<uint32_t>(i - 1));
}

Result<void*> BlockPool::Alloc() {
  if (device_->released()) {
    return Err(StatusCode::kInvalidDevice, "the pool's device {} was reset", device_->id());
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (free_.empty()) {
    return Err(StatusCode::kDeviceOom, "block pool exhausted: all {} blocks of {} bytes in use",
               in_use_.size(), block_size_);
  }
  const uint32_t index = free_.back();
  free_.pop_back();
  in_use_[index] = true;
  return static_cast<void*>(static_cast<char*>(base_) + size_t{index} * block_size_);
}

Status BlockPool::Free(const void* ptr) {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  const auto base = reinterpret_cast<uintptr_t>(base_);
  const uintptr_t offset = addr - base;
  std::lock_guard<std::mutex> lock(mu_);
  if (addr < base || offset % block_size_ != 0 || offset / block_size_ >= in_use_.size()) {
    return Err(StatusCode::kMemoryFree, "{} is not the start of a block of this pool", ptr);
  }
  const size_t index = offset / block_size_;
  if (!in_use_[index]) {
    return Err(StatusCode::kMemoryFree, "block {} at {} is not allocated (freed twice?)", index,
               ptr);
  }
  in_use_[index] = false;
  free_.push_back(static_cast<uint32_t>(index));
  return Status::Ok();
}

size_t BlockPool::free_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return free_.size();
}

Result<void*> CreateBlockPool(core::Runtime& runtime, size_t total, size_t block_size,
                              uint32_t policy) {
  if (block_size == 0 || block_size > (size_t{1} << 40)) {
    return Err(StatusCode::kInvalidParam, "blockSize {} must be in (0, 2^40]", block_size);
  }
  const size_t rounded =
      (block_size + BlockPool::kAlignment - 1) / BlockPool::kAlignment * BlockPool::kAlignment;
  const size_t blocks = total / rounded;
  if (blocks == 0) {
    return Err(StatusCode::kInvalidParam,
               "totalSize {} holds no block of {} bytes (blockSize {} rounded up to 64)", total,
               rounded, block_size);
  }
  if (blocks > std::numeric_limits<uint32_t>::max()) {
    return Err(StatusCode::kInvalidParam, "{} blocks are too many (at most 2^32 - 1)", blocks);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime.CurrentContext());
  ACLSIM_ASSIGN_OR_RETURN(
      void* base, core::DeviceMalloc(runtime, blocks * rounded, policy, "aclextBlockPoolCreate"));
  auto pool = core::MakeHandleObject<BlockPool>(context->device(), base, rounded, blocks);
  return core::PublishHandle(pool);
}

Result<std::shared_ptr<BlockPool>> LookupBlockPool(void* handle) {
  return core::LookupHandle<BlockPool>(handle, "pool");
}

Status DestroyBlockPool(core::Runtime& runtime, void* handle) {
  ACLSIM_ASSIGN_OR_RETURN(auto pool, LookupBlockPool(handle));
  const size_t in_use = pool->block_count() - pool->free_count();
  if (in_use > 0) {
    return Err(StatusCode::kInvalidParam,
               "pool {} still has {} block(s) in use: free them with aclextBlockPoolFree first",
               handle, in_use);
  }
  ACLSIM_RETURN_IF_ERROR(core::RetireHandle<BlockPool>(handle, "pool").status());
  if (pool->device()->released()) return Status::Ok();  // reset reclaimed the memory
  return core::DeviceFree(runtime, pool->base());
}

}  // namespace aclsim::feature
