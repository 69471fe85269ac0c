// acl_rt.h: IPC memory between processes (src/feature/ipc.h).
#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"
#include "feature/ipc.h"

using aclsim::Status;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace feature = aclsim::feature;

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::IpcExport(*runtime, devPtr, size, key, len, flags);
  });
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devPtr, "devPtr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(*devPtr, feature::IpcImport(*runtime, key, flags));
    return Status::Ok();
  });
}

aclError aclrtIpcMemClose(const char* key) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::IpcClose(*runtime, key);
  });
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::IpcSetImportPids(*runtime, key, pid, num);
  });
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType ipcMemAttrType, uint64_t attr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return feature::IpcSetAttr(*runtime, key, api::EnumValue(ipcMemAttrType), attr);
  });
}

aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(serverPids, "serverPids"));
    if (num == 0) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam, "num must be greater than 0");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    for (size_t i = 0; i < num; ++i) {
      ACLSIM_RETURN_IF_ERROR(
          feature::IpcSetImportPids(*runtime, key, serverPids[i].pid, serverPids[i].num));
    }
    return Status::Ok();
  });
}
