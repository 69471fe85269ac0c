// Attachments: state that a layer above the core (src/feature, src/api) keeps per Runtime or
// per Device, owned by that object so that it ends with it.
//
// A capability such as virtual memory management or host registration has tables of its own
// (access flags per mapping, registered host ranges). Kept in process-global variables they
// would outlive aclrtResetDevice and aclFinalize and leak into the next device or init; the core
// cannot hold them as members either (it does not know the layers above it). So the Runtime and
// each Device carry one Attachments: a slot per C++ type, created empty on first use and
// dropped by Clear() -- Runtime::Finalize and Device::Release call it, so nothing of an init
// or an opened device survives into the next one.
//
//   struct HostRegistrations { std::mutex mu; std::map<uintptr_t, Range> ranges; };
//   auto table = runtime.attachments().Get<HostRegistrations>();  // shared_ptr
//
// Thread-safety: Get and Clear may be called concurrently. Get hands out a shared_ptr, so a
// caller keeps its slot alive for as long as it uses it even if the owner clears it meanwhile
// (the next Get then creates a fresh one); the state inside a slot guards itself.
#pragma once

#include <map>
#include <memory>
#include <mutex>

namespace aclsim::core {

class Attachments {
 public:
  Attachments() = default;
  Attachments(const Attachments&) = delete;
  Attachments& operator=(const Attachments&) = delete;

  // The slot of type T (default-constructed on first use, or after Clear).
  template <class T>
  std::shared_ptr<T> Get() {
    std::lock_guard<std::mutex> lock(mu_);
    std::shared_ptr<void>& slot = slots_[Key<T>()];
    if (!slot) slot = std::make_shared<T>();
    return std::static_pointer_cast<T>(slot);
  }
  // The slot of type T if it exists, else nullptr (creates nothing).
  template <class T>
  std::shared_ptr<T> Find() {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(Key<T>());
    return it == slots_.end() ? nullptr : std::static_pointer_cast<T>(it->second);
  }
  // Drops every slot (their destructors run outside the lock, once no caller holds them).
  void Clear() {
    std::map<const void*, std::shared_ptr<void>> dropped;
    {
      std::lock_guard<std::mutex> lock(mu_);
      dropped.swap(slots_);
    }
  }
  // How many slots exist (tests).
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return slots_.size();
  }

 private:
  // One address per type: a function-local static of a template instance.
  template <class T>
  static const void* Key() {
    static const char tag = 0;
    return &tag;
  }

  mutable std::mutex mu_;
  std::map<const void*, std::shared_ptr<void>> slots_;
};

}  // namespace aclsim::core
