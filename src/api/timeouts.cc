// acl_rt.h: op wait and op execute timeouts.
//
// aclrtSetOpWaitTimeout (seconds, 0 = never) is the default timeout of the event waits that
// aclrtStreamWaitEvent submits afterwards. The op execute timeout applies to every kernel
// submitted afterwards: a kernel whose simulated duration exceeds it fails with its engine's
// timeout code (docs/errors.md). Configured values are rounded up to a multiple of the
// simulated hardware's granularity, kOpTimeoutIntervalUs; 0 (or no call) means never.
#include <algorithm>
#include <limits>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"

using aclsim::Status;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// The granularity of the op execute timeout (aclrtGetOpTimeOutInterval), microseconds.
constexpr uint64_t kOpTimeoutIntervalUs = 100;
// Longest configurable timeout: the ns value must fit in 64 bits.
constexpr uint64_t kMaxTimeoutUs = std::numeric_limits<uint64_t>::max() / 1000 / 2;

// Rounds up to a multiple of the interval; 0 stays 0 (never).
uint64_t EffectiveUs(uint64_t us) {
  if (us == 0) return 0;
  if (us > kMaxTimeoutUs) us = kMaxTimeoutUs;
  return (us + kOpTimeoutIntervalUs - 1) / kOpTimeoutIntervalUs * kOpTimeoutIntervalUs;
}

Status SetExecuteTimeout(uint64_t us, uint64_t* actual) {
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  const uint64_t effective = EffectiveUs(us);
  runtime->SetOpExecuteTimeoutUs(effective);
  if (actual != nullptr) {
    *actual = effective == 0 ? std::numeric_limits<uint64_t>::max() : effective;
  }
  return Status::Ok();
}

}  // namespace

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    runtime->set_op_wait_timeout_s(timeout);
    return Status::Ok();
  });
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    return SetExecuteTimeout(static_cast<uint64_t>(timeout) * 1'000'000, nullptr);
  });
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    return SetExecuteTimeout(static_cast<uint64_t>(timeout) * 1000, nullptr);
  });
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(actualTimeout, "actualTimeout"));
    return SetExecuteTimeout(timeout, actualTimeout);
  });
}

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(interval, "interval"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    *interval = kOpTimeoutIntervalUs;
    return Status::Ok();
  });
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(timeoutMs, "timeoutMs"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    const uint64_t us = runtime->op_execute_timeout_us();
    // Never (the default): the largest value. Otherwise whole milliseconds, rounded up.
    const uint64_t ms = us == 0 ? std::numeric_limits<uint32_t>::max() : (us + 999) / 1000;
    *timeoutMs =
        static_cast<uint32_t>(std::min<uint64_t>(ms, std::numeric_limits<uint32_t>::max()));
    return Status::Ok();
  });
}
