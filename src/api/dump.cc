// acl_rt.h: aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump; acl_dump.h:
// aclopStartDumpArgs / aclopStopDumpArgs / acldumpGetPath / acldumpRegCallback /
// acldumpUnregCallback / acldumpSaveExceptionInfo / acldumpGetExceptionInfoPath. The dump
// itself is core/data_dump.h and core/exception_info.h (docs/dump.md).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "api/api_call.h"
#include "core/exception_info.h"
#include "core/runtime.h"

using aclsim::Result;
using aclsim::Status;
namespace api = aclsim::api;
namespace core = aclsim::core;

aclError aclmdlInitDump(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return runtime->dump().Init();
  });
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dumpCfgPath, "dumpCfgPath"));
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return runtime->dump().Set(dumpCfgPath);
  });
}

aclError aclmdlFinalizeDump(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return runtime->dump().Finalize();
  });
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(path, "path"));
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return runtime->dump().StartArgs(dumpType, path);
  });
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return runtime->dump().StopArgs(dumpType);
  });
}

const char* acldumpGetPath(acldumpType dumpType) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    ACLSIM_ASSIGN_OR_RETURN(std::string path, runtime->dump().PathOf(api::EnumValue(dumpType)));
    // The strings live as long as the process (interned once per path).
    static std::mutex mu;
    static std::vector<std::unique_ptr<std::string>> paths;
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& known : paths) {
      if (*known == path) return known->c_str();
    }
    paths.push_back(std::make_unique<std::string>(std::move(path)));
    return paths.back()->c_str();
  });
}

// ---- dump-data callback -------------------------------------------------------------------

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t),
                            int32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (messageCallback == nullptr) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam, "messageCallback must not be NULL");
    }
    if (flag != 0) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "flag {} is not supported: only 0 (dump data goes to the callback "
                         "instead of files) is",
                         flag);
    }
    auto* callback = messageCallback;
    core::SetDumpChunkSink([callback](const std::string& path, const uint8_t* data, size_t size,
                                      int64_t offset, bool last) -> int32_t {
      // One buffer per chunk: the header, then the data (acldumpChunk.dataBuf, which starts
      // before the end of sizeof(acldumpChunk): the struct is padded after `flag`).
      const size_t length = offsetof(acldumpChunk, dataBuf) + size;
      std::vector<uint64_t> buffer((std::max(length, sizeof(acldumpChunk)) + 7) / 8);
      auto* chunk = reinterpret_cast<acldumpChunk*>(buffer.data());
      const size_t name_bytes = std::min(path.size(), sizeof(chunk->fileName) - 1);
      std::memcpy(chunk->fileName, path.data(), name_bytes);
      chunk->fileName[name_bytes] = '\0';
      chunk->bufLen = static_cast<uint32_t>(size);
      chunk->isLastChunk = last ? 1 : 0;
      chunk->offset = offset;
      chunk->flag = 0;
      auto* payload = reinterpret_cast<uint8_t*>(buffer.data()) + offsetof(acldumpChunk, dataBuf);
      if (size > 0) std::memcpy(payload, data, size);
      return callback(chunk, static_cast<int32_t>(length));
    });
    return Status::Ok();
  });
}

void acldumpUnregCallback(void) { core::SetDumpChunkSink(nullptr); }

// ---- user exception info ------------------------------------------------------------------

namespace {

constexpr size_t kMaxExceptionTensors = 4096;

Result<core::ExceptionTensor> ToExceptionTensor(const acldumpTensorInfo& info, size_t i) {
  core::ExceptionTensor t;
  const int type = api::EnumValue(info.type);
  const int addr_type = api::EnumValue(info.addrType);
  const int placement = api::EnumValue(info.placement);
  if (type < ACL_DUMP_TENSOR_INPUT || type > ACL_DUMP_TENSOR_WORKSPACE) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}].type {} is not an acldumpTensorType (0..2)", i, type);
  }
  if (addr_type < ACL_DUMP_ADDR_PTR || addr_type > ACL_DUMP_ADDR_RAW) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}].addrType {} is not an acldumpTensorAddressType (0..2)", i,
                       addr_type);
  }
  if (placement != ACL_DUMP_PLACEMENT_DEVICE && placement != ACL_DUMP_PLACEMENT_HOST) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}].placement {} is invalid: use ACL_DUMP_PLACEMENT_DEVICE (0) "
                       "or ACL_DUMP_PLACEMENT_HOST (1)",
                       i, placement);
  }
  if (info.shapeNum > ACL_DUMP_MAX_SHAPE_NUM || info.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}]: shapeNum {} / originShapeNum {}: at most "
                       "ACL_DUMP_MAX_SHAPE_NUM ({}) dimensions",
                       i, info.shapeNum, info.originShapeNum, ACL_DUMP_MAX_SHAPE_NUM);
  }
  if (info.tensorAddr == nullptr && (info.tensorSize > 0 || addr_type == ACL_DUMP_ADDR_PTR_PTR)) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}].tensorAddr is NULL (tensorSize {})", i, info.tensorSize);
  }
  if (info.tensorSize > (size_t{1} << 40)) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "tensors[{}].tensorSize {} is too large (at most 1 TiB)", i,
                       info.tensorSize);
  }
  t.kind = static_cast<aclsim::dfx::dump::TensorKind>(type);
  t.dtype = info.dataType;
  t.format = info.format;
  for (uint32_t d = 0; d < info.shapeNum; ++d)
    t.dims.push_back(static_cast<int64_t>(info.shape[d]));
  t.address = info.tensorAddr;
  t.bytes = info.tensorSize;
  t.addr_type = addr_type == ACL_DUMP_ADDR_PTR_PTR ? core::ExceptionAddrType::kPtrPtr
                : addr_type == ACL_DUMP_ADDR_RAW   ? core::ExceptionAddrType::kRaw
                                                   : core::ExceptionAddrType::kPtr;
  t.on_host = placement == ACL_DUMP_PLACEMENT_HOST;
  return t;
}

}  // namespace

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                  const acldumpTensorInfo* tensors, size_t tensorCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(fileName, "fileName"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(userTag, "userTag"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(tensors, "tensors"));
    if (tensorCount == 0 || tensorCount > kMaxExceptionTensors) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "tensorCount {} is out of range [1, {}]", tensorCount,
                         kMaxExceptionTensors);
    }
    if (std::strlen(fileName) >= ACL_DUMP_MAX_FILE_PATH_LENGTH) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "fileName is longer than ACL_DUMP_MAX_FILE_PATH_LENGTH ({}) - 1",
                         ACL_DUMP_MAX_FILE_PATH_LENGTH);
    }
    std::vector<core::ExceptionTensor> list;
    list.reserve(tensorCount);
    for (size_t i = 0; i < tensorCount; ++i) {
      ACLSIM_ASSIGN_OR_RETURN(auto tensor, ToExceptionTensor(tensors[i], i));
      list.push_back(std::move(tensor));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return core::SaveExceptionInfo(*runtime, fileName, userTag, list).status();
  });
}

aclError acldumpGetExceptionInfoPath(char* path, size_t pathLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(path, "path"));
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    const std::string dir = runtime->dump().ExceptionInfoDir();
    if (pathLen < dir.size() + 1) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "pathLen {} is too small: the path '{}' needs {} bytes with its NUL",
                         pathLen, dir, dir.size() + 1);
    }
    std::memcpy(path, dir.c_str(), dir.size() + 1);
    return Status::Ok();
  });
}
