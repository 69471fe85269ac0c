#include "core/exception_info.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include "core/memory_ops.h"
#include "core/runtime.h"

namespace aclsim::core {
namespace {

namespace dump = dfx::dump;

constexpr int32_t kUint8 = 4;  // ACL_UINT8
constexpr int32_t kNd = 2;     // ACL_FORMAT_ND

// Copies `bytes` at `address` into *out: host memory directly; device memory through a
// synchronous device-to-host copy after checking the range is live device memory.
Status Read(Runtime& runtime, const void* address, size_t bytes, bool on_host, size_t index,
            std::vector<uint8_t>* out) {
  out->assign(bytes, 0);
  if (bytes == 0) return Status::Ok();
  if (address == nullptr) {
    return Err(StatusCode::kInvalidParam, "tensors[{}]: the address is NULL but the size is {}",
               index, bytes);
  }
  if (on_host) {
    std::memcpy(out->data(), address, bytes);
    return Status::Ok();
  }
  std::shared_ptr<Device> device = runtime.DeviceOfAddress(address, bytes);
  const std::optional<Allocation> live =
      device != nullptr ? device->FindContainingLive(address) : std::nullopt;
  if (!live) {
    return Err(StatusCode::kInvalidParam,
               "tensors[{}]: [{}, +{}) is not device memory of an open device (placement is "
               "ACL_DUMP_PLACEMENT_DEVICE; use ACL_DUMP_PLACEMENT_HOST for host memory)",
               index, address, bytes);
  }
  const auto begin = reinterpret_cast<uintptr_t>(live->base);
  if (reinterpret_cast<uintptr_t>(address) + bytes > begin + live->size) {
    return Err(StatusCode::kInvalidParam,
               "tensors[{}]: {} bytes at {} run past the end of the allocation at {} ({} bytes)",
               index, bytes, address, live->base, live->size);
  }
  return Memcpy(runtime, out->data(), bytes, address, bytes, CopyKind::kDeviceToHost);
}

}  // namespace

Result<std::string> SaveExceptionInfo(Runtime& runtime, const std::string& file_name,
                                      const std::string& user_tag,
                                      const std::vector<ExceptionTensor>& tensors) {
  if (file_name.empty() || file_name == "." || file_name == ".." ||
      file_name.find('/') != std::string::npos) {
    return Err(StatusCode::kInvalidParam,
               "fileName '{}' is not a plain file name (it must not be empty, \".\", \"..\" or "
               "contain '/'): the file goes to the directory of acldumpGetExceptionInfoPath",
               file_name);
  }
  dump::DumpRecord record;
  record.flags = dump::kFlagException;
  record.op_type = user_tag;
  record.op_name = file_name;
  record.timestamp_us =
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
  uint32_t counts[3] = {0, 0, 0};
  for (size_t i = 0; i < tensors.size(); ++i) {
    const ExceptionTensor& t = tensors[i];
    const void* data = t.address;
    if (t.addr_type == ExceptionAddrType::kPtrPtr) {
      std::vector<uint8_t> pointer;
      ACLSIM_RETURN_IF_ERROR(Read(runtime, t.address, sizeof(void*), t.on_host, i, &pointer));
      std::memcpy(&data, pointer.data(), sizeof(void*));
      if (data == nullptr && t.bytes > 0) {
        return Err(StatusCode::kInvalidParam,
                   "tensors[{}]: the pointer at {} (ACL_DUMP_ADDR_PTR_PTR) is NULL", i, t.address);
      }
    }
    dump::DumpTensor tensor;
    tensor.kind = t.kind;
    tensor.index = counts[static_cast<size_t>(t.kind)]++;
    tensor.address = reinterpret_cast<uintptr_t>(data);
    tensor.bytes = t.bytes;
    if (t.addr_type == ExceptionAddrType::kRaw) {
      tensor.dtype = kUint8;
      tensor.format = kNd;
      tensor.dims = {static_cast<int64_t>(t.bytes)};
    } else {
      tensor.dtype = t.dtype;
      tensor.format = t.format;
      tensor.dims = t.dims;
    }
    ACLSIM_RETURN_IF_ERROR(Read(runtime, data, t.bytes, t.on_host, i, &tensor.data));
    record.tensors.push_back(std::move(tensor));
  }
  const std::string dir = runtime.dump().ExceptionInfoDir();
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir, error)) {
    return Err(StatusCode::kWriteFile, "cannot create the exception info directory '{}'", dir);
  }
  const std::string path = dir + "/" + file_name;
  ACLSIM_RETURN_IF_ERROR(dump::WriteFile(path, record));
  return path;
}

}  // namespace aclsim::core
