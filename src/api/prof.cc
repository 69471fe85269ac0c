// acl/acl_prof.h (libmsprofiler.so): profiling sessions (core/prof_session.h), configs, markers,
// ranges and step marks. The model subscription is in prof_subscribe.cc.
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/api_call.h"
#include "core/handle_table.h"
#include "core/prof_session.h"
#include "core/runtime.h"
#include "core/streams.h"
#include "dfx/log.h"
#include "dfx/prof_marks.h"
#include "dfx/profiler.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace prof = aclsim::dfx::prof;

struct aclprofConfig {
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kProfConfig;
  core::prof::RunOptions options;
};

struct aclprofStepInfo {
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kProfStepInfo;
  uint64_t step = 0;  // the current step (counted by ACL_STEP_START)
  bool started = false;
};

namespace {

// aclprofCreateStamp: a message for markers and ranges.
struct Stamp {
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kProfStamp;
  std::string message;
};

constexpr uint64_t kKnownDataTypes = 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040 |
                                     0x0080 | 0x0100 | 0x0200 | 0x0800 | 0x1000 | 0x01000000 |
                                     0x2000 | 0x4000 | 0x8000 | 0x400000000ULL | 0x800000000ULL;

// The ranges in flight and the named ids: the running runtime's (dfx/prof_marks.h), so
// aclFinalize forgets them. kNotInitialized before aclInit.
Result<std::shared_ptr<prof::RangeBook>> Ranges() {
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  return runtime->attachments().Get<prof::RangeBook>();
}

// Ends `range` now and records it.
void EndRange(prof::MarkRecord range) {
  range.end_ns = std::max(range.start_ns, core::prof::HostClockNs());
  prof::Profiler::Get().AddMark(std::move(range));
}

prof::MarkRecord NewMark(std::string message, bool range) {
  prof::MarkRecord mark;
  mark.message = std::move(message);
  mark.thread_id = prof::OsThreadId();
  mark.start_ns = mark.end_ns = core::prof::HostClockNs();
  mark.range = range;
  return mark;
}

Result<std::shared_ptr<Stamp>> LookupStamp(const void* stamp) {
  return core::LookupHandle<Stamp>(stamp, "stamp");
}

Status CheckMessage(const char* msg, size_t len, size_t max) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(msg, "msg"));
  if (len == 0 || len > max) {
    return Err(StatusCode::kInvalidParam, "message length {} is out of range [1, {}]", len, max);
  }
  return Status::Ok();
}

}  // namespace

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(profilerResultPath, "profilerResultPath"));
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Current().status());
    const size_t actual = strnlen(profilerResultPath, 4097);
    if (length == 0 || length > 4096 || actual == 0) {
      return Err(StatusCode::kInvalidParam,
                 "profilerResultPath: length {} is invalid (1..4096, the path's length)", length);
    }
    return core::prof::Init(std::string(profilerResultPath, std::min(actual, length)));
  });
}

aclError aclprofFinalize(void) {
  return api::ApiCall(__func__, [&]() -> Status { return core::prof::Finalize(); });
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents,
                                   uint64_t dataTypeConfig) {
  return api::ValueCall<aclprofConfig*>(__func__, nullptr, [&]() -> Result<aclprofConfig*> {
    (void)aicoreEvents;  // reserved in CANN (NULL)
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(deviceIdList, "deviceIdList"));
    if (deviceNums > runtime->device_count()) {
      return Err(StatusCode::kInvalidParam, "deviceNums {} exceeds the {} devices", deviceNums,
                 runtime->device_count());
    }
    const int metrics = api::EnumValue(aicoreMetrics);
    if ((metrics < ACL_AICORE_ARITHMETIC_UTILIZATION || metrics > ACL_AICORE_MEMORY_ACCESS) &&
        metrics != ACL_AICORE_NONE) {
      return Status(StatusCode::kInvalidProfilingConfig,
                    fmt::format("aicoreMetrics {} is not an aclprofAicoreMetrics value", metrics),
                    ACL_ERROR_INVALID_PARAM);
    }
    if ((dataTypeConfig & ~kKnownDataTypes) != 0) {
      return Status(StatusCode::kInvalidProfilingConfig,
                    fmt::format("dataTypeConfig {:#x} has unknown ACL_PROF_* bits {:#x}",
                                dataTypeConfig, dataTypeConfig & ~kKnownDataTypes),
                    ACL_ERROR_INVALID_PARAM);
    }
    auto config = std::make_shared<aclprofConfig>();
    for (uint32_t i = 0; i < deviceNums; ++i) {
      ACLSIM_RETURN_IF_ERROR(runtime->CheckDeviceId(static_cast<int32_t>(deviceIdList[i])));
      config->options.devices.push_back(deviceIdList[i]);
    }
    config->options.aic_metrics = static_cast<uint64_t>(metrics);
    config->options.data_types = dataTypeConfig;
    return static_cast<aclprofConfig*>(core::PublishHandle(std::move(config)));
  });
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclprofConfig>(profilerConfig, "profilerConfig").status();
  });
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config,
                            core::LookupHandle<aclprofConfig>(profilerConfig, "profilerConfig"));
    return core::prof::Start(config->options);
  });
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(
        core::LookupHandle<aclprofConfig>(profilerConfig, "profilerConfig").status());
    return core::prof::Stop();
  });
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int type = api::EnumValue(configType);
    if (type <= ACL_PROF_ARGS_MIN || type >= ACL_PROF_ARGS_MAX) {
      return Err(StatusCode::kInvalidParam, "configType {} is out of range ({}, {})", type,
                 static_cast<int>(ACL_PROF_ARGS_MIN), static_cast<int>(ACL_PROF_ARGS_MAX));
    }
    ACLSIM_RETURN_IF_ERROR(CheckMessage(config, configLength, 256));
    // System-level sampling (frequencies, storage limits, host usage) has nothing to sample
    // on the simulator: accepted, logged, no effect (docs/profiling.md).
    ACLSIM_LOG_INFO(aclsim::dfx::Module::kProfiling,
                    "aclprofSetConfig({}, \"{}\"): no system-level sampling in the simulator", type,
                    std::string(config, strnlen(config, configLength)));
    return Status::Ok();
  });
}

void* aclprofCreateStamp(void) {
  return api::ValueCall<void*>(__func__, nullptr, []() -> Result<void*> {
    return core::PublishHandle(std::make_shared<Stamp>());
  });
}

void aclprofDestroyStamp(void* stamp) {
  (void)api::ApiCall(
      __func__, [&]() -> Status { return core::RetireHandle<Stamp>(stamp, "stamp").status(); });
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto s, LookupStamp(stamp));
    ACLSIM_RETURN_IF_ERROR(CheckMessage(msg, msgLen, 128));
    s->message.assign(msg, strnlen(msg, msgLen));
    return Status::Ok();
  });
}

aclError aclprofMark(void* stamp) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto s, LookupStamp(stamp));
    prof::Profiler::Get().AddMark(NewMark(s->message, false));
    return Status::Ok();
  });
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckMessage(msg, msgLen, 128));
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    prof::MarkRecord mark = NewMark(std::string(msg, strnlen(msg, msgLen)), false);
    mark.stream_id = resolved->queue();
    mark.device_id = static_cast<uint32_t>(resolved->device()->id());
    prof::Profiler::Get().AddMark(std::move(mark));
    return Status::Ok();
  });
}

aclError aclprofPush(void* stamp) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto s, LookupStamp(stamp));
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    ranges->Push(prof::RangeBook::Stack::kPush, NewMark(s->message, true));
    return Status::Ok();
  });
}

aclError aclprofPop(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    auto range = ranges->Pop(prof::RangeBook::Stack::kPush, prof::OsThreadId());
    if (!range) return Err(StatusCode::kInvalidParam, "aclprofPop without a matching aclprofPush");
    EndRange(std::move(*range));
    return Status::Ok();
  });
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto s, LookupStamp(stamp));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(rangeId, "rangeId"));
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    *rangeId = ranges->Start(NewMark(s->message, true));
    return Status::Ok();
  });
}

aclError aclprofRangeStop(uint32_t rangeId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    auto range = ranges->Stop(rangeId);
    if (!range) {
      return Err(StatusCode::kInvalidParam, "rangeId {} was not started by aclprofRangeStart",
                 rangeId);
    }
    EndRange(std::move(*range));
    return Status::Ok();
  });
}

uint64_t aclprofStr2Id(const char* message) {
  return api::ValueCall<uint64_t>(__func__, 0, [&]() -> Result<uint64_t> {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(message, "message"));
    const uint64_t id = prof::MessageId(message);
    // Works before aclInit too (the id is a hash); the name is kept while a runtime is up.
    if (auto ranges = Ranges(); ranges.ok()) ranges.value()->Name(id, message);
    return id;
  });
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attr, "attr"));
    if (attr->version != ACL_PROF_EVENT_ATTR_VERSION ||
        attr->size != sizeof(aclprofEventAttributes)) {
      return Err(StatusCode::kInvalidParam,
                 "attr: version {} / size {} must be ACL_PROF_EVENT_ATTR_VERSION ({}) / "
                 "sizeof(aclprofEventAttributes) ({})",
                 attr->version, attr->size, ACL_PROF_EVENT_ATTR_VERSION,
                 sizeof(aclprofEventAttributes));
    }
    if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO) {
      return Err(StatusCode::kInvalidParam, "attr->messageType {} is not an aclprofMessageType",
                 attr->messageType);
    }
    const aclprofTensorInfo* info = attr->message.tensorInfo;
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(info, "attr->message.tensorInfo"));
    if (info->tensorNum > 0) ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(info->tensors, "tensors"));
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    std::string name =
        ranges->NameOf(info->opNameId).value_or(fmt::format("op {}", info->opNameId));
    if (auto type = ranges->NameOf(info->opTypeId)) name += " (" + *type + ")";
    ranges->Push(
        prof::RangeBook::Stack::kPushEx,
        NewMark(fmt::format("{}: {} tensors, {} blocks", name, info->tensorNum, info->blockNums),
                true));
    return Status::Ok();
  });
}

aclError aclprofRangePop(void) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto ranges, Ranges());
    auto range = ranges->Pop(prof::RangeBook::Stack::kPushEx, prof::OsThreadId());
    if (!range) {
      return Err(StatusCode::kInvalidParam,
                 "aclprofRangePop without a matching aclprofRangePushEx");
    }
    EndRange(std::move(*range));
    return Status::Ok();
  });
}

aclprofStepInfo* aclprofCreateStepInfo(void) {
  return api::ValueCall<aclprofStepInfo*>(__func__, nullptr, []() -> Result<aclprofStepInfo*> {
    return static_cast<aclprofStepInfo*>(core::PublishHandle(std::make_shared<aclprofStepInfo>()));
  });
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepInfo) {
  (void)api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclprofStepInfo>(stepInfo, "stepInfo").status();
  });
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag,
                                 aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto info, core::LookupHandle<aclprofStepInfo>(stepInfo, "stepInfo"));
    const int which = api::EnumValue(tag);
    if (which != ACL_STEP_START && which != ACL_STEP_END) {
      return Err(StatusCode::kInvalidParam, "tag {} is not ACL_STEP_START or ACL_STEP_END", which);
    }
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    ACLSIM_ASSIGN_OR_RETURN(auto resolved, runtime->ResolveStream(stream, "stream"));
    if (which == ACL_STEP_START) {
      ++info->step;
      info->started = true;
    } else if (!info->started) {
      return Err(StatusCode::kInvalidParam, "ACL_STEP_END without an ACL_STEP_START");
    }
    prof::MarkRecord mark = NewMark(
        fmt::format("step {} {}", info->step, which == ACL_STEP_START ? "start" : "end"), false);
    mark.stream_id = resolved->queue();
    mark.device_id = static_cast<uint32_t>(resolved->device()->id());
    prof::Profiler::Get().AddMark(std::move(mark));
    return Status::Ok();
  });
}
