// acl_rt.h: init / finalize / version / errors; acl_base_rt.h: aclrtGetSocName, aclAppLog.
#include <atomic>
#include <cstdarg>
#include <cstring>
#include <mutex>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/backends.h"
#include "core/prof_session.h"
#include "core/runtime.h"
#include "dfx/error_message.h"
#include "dfx/log.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// aclInit reference count (CANN 8.5+: repeated aclInit counts; aclFinalizeReference drops
// one reference; aclFinalize drops them all).
std::mutex g_init_mu;
uint64_t g_init_refs = 0;

// The version of CANN whose API (ACL 1.17) these headers carry.
constexpr const char* kCannVersion = "9.1.0";

}  // namespace

aclError aclInit(const char* configPath) {
  return api::ApiCall(__func__, [&]() -> Status {
    api::RegisterBuiltinBackends();
    std::lock_guard<std::mutex> lock(g_init_mu);
    Status status = core::Runtime::Init(configPath);
    if (status.ok()) {
      ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
      if (Status prof = core::prof::StartFromConfig(runtime->config().json_text); !prof.ok()) {
        (void)core::Runtime::Finalize();
        return prof;
      }
      g_init_refs = 1;
    } else if (status.code() == StatusCode::kRepeatInitialize) {
      ++g_init_refs;
    }
    return status;
  });
}

aclError aclFinalize(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    std::lock_guard<std::mutex> lock(g_init_mu);
    if (core::Runtime::initialized()) core::prof::FinishAtFinalize();
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Finalize());
    g_init_refs = 0;
    aclsim::dfx::FlushLogs();
    return Status::Ok();
  });
}

aclError aclFinalizeReference(uint64_t* refCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    std::lock_guard<std::mutex> lock(g_init_mu);
    if (g_init_refs == 0) {
      return Err(StatusCode::kRepeatFinalize, "aclFinalizeReference without aclInit");
    }
    if (--g_init_refs == 0) {
      core::prof::FinishAtFinalize();
      ACLSIM_RETURN_IF_ERROR(core::Runtime::Finalize());
    }
    if (refCount != nullptr) *refCount = g_init_refs;
    return Status::Ok();
  });
}

const char* aclGetRecentErrMsg(void) { return aclsim::dfx::RecentErrorCStr(); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(majorVersion, "majorVersion"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(minorVersion, "minorVersion"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(patchVersion, "patchVersion"));
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return Status::Ok();
  });
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(version, "version"));
    const int package = api::EnumValue(name);
    if (package < ACL_PKG_NAME_CANN || package > ACL_PKG_NAME_DRIVER) {
      return Err(StatusCode::kInvalidParam, "package name {} is not an aclCANNPackageName",
                 package);
    }
    std::memset(version, 0, sizeof(*version));
    std::strncpy(version->version, kCannVersion, sizeof(version->version) - 1);
    std::strncpy(version->majorVersion, "9", sizeof(version->majorVersion) - 1);
    std::strncpy(version->minorVersion, "1", sizeof(version->minorVersion) - 1);
    std::strncpy(version->releaseVersion, "0", sizeof(version->releaseVersion) - 1);
    return Status::Ok();
  });
}

namespace {

// Packages a CANN install lists under share/info, plus the driver and firmware.
aclsim::Status CheckPackage(const char* pkgName) {
  static const char* const kPackages[] = {"runtime",    "compiler", "hccl",   "toolkit", "opp",
                                          "opp_kernel", "cann",     "driver", "firmware"};
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(pkgName, "pkgName"));
  for (const char* known : kPackages) {
    if (std::strcmp(pkgName, known) == 0) return Status::Ok();
  }
  return Err(StatusCode::kInvalidParam,
             "unknown package '{}' (known: runtime, compiler, hccl, toolkit, opp, opp_kernel, "
             "cann, driver, firmware)",
             pkgName);
}

}  // namespace

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckPackage(pkgName));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(versionStr, "versionStr"));
    std::strncpy(versionStr, kCannVersion, ACL_PKG_VERSION_MAX_SIZE - 1);
    versionStr[ACL_PKG_VERSION_MAX_SIZE - 1] = '\0';
    return Status::Ok();
  });
}

// Numeric version: major * 1000000 + minor * 10000 + patch * 100 (larger = newer).
aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckPackage(pkgName));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(versionNum, "versionNum"));
    *versionNum = 9 * 1000000 + 1 * 10000 + 0 * 100;
    return Status::Ok();
  });
}

namespace {

// aclrtPeekAtLastError / aclrtGetLastError: a bad level is reported without touching the
// last error they are asked about.
aclError LastErrorAt(const char* api, int level, bool clear) noexcept {
  if (level == ACL_RT_THREAD_LEVEL) return api::LastError(clear);
  try {
    return api::RecordFailureKeepLastError(
        api, Err(StatusCode::kInvalidParam, "level {} is not ACL_RT_THREAD_LEVEL", level));
  } catch (...) {
    return ACL_ERROR_INVALID_PARAM;
  }
}

}  // namespace

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  return LastErrorAt(__func__, api::EnumValue(level), /*clear=*/false);
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  return LastErrorAt(__func__, api::EnumValue(level), /*clear=*/true);
}

const char* aclrtGetSocName(void) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> aclsim::Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    if (runtime->device_count() == 0) {
      return Err(StatusCode::kInvalidDevice, "no device is visible to this process");
    }
    int32_t device = 0;
    auto context = runtime->CurrentContext();
    if (context.ok()) device = (*context)->device()->id();
    // Names live as long as the process (interned once per name).
    static std::mutex mu;
    static std::vector<std::unique_ptr<std::string>> names;
    ACLSIM_ASSIGN_OR_RETURN(auto props, runtime->DeviceProps(device));
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& name : names) {
      if (*name == props.soc_name) return name->c_str();
    }
    names.push_back(std::make_unique<std::string>(props.soc_name));
    return names.back()->c_str();
  });
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  aclsim::dfx::AppLog(api::EnumValue(logLevel), func, file, line, fmt, args);
  va_end(args);
}
