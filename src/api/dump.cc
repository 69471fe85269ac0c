// acl_rt.h: aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump; acl_dump.h:
// aclopStartDumpArgs / aclopStopDumpArgs / acldumpGetPath. The dump itself is
// core/data_dump.h (docs/dump.md).
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "api/api_call.h"
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
