#include "core/handle_table.h"

#include <deque>
#include <functional>
#include <new>

namespace aclsim::core {

const char* HandleKindName(HandleKind kind) {
  switch (kind) {
    case HandleKind::kContext:
      return "aclrtContext";
    case HandleKind::kStream:
      return "aclrtStream";
    case HandleKind::kEvent:
      return "aclrtEvent";
    case HandleKind::kDataBuffer:
      return "aclDataBuffer";
    case HandleKind::kStreamConfig:
      return "aclrtStreamConfigHandle";
    case HandleKind::kTensorDesc:
      return "aclTensorDesc";
    case HandleKind::kOpAttr:
      return "aclopAttr";
    case HandleKind::kOpHandle:
      return "aclopHandle";
    case HandleKind::kPhysicalMem:
      return "aclrtDrvMemHandle";
    case HandleKind::kMemPool:
      return "aclrtMemPool";
    case HandleKind::kBlockPool:
      return "aclextBlockPool";
    case HandleKind::kDataset:
      return "aclmdlDataset";
    case HandleKind::kModelConfig:
      return "aclmdlConfigHandle";
    case HandleKind::kModelExecConfig:
      return "aclmdlExecConfigHandle";
    case HandleKind::kModelDesc:
      return "aclmdlDesc";
    case HandleKind::kProfConfig:
      return "aclprofConfig";
    case HandleKind::kProfStamp:
      return "stamp";
    case HandleKind::kProfSubscribeConfig:
      return "aclprofSubscribeConfig";
    case HandleKind::kProfStepInfo:
      return "aclprofStepInfo";
    case HandleKind::kNotify:
      return "aclrtNotify";
    case HandleKind::kCntNotify:
      return "aclrtCntNotify";
    case HandleKind::kNnTensor:
      return "aclTensor";
    case HandleKind::kNnScalar:
      return "aclScalar";
    case HandleKind::kNnIntArray:
      return "aclIntArray";
    case HandleKind::kNnFloatArray:
      return "aclFloatArray";
    case HandleKind::kNnBoolArray:
      return "aclBoolArray";
    case HandleKind::kNnTensorList:
      return "aclTensorList";
    case HandleKind::kNnScalarList:
      return "aclScalarList";
    case HandleKind::kNnExecutor:
      return "aclOpExecutor";
    case HandleKind::kOther:
      return "handle";
  }
  return "handle";
}

namespace {

// Recently freed handle objects, oldest first; freed for real past kHandleQuarantineBytes.
struct Quarantine {
  struct Block {
    void* storage;
    size_t bytes;
    size_t alignment;
  };
  std::mutex mu;
  std::deque<Block> blocks;
  size_t bytes = 0;
};

Quarantine& GlobalQuarantine() {
  static Quarantine* quarantine = new Quarantine();  // never destroyed: used at exit
  return *quarantine;
}

void FreeBlock(const Quarantine::Block& block) {
  ::operator delete(block.storage, std::align_val_t(block.alignment));
}

}  // namespace

void* AllocateHandleStorage(size_t bytes, size_t alignment) {
  return ::operator new(bytes, std::align_val_t(alignment));
}

void ReleaseHandleStorage(void* storage, size_t bytes, size_t alignment) {
  std::deque<Quarantine::Block> expired;
  {
    Quarantine& quarantine = GlobalQuarantine();
    std::lock_guard<std::mutex> lock(quarantine.mu);
    quarantine.blocks.push_back(Quarantine::Block{storage, bytes, alignment});
    quarantine.bytes += bytes;
    while (quarantine.bytes > kHandleQuarantineBytes) {
      quarantine.bytes -= quarantine.blocks.front().bytes;
      expired.push_back(quarantine.blocks.front());
      quarantine.blocks.pop_front();
    }
  }
  for (const auto& block : expired) FreeBlock(block);
}

HandleTable& HandleTable::Global() {
  static HandleTable* table = new HandleTable();  // never destroyed: handles outlive statics
  return *table;
}

HandleTable::Shard& HandleTable::ShardOf(const void* handle) const {
  auto bits = reinterpret_cast<uintptr_t>(handle);
  return shards_[(bits >> 4) % kShards];
}

void* HandleTable::Add(HandleKind kind, std::shared_ptr<void> object) {
  void* key = object.get();
  Shard& shard = ShardOf(key);
  std::lock_guard<SpinLock> lock(shard.mu);
  shard.entries[key] = Entry{kind, std::move(object)};
  return key;
}

namespace {

template <typename Map>
Result<std::shared_ptr<void>> FindLocked(Map& entries, const void* handle, HandleKind kind,
                                         const char* what) {
  auto it = entries.find(handle);
  if (it == entries.end() || it->second.kind != kind) {
    const bool missing = it == entries.end();
    return HandleTable::LookupErrorOf(handle, kind, what, missing,
                                      missing ? kind : it->second.kind);
  }
  return it->second.object;
}

}  // namespace

Status HandleTable::LookupErrorOf(const void* handle, HandleKind kind, const char* what,
                                  bool missing, HandleKind found_kind) {
  if (handle == nullptr) return Err(StatusCode::kInvalidParam, "{} must not be NULL", what);
  if (missing) {
    return Err(StatusCode::kInvalidHandle,
               "{} {} is not a live {} (destroyed, never created, or from another process)", what,
               handle, HandleKindName(kind));
  }
  return Err(StatusCode::kInvalidHandle, "{} {} is an {}, not an {}", what, handle,
             HandleKindName(found_kind), HandleKindName(kind));
}

Result<std::shared_ptr<void>> HandleTable::Get(const void* handle, HandleKind kind,
                                               const char* what) const {
  if (handle == nullptr) return Err(StatusCode::kInvalidParam, "{} must not be NULL", what);
  Shard& shard = ShardOf(handle);
  std::lock_guard<SpinLock> lock(shard.mu);
  return FindLocked(shard.entries, handle, kind, what);
}

Result<std::shared_ptr<void>> HandleTable::Remove(const void* handle, HandleKind kind,
                                                  const char* what) {
  if (handle == nullptr) return Err(StatusCode::kInvalidParam, "{} must not be NULL", what);
  Shard& shard = ShardOf(handle);
  std::lock_guard<SpinLock> lock(shard.mu);
  auto found = FindLocked(shard.entries, handle, kind, what);
  if (found.ok()) shard.entries.erase(handle);
  return found;
}

size_t HandleTable::Count(HandleKind kind) const {
  size_t n = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<SpinLock> lock(shard.mu);
    for (const auto& entry : shard.entries) n += entry.second.kind == kind ? 1 : 0;
  }
  return n;
}

}  // namespace aclsim::core
