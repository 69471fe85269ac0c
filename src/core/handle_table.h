// HandleTable: the registry of live objects behind every opaque ACL handle.
//
// Each handle the API gives out (aclrtStream, aclrtEvent, aclrtContext, aclDataBuffer*, ...)
// is the address of a core object registered here with its kind. Every handle passed in is
// looked up before it is touched, so a NULL, destroyed, foreign or wrong-kind handle is an
// error with a message, never a dereference of freed memory. Lookups return shared_ptrs:
// an object destroyed by one thread stays alive until calls already using it on other
// threads return.
//
// The table is process-wide because some handles (data buffers, tensor descriptors) exist
// before aclInit and after aclFinalize.
//
// Handles are object addresses, so a destroyed object's address must not be handed out
// again while the program may still hold the old handle: otherwise the stale handle would
// silently name the new object (destroying a stale stream would destroy a newer one).
// Objects published as handles are therefore created with MakeHandleObject(), whose storage
// is not returned to the heap at once but waits in a FIFO quarantine (kHandleQuarantineBytes
// of recently freed handle objects). A stale handle then fails lookup with kInvalidHandle.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "common/spin_lock.h"
#include "common/status.h"

namespace aclsim::core {

enum class HandleKind : uint8_t {
  kContext,
  kStream,
  kEvent,
  kDataBuffer,
  kStreamConfig,
  kTensorDesc,
  kOpAttr,
  kOpHandle,
  kPhysicalMem,
  kMemPool,
  kBlockPool,
  kDataset,
  kModelConfig,
  kModelExecConfig,
  kModelDesc,
  kProfConfig,
  kProfStamp,
  kProfSubscribeConfig,
  kProfStepInfo,
  kNotify,
  kCntNotify,
  kNnTensor,
  kNnScalar,
  kNnIntArray,
  kNnFloatArray,
  kNnBoolArray,
  kNnTensorList,
  kNnScalarList,
  kNnExecutor,
  kOther,
};

const char* HandleKindName(HandleKind kind);

class HandleTable {
 public:
  static HandleTable& Global();

  // Registers `object` under its own address; returns that address (the handle).
  void* Add(HandleKind kind, std::shared_ptr<void> object);
  // The object behind `handle` if it is live and of `kind`; otherwise an error naming the
  // parameter (`what`, e.g. "stream") and what was wrong.
  Result<std::shared_ptr<void>> Get(const void* handle, HandleKind kind, const char* what) const;
  // Get for a typed object (T::kHandleKind), without converting through shared_ptr<void>.
  template <typename T>
  Result<std::shared_ptr<T>> GetAs(const void* handle, const char* what) const {
    std::shared_ptr<T> object;
    ACLSIM_RETURN_IF_ERROR(Visit<T>(handle, what, [&object](const std::shared_ptr<void>& found) {
      object = std::static_pointer_cast<T>(found);
    }));
    return object;
  }
  // Calls `read(const T&)` with the object behind `handle` while the table holds it (no
  // reference is taken: for copying a few fields out); the error of GetAs otherwise.
  template <typename T, typename Reader>
  Status Read(const void* handle, const char* what, Reader&& read) const {
    return Visit<T>(handle, what, [&read](const std::shared_ptr<void>& found) {
      read(*static_cast<const T*>(found.get()));
    });
  }
  // Unregisters and returns the object (error as Get).
  Result<std::shared_ptr<void>> Remove(const void* handle, HandleKind kind, const char* what);
  size_t Count(HandleKind kind) const;

 private:
  struct Entry {
    HandleKind kind;
    std::shared_ptr<void> object;
  };
  struct Shard {
    // A SpinLock: lookups are a hash probe and a reference count (every API call makes some).
    mutable SpinLock mu;
    std::unordered_map<const void*, Entry> entries;
  };
  Shard& ShardOf(const void* handle) const;
  // Calls `visit(object)` under the shard's lock if `handle` is a live T; the error (made
  // after the lock is released) otherwise.
  template <typename T, typename Visitor>
  Status Visit(const void* handle, const char* what, Visitor&& visit) const {
    bool missing = true;
    HandleKind found_kind = T::kHandleKind;
    if (handle != nullptr) {
      Shard& shard = ShardOf(handle);
      std::lock_guard<SpinLock> lock(shard.mu);
      auto it = shard.entries.find(handle);
      if (it != shard.entries.end() && it->second.kind == T::kHandleKind) {
        visit(it->second.object);
        return Status::Ok();
      }
      missing = it == shard.entries.end();
      if (!missing) found_kind = it->second.kind;
    }
    return LookupErrorOf(handle, T::kHandleKind, what, missing, found_kind);
  }

 public:
  // The error of a failed lookup: NULL handle, no such handle (`missing`), or a handle of
  // `found_kind`.
  static Status LookupErrorOf(const void* handle, HandleKind kind, const char* what, bool missing,
                              HandleKind found_kind);

 private:
  static constexpr size_t kShards = 16;
  mutable std::array<Shard, kShards> shards_;
};

// Storage of handle objects (see the quarantine above). Thread-safe.
inline constexpr size_t kHandleQuarantineBytes = size_t{16} << 20;
void* AllocateHandleStorage(size_t bytes, size_t alignment);
void ReleaseHandleStorage(void* storage, size_t bytes, size_t alignment);

template <typename T>
struct HandleAllocator {
  using value_type = T;
  HandleAllocator() = default;
  template <typename U>
  HandleAllocator(const HandleAllocator<U>&) {}  // NOLINT: rebinding must be implicit
  T* allocate(size_t n) {
    return static_cast<T*>(AllocateHandleStorage(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, size_t n) { ReleaseHandleStorage(p, n * sizeof(T), alignof(T)); }
  template <typename U>
  bool operator==(const HandleAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const HandleAllocator<U>&) const {
    return false;
  }
};

// Creates an object that will be published as a handle (use instead of std::make_shared).
template <typename T, typename... Args>
std::shared_ptr<T> MakeHandleObject(Args&&... args) {
  return std::allocate_shared<T>(HandleAllocator<T>(), std::forward<Args>(args)...);
}

// Typed lookup: T declares `static constexpr HandleKind kHandleKind`.
template <typename T>
Result<std::shared_ptr<T>> LookupHandle(const void* handle, const char* what) {
  return HandleTable::Global().GetAs<T>(handle, what);
}

template <typename T>
void* PublishHandle(std::shared_ptr<T> object) {
  return HandleTable::Global().Add(T::kHandleKind, std::move(object));
}

template <typename T>
Result<std::shared_ptr<T>> RetireHandle(const void* handle, const char* what) {
  auto found = HandleTable::Global().Remove(handle, T::kHandleKind, what);
  if (!found.ok()) return found.status();
  return std::static_pointer_cast<T>(found.value());
}

}  // namespace aclsim::core
