// The one conversion point between the core and the C ABI.
//
// Every exported function runs its body inside ApiCall(): exceptions never cross the ABI,
// a failing Status becomes exactly one aclError (error_map.cc), its message is recorded for
// aclGetRecentErrMsg and logged at ERROR with the function's name, and the thread's last
// error (aclrtGetLastError) is updated.
//
//   aclError aclrtSetDevice(int32_t deviceId) {
//     return api::ApiCall(__func__, [&]() -> Status {
//       ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
//       return runtime->SetDevice(deviceId);
//     });
//   }
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstring>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"
#include "common/status.h"
#include "dfx/profiler.h"

namespace aclsim::api {

// The aclError for a Status (ACL_SUCCESS for OK).
aclError ToAclError(const Status& status);

// Records a failure of `api`: recent-error message, ERROR log line, last error. Returns the
// aclError.
aclError RecordFailure(const char* api, const Status& status);

// As RecordFailure, but leaves the thread's last error alone (for a failure of
// aclrtPeekAtLastError / aclrtGetLastError themselves).
aclError RecordFailureKeepLastError(const char* api, const Status& status);

// Records a not-supported call of `api` (ACL_ERROR_API_NOT_SUPPORT).
aclError RecordNotSupported(const char* api);

// The thread's last error (aclrtGetLastError / aclrtPeekAtLastError).
aclError LastError(bool clear);

Status FromException(const std::exception* error);

// While profiling is on, an API call is recorded (name, thread, simulated start and end) and
// tasks it launches carry its id (flow arrows in the timeline). prof_session.cc.
class ApiTrace {
 public:
  explicit ApiTrace(const char* api);
  ~ApiTrace();
  ApiTrace(const ApiTrace&) = delete;
  ApiTrace& operator=(const ApiTrace&) = delete;

 private:
  const char* api_;
  uint64_t id_;
  uint64_t outer_;
  uint64_t start_ns_;
};

template <typename Body>
aclError ApiCallBody(const char* api, Body&& body) noexcept {
  try {
    Status status = body();
    return status.ok() ? ACL_SUCCESS : RecordFailure(api, status);
  } catch (const std::exception& error) {
    return RecordFailure(api, FromException(&error));
  } catch (...) {
    return RecordFailure(api, FromException(nullptr));
  }
}

template <typename Body>
aclError ApiCall(const char* api, Body&& body) noexcept {
  if (dfx::prof::Profiler::Active()) {
    const ApiTrace trace(api);
    return ApiCallBody(api, std::forward<Body>(body));
  }
  return ApiCallBody(api, std::forward<Body>(body));
}

template <typename T, typename Body>
T ValueCallBody(const char* api, T fail_value, Body&& body) noexcept {
  try {
    Result<T> result = body();
    if (result.ok()) return result.value();
    RecordFailure(api, result.status());
  } catch (const std::exception& error) {
    RecordFailure(api, FromException(&error));
  } catch (...) {
    RecordFailure(api, FromException(nullptr));
  }
  return fail_value;
}

// For functions that return a value instead of an aclError: `body` returns Result<T>;
// failures are recorded and `fail_value` is returned.
template <typename T, typename Body>
T ValueCall(const char* api, T fail_value, Body&& body) noexcept {
  if (dfx::prof::Profiler::Active()) {
    const ApiTrace trace(api);
    return ValueCallBody<T>(api, fail_value, std::forward<Body>(body));
  }
  return ValueCallBody<T>(api, fail_value, std::forward<Body>(body));
}

// The integer value of an enum argument. A C caller may pass any int in an enum parameter,
// but reading a C++ enum object whose value lies outside the enumerators' range is undefined
// (UBSan: -fsanitize=enum), so shims read the bits once, here, and work with the int.
template <typename E>
int EnumValue(const E& value) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int), "an int-sized C enum");
  int raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

// Checks the timeout of a *WithTimeout synchronisation: -1 (forever) or > 0 milliseconds.
inline Status CheckSyncTimeout(int32_t timeout) {
  if (timeout == 0 || timeout < -1) {
    return Err(StatusCode::kInvalidParam, "timeout {} ms is invalid: use -1 (forever) or > 0",
               timeout);
  }
  return Status::Ok();
}

// Checks a pointer argument the function writes to or reads from.
inline Status CheckNotNull(const void* ptr, const char* name) {
  if (ptr == nullptr) return Err(StatusCode::kInvalidParam, "{} must not be NULL", name);
  return Status::Ok();
}

}  // namespace aclsim::api
