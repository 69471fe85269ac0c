#include "api/aclnn/executor_cache.h"

#include <mutex>
#include <unordered_map>

#include "core/objects.h"
#include "core/runtime.h"

namespace aclsim::api {
namespace {

constexpr size_t kMaxEntries = 4096;  // then the cache starts over

struct Entry {
  std::weak_ptr<core::Device> device;
  std::shared_ptr<const core::nn::Executor> executor;
  std::vector<uint32_t> slot_tensor;  // slot -> index in the key's tensors
};

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, Entry> entries;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: calls may come during exit
  return *cache;
}

std::shared_ptr<core::Device> CurrentDevice() {
  auto runtime = core::Runtime::Current();
  if (!runtime.ok()) return nullptr;
  auto context = runtime.value()->CurrentContext();
  if (!context.ok()) return nullptr;
  return context.value()->device();
}

}  // namespace

NnCallKey& NnCallKey::Tensor(const aclTensor* handle) {
  std::shared_ptr<core::nn::NnTensor> tensor;
  if (handle != nullptr) {
    auto found = core::LookupHandle<core::nn::NnTensor>(handle, "tensor");
    if (!found.ok()) {
      usable_ = false;
      return *this;
    }
    tensor = std::move(found.value());
  }
  // Which earlier argument is the same object (the builder gives them one slot).
  uint32_t same = UINT32_MAX;
  for (size_t i = 0; i < tensors_.size() && tensor != nullptr; ++i) {
    if (tensors_[i] == tensor) {
      same = static_cast<uint32_t>(i);
      break;
    }
  }
  Plain(same);
  Plain(tensor != nullptr);
  if (tensor != nullptr) {
    Plain(tensor->dtype);
    Plain(tensor->format);
    Plain(tensor->offset);
    PutInts(tensor->dims);
    PutInts(tensor->strides);
    PutInts(tensor->storage_dims);
  }
  tensors_.push_back(std::move(tensor));
  return *this;
}

NnCallKey& NnCallKey::Tensors(const aclTensorList* handle) {
  auto list = core::LookupHandle<core::nn::NnTensorList>(handle, "tensor list");
  if (handle == nullptr || !list.ok()) {
    usable_ = false;
    return *this;
  }
  Plain(list.value()->members.size());
  for (const void* member : list.value()->members) Tensor(static_cast<const aclTensor*>(member));
  return *this;
}

NnCallKey& NnCallKey::Scalar(const aclScalar* handle) {
  Plain(handle != nullptr);
  if (handle == nullptr) return *this;
  auto scalar = core::LookupHandle<core::nn::NnScalar>(handle, "scalar");
  if (!scalar.ok()) {
    usable_ = false;
    return *this;
  }
  Plain(scalar.value()->dtype);
  Plain(scalar.value()->is_float);
  Plain(scalar.value()->f);
  Plain(scalar.value()->i);
  return *this;
}

NnCallKey& NnCallKey::Ints(const aclIntArray* handle) {
  Plain(handle != nullptr);
  if (handle == nullptr) return *this;
  auto array = core::LookupHandle<core::nn::NnIntArray>(handle, "int array");
  if (!array.ok()) {
    usable_ = false;
    return *this;
  }
  PutInts(array.value()->values);
  return *this;
}

std::shared_ptr<core::nn::Executor> CachedExecutor(const NnCallKey& key) {
  const auto device = CurrentDevice();
  if (device == nullptr) return nullptr;
  std::shared_ptr<const core::nn::Executor> found;
  std::vector<uint32_t> slot_tensor;
  {
    Cache& cache = TheCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.entries.find(key.bytes());
    if (it == cache.entries.end() || it->second.device.lock() != device) return nullptr;
    found = it->second.executor;
    slot_tensor = it->second.slot_tensor;
  }
  auto copy = found->Clone();
  for (size_t s = 0; s < copy->slots.size(); ++s) {
    copy->slots[s].data = key.tensors()[slot_tensor[s]]->data;
  }
  return copy;
}

void CacheExecutor(const NnCallKey& key, const core::nn::Executor& built) {
  const auto device = CurrentDevice();
  if (device == nullptr || built.slot_sources.size() != built.slots.size()) return;
  Entry entry;
  entry.device = device;
  for (const void* source : built.slot_sources) {
    uint32_t index = UINT32_MAX;
    for (size_t i = 0; i < key.tensors().size(); ++i) {
      if (key.tensors()[i].get() == source) {
        index = static_cast<uint32_t>(i);
        break;
      }
    }
    if (index == UINT32_MAX) return;  // a slot from outside the key: not cacheable
    entry.slot_tensor.push_back(index);
  }
  entry.executor = built.Clone();
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (cache.entries.size() >= kMaxEntries) cache.entries.clear();
  cache.entries.insert_or_assign(key.bytes(), std::move(entry));
}

void ClearExecutorCache() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.entries.clear();
}

}  // namespace aclsim::api
