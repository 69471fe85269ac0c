// acl_rt.h: notifies, counting notifies, stream-ordered memory values.
#include <limits>

#include "acl/acl.h"
#include "api/api_call.h"
#include "core/notifies.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

// aclrtCreateNotify / aclrtCntNotifyCreate flags: ACL_NOTIFY_DEFAULT, ACL_NOTIFY_DEVICE_USE_ONLY
// (our notifies are device objects either way).
Status CheckNotifyFlag(uint64_t flag) {
  if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
    return Err(StatusCode::kInvalidParam,
               "flag {} is not ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)", flag);
  }
  return Status::Ok();
}

// aclrtNotifyBatchReset: more handles than any device can hold is a wrong count.
constexpr size_t kMaxBatchReset = 1 << 20;

}  // namespace

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(notify, "notify"));
    ACLSIM_RETURN_IF_ERROR(CheckNotifyFlag(flag));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto created, core::CreateNotify(*runtime));
    *notify = created.get();
    return Status::Ok();
  });
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::DestroyNotify(notify);
  });
}

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(cntNotify, "cntNotify"));
    ACLSIM_RETURN_IF_ERROR(CheckNotifyFlag(flag));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto created, core::CreateCntNotify(*runtime));
    *cntNotify = created.get();
    return Status::Ok();
  });
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::DestroyCntNotify(cntNotify);
  });
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Notify>(notify, "notify"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::RecordNotify(*found, *resolved);
  });
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Notify>(notify, "notify"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::WaitAndResetNotify(*found, *resolved, timeout);
  });
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(notifyId, "notifyId"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Notify>(notify, "notify"));
    *notifyId = found->id();
    return Status::Ok();
  });
}

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(notifies, "notifies"));
    if (num == 0 || num > kMaxBatchReset) {
      return Err(StatusCode::kInvalidParam, "num {} is out of range [1, {}]", num, kMaxBatchReset);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    // Every handle is checked before any notify is reset.
    std::vector<std::shared_ptr<core::Notify>> found;
    found.reserve(num);
    for (size_t i = 0; i < num; ++i) {
      auto notify = core::LookupHandle<core::Notify>(notifies[i], "notifies[i]");
      if (!notify.ok()) {
        return Status(notify.status().code(),
                      fmt::format("notifies[{}]: {}", i, notify.status().message()),
                      notify.status().detail());
      }
      found.push_back(std::move(*notify));
    }
    for (const auto& notify : found) ACLSIM_RETURN_IF_ERROR(core::ResetNotify(*notify));
    return Status::Ok();
  });
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo* cntNotifyRecordInfo) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(cntNotifyRecordInfo, "cntNotifyRecordInfo"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found,
                            core::LookupHandle<core::CntNotify>(cntNotify, "cntNotify"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::CntNotifyRecord(*found, *resolved,
                                 static_cast<uint32_t>(api::EnumValue(cntNotifyRecordInfo->mode)),
                                 cntNotifyRecordInfo->value);
  });
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                       aclrtCntNotifyWaitInfo* cntNotifyWaitInfo) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(cntNotifyWaitInfo, "cntNotifyWaitInfo"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found,
                            core::LookupHandle<core::CntNotify>(cntNotify, "cntNotify"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    const auto& info = *cntNotifyWaitInfo;
    return core::CntNotifyWait(*found, *resolved, static_cast<uint32_t>(api::EnumValue(info.mode)),
                               info.value, info.timeout, info.isClear != 0);
  });
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found,
                            core::LookupHandle<core::CntNotify>(cntNotify, "cntNotify"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::CntNotifyReset(*found, *resolved);
  });
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(notifyId, "notifyId"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found,
                            core::LookupHandle<core::CntNotify>(cntNotify, "cntNotify"));
    *notifyId = found->id();
    return Status::Ok();
  });
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devAddr, "devAddr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::ValueWrite(*resolved, devAddr, value, flag);
  });
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(devAddr, "devAddr"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::ValueWait(*resolved, devAddr, value, flag);
  });
}
