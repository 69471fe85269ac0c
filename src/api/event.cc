// acl_rt.h: events.
#include "acl/acl.h"
#include "api/api_call.h"
#include "core/runtime.h"
#include "core/streams.h"

using aclsim::Err;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

Status Create(aclrtEvent* event, uint32_t flags) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(event, "event"));
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  ACLSIM_ASSIGN_OR_RETURN(auto created, core::CreateEvent(*runtime, flags));
  *event = created.get();
  return Status::Ok();
}

}  // namespace

aclError aclrtCreateEvent(aclrtEvent* event) {
  return api::ApiCall(__func__, [&]() { return Create(event, core::kEventDefaultFlags); });
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (flag == 0) return Err(StatusCode::kInvalidParam, "flag must not be 0");
    return Create(event, flag);
  });
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (flag == 0) return Err(StatusCode::kInvalidParam, "flag must not be 0");
    return Create(event, flag);
  });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    return core::DestroyEvent(*runtime, event);
  });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::RecordEvent(*found, *resolved);
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    return core::ResetEvent(*found, *resolved);
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(status, "status"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto state, core::QueryEvent(*found));
    *status = state.complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return Status::Ok();
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(status, "status"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto state, core::QueryEvent(*found));
    *status = (state.recorded && state.complete) ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                                 : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return Status::Ok();
  });
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(status, "status"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(auto state, core::QueryEvent(*found));
    *status = (state.recorded && state.complete) ? ACL_EVENT_WAIT_STATUS_COMPLETE
                                                 : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return Status::Ok();
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    return core::SyncEvent(*found, -1);
  });
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckSyncTimeout(timeout));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    return core::SyncEvent(*found, timeout);
  });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(ms, "ms"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto start, core::LookupHandle<core::Event>(startEvent, "startEvent"));
    ACLSIM_ASSIGN_OR_RETURN(auto end, core::LookupHandle<core::Event>(endEvent, "endEvent"));
    ACLSIM_ASSIGN_OR_RETURN(*ms, core::EventElapsedMs(*start, *end));
    return Status::Ok();
  });
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(timestamp, "timestamp"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    ACLSIM_ASSIGN_OR_RETURN(*timestamp, core::EventTimestampUs(*found));
    return Status::Ok();
  });
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(eventId, "eventId"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<core::Event>(event, "event"));
    *eventId = found->id();
    return Status::Ok();
  });
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(eventCount, "eventCount"));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    const auto& device = context->device();
    size_t used = device->event_count();
    size_t limit = device->props().max_events;
    *eventCount = static_cast<uint32_t>(used >= limit ? 0 : limit - used);
    return Status::Ok();
  });
}
