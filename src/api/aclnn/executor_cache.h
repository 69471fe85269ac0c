// The first-phase cache of the aclnn entries that frameworks call in their hot loops (CANN's
// op API keeps one too, aclnn_api.md 2.5): a call with the same operator, the same metadata
// of every tensor argument (dtype, format, dims, strides, offset, storage dims, and which
// arguments are the same tensor object), the same scalar, array and plain values, on the same
// device, gets a copy of the executor built the first time, bound to this call's device
// addresses, without building it again.
//
// Use: describe every argument of the entry in an NnCallKey, in prototype order, then call
// CachedFirstPhase instead of FirstPhase. An argument left out of the key would let a call
// that differs in it reuse a wrong executor: the key must hold all of them.
//
// Thread-safety: the cache is shared by all threads (one mutex); keys belong to one call.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "api/aclnn/nn_call.h"

namespace aclsim::api {

class NnCallKey {
 public:
  explicit NnCallKey(const char* api) : bytes_(api) { bytes_.push_back('\0'); }

  NnCallKey& Tensor(const aclTensor* handle);
  NnCallKey& Tensors(const aclTensorList* handle);
  NnCallKey& Scalar(const aclScalar* handle);
  NnCallKey& Ints(const aclIntArray* handle);
  template <typename T>
  NnCallKey& Plain(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    Put(&value, sizeof(value));
    return *this;
  }

  // False when a handle could not be resolved: the call then builds (and reports the error).
  bool usable() const { return usable_; }
  const std::string& bytes() const { return bytes_; }
  // The tensor objects of the key, in order (null for an absent optional one).
  const std::vector<std::shared_ptr<core::nn::NnTensor>>& tensors() const { return tensors_; }

 private:
  void Put(const void* data, size_t size) { bytes_.append(static_cast<const char*>(data), size); }
  void PutInts(const std::vector<int64_t>& values) {
    Plain(values.size());
    if (!values.empty()) Put(values.data(), values.size() * sizeof(int64_t));
  }

  std::string bytes_;
  std::vector<std::shared_ptr<core::nn::NnTensor>> tensors_;
  bool usable_ = true;
};

// The executor cached under `key` for the current device, as a fresh copy bound to the key's
// tensors; null on a miss.
std::shared_ptr<core::nn::Executor> CachedExecutor(const NnCallKey& key);
// Keeps a copy of `built` under `key` (when every slot came from one of the key's tensors).
void CacheExecutor(const NnCallKey& key, const core::nn::Executor& built);
// Drops every cached executor (tests; a device reset makes entries of its device unreachable).
void ClearExecutorCache();

// FirstPhase (nn_call.h) through the cache.
template <typename Build>
aclnnStatus CachedFirstPhase(const char* api, const NnCallKey& key, uint64_t* workspace_size,
                             aclOpExecutor** executor, Build&& build) noexcept {
  return NnCall(api, [&]() -> Status {
    if (workspace_size == nullptr) return Err(StatusCode::kNullPointer, "workspaceSize is NULL");
    if (executor == nullptr) return Err(StatusCode::kNullPointer, "executor is NULL");
    std::shared_ptr<core::nn::Executor> ready = key.usable() ? CachedExecutor(key) : nullptr;
    if (ready == nullptr) {
      ACLSIM_ASSIGN_OR_RETURN(ready, build());
      if (key.usable()) CacheExecutor(key, *ready);
    }
    ready->slot_sources.clear();
    *workspace_size = ready->workspace_size;
    *executor = static_cast<aclOpExecutor*>(core::PublishHandle(std::move(ready)));
    return Status::Ok();
  });
}

}  // namespace aclsim::api
