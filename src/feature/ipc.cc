#include "feature/ipc.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/device.h"
#include "core/memory_checker.h"

namespace aclsim::feature {
namespace {

constexpr uint64_t kExportDisablePidValidation = 0x1;  // ACL_RT_IPC_MEM_EXPORT_FLAG_*
constexpr uint64_t kImportEnablePeerAccess = 0x1;      // ACL_RT_IPC_MEM_IMPORT_FLAG_*
constexpr const char* kImportApi = "aclrtIpcMemImportByKey";

struct Key {
  int64_t pid = 0;
  int fd = -1;
  size_t offset = 0;
  size_t size = 0;
};

Result<Key> ParseKey(const char* text) {
  if (text == nullptr) return Err(StatusCode::kInvalidParam, "key must not be NULL");
  // Fields are unsigned decimal numbers: scanf's %zu would take "-1" as SIZE_MAX.
  constexpr std::string_view kPrefix = "aclsim-ipc:";
  const std::string_view whole(text);
  const bool digits_only =
      whole.size() > kPrefix.size() && whole.substr(0, kPrefix.size()) == kPrefix &&
      whole.find_first_not_of("0123456789:", kPrefix.size()) == std::string_view::npos;
  Key key;
  int consumed = 0;
  if (!digits_only ||
      std::sscanf(text, "aclsim-ipc:%" SCNd64 ":%d:%zu:%zu%n", &key.pid, &key.fd, &key.offset,
                  &key.size, &consumed) != 4 ||
      text[consumed] != '\0' || key.pid <= 0 || key.fd < 0 || key.size == 0) {
    return Err(StatusCode::kInvalidParam,
               "key \"{}\" is not an IPC key made by aclrtIpcMemGetExportKey", text);
  }
  return key;
}

struct Import {
  std::weak_ptr<core::Device> device;
  void* reservation = nullptr;
  uint64_t physical = 0;
  void* address = nullptr;
};

struct Export {
  std::vector<int32_t> pids;
  std::map<int, uint64_t> attrs;
};

// This process's keys: a runtime attachment (core/attachments.h), so aclFinalize forgets them.
struct IpcKeys {
  std::mutex mu;
  std::map<std::string, Import> imports;  // by key
  std::map<std::string, Export> exports;  // by key
};

}  // namespace

Status IpcExport(core::Runtime& runtime, void* ptr, size_t size, char* key, size_t len,
                 uint64_t flags) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "devPtr must not be NULL");
  if (key == nullptr) return Err(StatusCode::kInvalidParam, "key must not be NULL");
  if (size == 0) return Err(StatusCode::kInvalidParam, "size must be greater than 0");
  if ((flags & ~kExportDisablePidValidation) != 0) {
    return Err(StatusCode::kInvalidParam,
               "flags {:#x} has bits that are not "
               "ACL_RT_IPC_MEM_EXPORT_FLAG_*",
               flags);
  }
  auto device = runtime.DeviceOfAddress(ptr, size);
  auto allocation = device ? device->memory().Find(ptr, size) : std::nullopt;
  if (!allocation) {
    return Err(StatusCode::kInvalidParam,
               "[{}, +{}) is not inside one aclrtMalloc allocation of an open device", ptr, size);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  device->segments().WaitIdle();  // no task writes the pages while they move
  int fd = -1;
  size_t offset = 0, file_bytes = 0;
  ACLSIM_RETURN_IF_ERROR(backend->ShareRange(ptr, size, &fd, &offset, &file_bytes));
  // Freeing it now retires it until its segment is unshared (core/ipc_shares.h).
  device->ipc_shares().Exported(allocation->base, reinterpret_cast<uintptr_t>(ptr) - offset);
  const std::string text = fmt::format("aclsim-ipc:{}:{}:{}:{}", getpid(), fd, offset, size);
  if (len <= text.size()) {
    return Err(StatusCode::kInvalidParam, "len {} is too small for the key ({} bytes with NUL)",
               len, text.size() + 1);
  }
  std::memcpy(key, text.c_str(), text.size() + 1);
  // Importers write the range without this process's tasks.
  core::MemoryChecker& checker = core::MemoryChecker::Instance();
  if (checker.enabled()) checker.MarkWritten(*device, ptr, size);
  auto keys = runtime.attachments().Get<IpcKeys>();
  std::lock_guard<std::mutex> lock(keys->mu);
  keys->exports[text];
  return Status::Ok();
}

Result<void*> IpcImport(core::Runtime& runtime, const char* key_text, uint64_t flags) {
  ACLSIM_ASSIGN_OR_RETURN(Key key, ParseKey(key_text));
  if ((flags & ~kImportEnablePeerAccess) != 0) {
    return Err(StatusCode::kInvalidParam,
               "flags {:#x} has bits that are not ACL_RT_IPC_MEM_IMPORT_FLAG_*", flags);
  }
  auto keys = runtime.attachments().Get<IpcKeys>();
  {
    std::lock_guard<std::mutex> lock(keys->mu);
    if (keys->imports.count(key_text) != 0) {
      return Err(StatusCode::kInvalidParam, "key \"{}\" is already imported in this process",
                 key_text);
    }
  }
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime.CurrentContext());
  const auto& device = context->device();
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  const std::string path = "/proc/" + std::to_string(key.pid) + "/fd/" + std::to_string(key.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Err(StatusCode::kInvalidParam,
               "key \"{}\": cannot open the memory of process {} ({}); is it still running?",
               key_text, key.pid, std::strerror(errno));
  }
  const off_t file_size = lseek(fd, 0, SEEK_END);
  // offset and size each within the file, and their sum too (checked without wrapping).
  Status status = file_size > 0 && key.offset <= static_cast<size_t>(file_size) &&
                          key.size <= static_cast<size_t>(file_size) - key.offset
                      ? Status::Ok()
                      : Err(StatusCode::kInvalidParam,
                            "key \"{}\" does not name shared device memory (freed?)", key_text);
  Import import;
  const auto bytes = static_cast<size_t>(file_size);
  if (status.ok())
    status = backend->ImportPhysical(fd, bytes, driver::PageSize::k2M, &import.physical);
  close(fd);
  ACLSIM_RETURN_IF_ERROR(status);
  status = backend->ReserveAddress(bytes, 0, &import.reservation);
  if (status.ok()) status = backend->MapPhysical(import.reservation, bytes, import.physical, 0);
  if (!status.ok()) {
    if (import.reservation != nullptr) (void)backend->ReleaseAddress(import.reservation);
    (void)backend->DestroyPhysical(import.physical);
    return status;
  }
  import.device = device;
  import.address = static_cast<char*>(import.reservation) + key.offset;
  core::Allocation mapping;
  mapping.base = import.address;
  mapping.size = key.size;
  mapping.reserved = bytes;
  mapping.api = kImportApi;
  device->mapped().Insert(mapping);
  std::lock_guard<std::mutex> lock(keys->mu);
  keys->imports[key_text] = import;
  return import.address;
}

Status IpcClose(core::Runtime& runtime, const char* key_text) {
  ACLSIM_RETURN_IF_ERROR(ParseKey(key_text).status());
  Import import;
  {
    auto keys = runtime.attachments().Get<IpcKeys>();
    std::lock_guard<std::mutex> lock(keys->mu);
    if (keys->exports.erase(key_text) != 0) return Status::Ok();
    auto it = keys->imports.find(key_text);
    if (it == keys->imports.end()) {
      return Err(StatusCode::kInvalidParam,
                 "key \"{}\" is neither exported nor imported by this process", key_text);
    }
    import = it->second;
    keys->imports.erase(it);
  }
  auto device = import.device.lock();
  if (!device || device->released()) return Status::Ok();  // the reset released it
  (void)device->mapped().Erase(import.address);
  ACLSIM_ASSIGN_OR_RETURN(auto backend, device->backend());
  ACLSIM_RETURN_IF_ERROR(backend->UnmapPhysical(import.reservation));
  ACLSIM_RETURN_IF_ERROR(backend->DestroyPhysical(import.physical));
  return backend->ReleaseAddress(import.reservation);
}

Status IpcSetImportPids(core::Runtime& runtime, const char* key_text, const int32_t* pids,
                        size_t count) {
  ACLSIM_RETURN_IF_ERROR(ParseKey(key_text).status());
  if (pids == nullptr || count == 0) {
    return Err(StatusCode::kInvalidParam, "pid must not be NULL and num must be > 0");
  }
  auto keys = runtime.attachments().Get<IpcKeys>();
  std::lock_guard<std::mutex> lock(keys->mu);
  auto it = keys->exports.find(key_text);
  if (it == keys->exports.end()) {
    return Err(StatusCode::kInvalidParam, "key \"{}\" was not exported by this process", key_text);
  }
  it->second.pids.insert(it->second.pids.end(), pids, pids + count);
  return Status::Ok();
}

Status IpcSetAttr(core::Runtime& runtime, const char* key_text, int type, uint64_t value) {
  ACLSIM_RETURN_IF_ERROR(ParseKey(key_text).status());
  if (type != 0) {  // ACL_RT_IPC_MEM_ATTR_ACCESS_LINK
    return Err(StatusCode::kInvalidParam, "type {} is not an aclrtIpcMemAttrType", type);
  }
  if (value > 3) {
    return Err(StatusCode::kInvalidParam, "attr {} is not an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_*",
               value);
  }
  auto keys = runtime.attachments().Get<IpcKeys>();
  std::lock_guard<std::mutex> lock(keys->mu);
  auto it = keys->exports.find(key_text);
  if (it == keys->exports.end()) {
    return Err(StatusCode::kInvalidParam, "key \"{}\" was not exported by this process", key_text);
  }
  it->second.attrs[type] = value;
  return Status::Ok();
}

}  // namespace aclsim::feature
