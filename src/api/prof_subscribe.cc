// acl_prof.h: the model subscription (aclprofModelSubscribe) and the op-info getters.
//
// A subscribed model's kernels are traced (dfx::prof::Profiler::Subscribe); after each
// aclmdlExecute of it (and at aclprofModelUnSubscribe) one fixed-size OpDesc per kernel is
// written to the subscriber's pipe; aclprofModelUnSubscribe closes the pipe's write end, as
// CANN does. The getters read OpDesc arrays the subscriber read from the pipe.
#include "api/prof_subscribe.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/api_call.h"
#include "core/handle_table.h"
#include "core/model_runner.h"
#include "core/runtime.h"
#include "dfx/log.h"
#include "dfx/prof_subscriptions.h"
#include "dfx/profiler.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace prof = aclsim::dfx::prof;

struct aclprofSubscribeConfig {
  static constexpr core::HandleKind kHandleKind = core::HandleKind::kProfSubscribeConfig;
  bool time_info = true;
  int fd = -1;
};

namespace {

// One op of a subscribed model's execution, as written to the pipe (aclprofGetOpDescSize).
struct OpDesc {
  uint32_t magic;
  uint32_t model_id;
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t flag;  // aclprofSubscribeOpFlag
  uint32_t reserved;
  char op_type[ACL_PROF_MAX_OP_TYPE_LEN];
  char op_name[ACL_PROF_MAX_OP_NAME_LEN];
  char thread_id[22];  // ACL_SUBSCRIBE_ATTRI_THREADID, decimal
};
constexpr uint32_t kOpDescMagic = 0x5053434fU;  // "OCSP"

using Subscription = prof::SubscriptionBook::Subscription;

// The running runtime's subscriptions (dfx/prof_subscriptions.h); kNotInitialized before aclInit.
Result<std::shared_ptr<prof::SubscriptionBook>> Subscriptions() {
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  return runtime->attachments().Get<prof::SubscriptionBook>();
}

void CopyText(const std::string& text, char* out, size_t size) {
  std::memset(out, 0, size);
  text.copy(out, size - 1);  // NUL-terminated: the last byte stays 0
}

// write(2) of everything, without dying of SIGPIPE when the reader has gone.
Status WriteAll(int fd, const void* data, size_t size) {
  sigset_t pipe_set;
  sigset_t old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  const char* p = static_cast<const char*>(data);
  Status status = Status::Ok();
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      status = Err(StatusCode::kWriteFile, "cannot write op info to the subscriber's fd {}: {}", fd,
                   std::strerror(errno));
      break;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  if (!status.ok()) {  // consume the SIGPIPE the failed write raised, if any
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return status;
}

// Writes the subscribed model's kernels recorded so far to its pipe.
Status DeliverTo(uint32_t model_id, const Subscription& sub) {
  std::vector<OpDesc> descs;
  for (const prof::TaskRecord& t : prof::Profiler::Get().TakeSubscribed(model_id)) {
    if (t.kind != "KERNEL") continue;
    OpDesc d{};
    d.magic = kOpDescMagic;
    d.model_id = model_id;
    if (sub.time_info) {
      d.start_ns = t.start_ns;
      d.end_ns = t.end_ns;
    }
    d.flag = ACL_SUBSCRIBE_OP;
    CopyText(t.op_type, d.op_type, sizeof(d.op_type));
    CopyText(t.op_name, d.op_name, sizeof(d.op_name));
    CopyText(std::to_string(prof::OsThreadId()), d.thread_id, sizeof(d.thread_id));
    descs.push_back(d);
  }
  if (descs.empty()) return Status::Ok();
  return WriteAll(sub.fd, descs.data(), descs.size() * sizeof(OpDesc));
}

Result<const OpDesc*> DescAt(const void* opInfo, size_t opInfoLen, uint32_t index) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opInfo, "opInfo"));
  if (opInfoLen == 0 || opInfoLen % sizeof(OpDesc) != 0) {
    return Err(StatusCode::kInvalidParam,
               "opInfoLen {} is not a positive multiple of the op info size {} "
               "(aclprofGetOpDescSize)",
               opInfoLen, sizeof(OpDesc));
  }
  const size_t count = opInfoLen / sizeof(OpDesc);
  if (index >= count) {
    return Err(StatusCode::kInvalidParam, "index {} is out of range: the op info holds {} ops",
               index, count);
  }
  const auto* desc = static_cast<const OpDesc*>(opInfo) + index;
  if (desc->magic != kOpDescMagic) {
    return Err(StatusCode::kInvalidParam,
               "opInfo entry {} is not op info written by the subscription", index);
  }
  return desc;
}

Status CopyOut(const char* text, char* out, size_t out_len, const char* what) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(out, what));
  const size_t need = std::strlen(text) + 1;
  if (out_len < need) {
    return Err(StatusCode::kInvalidParam, "{} length {} is too small: {} bytes are needed", what,
               out_len, need);
  }
  std::memcpy(out, text, need);
  return Status::Ok();
}

}  // namespace

namespace aclsim::api::prof {

void DeliverSubscribed(uint32_t model_id, bool flush) {
  if (!dfx::prof::Profiler::Get().subscribed_any()) return;
  auto runtime = core::Runtime::Current();
  if (!runtime.ok()) return;
  auto book = (*runtime)->attachments().Find<dfx::prof::SubscriptionBook>();
  if (book == nullptr) return;
  if (flush) (*runtime)->FlushTaskTraces();
  const Status status = book->Deliver(
      model_id, [model_id](const Subscription& sub) { return DeliverTo(model_id, sub); });
  if (!status.ok()) {
    ACLSIM_LOG_WARN(dfx::Module::kProfiling, "model {}: {}", model_id, status.message());
  }
}

}  // namespace aclsim::api::prof

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void* fd) {
  return api::ValueCall<aclprofSubscribeConfig*>(
      __func__, nullptr, [&]() -> Result<aclprofSubscribeConfig*> {
        ACLSIM_RETURN_IF_ERROR(core::Runtime::Current().status());
        ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(fd, "fd"));
        if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
          return Err(StatusCode::kInvalidParam, "timeInfoSwitch {} must be 0 or 1",
                     static_cast<int>(timeInfoSwitch));
        }
        const int metrics = api::EnumValue(aicoreMetrics);
        if ((metrics < ACL_AICORE_ARITHMETIC_UTILIZATION || metrics > ACL_AICORE_MEMORY_ACCESS) &&
            metrics != ACL_AICORE_NONE) {
          return Err(StatusCode::kInvalidParam,
                     "aicoreMetrics {} is not an aclprofAicoreMetrics value", metrics);
        }
        int descriptor = -1;
        std::memcpy(&descriptor, fd, sizeof(descriptor));  // CANN: a pointer to the pipe's fd
        if (descriptor < 0 || ::fcntl(descriptor, F_GETFD) < 0) {
          return Err(StatusCode::kInvalidParam,
                     "fd {} is not an open file descriptor (pass &pipe_fds[1])", descriptor);
        }
        auto config = std::make_shared<aclprofSubscribeConfig>();
        config->time_info = timeInfoSwitch == 1;
        config->fd = descriptor;
        return static_cast<aclprofSubscribeConfig*>(core::PublishHandle(std::move(config)));
      });
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclprofSubscribeConfig>(profSubscribeConfig, "profSubscribeConfig")
        .status();
  });
}

aclError aclprofModelSubscribe(uint32_t modelId,
                               const aclprofSubscribeConfig* profSubscribeConfig) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config, core::LookupHandle<aclprofSubscribeConfig>(
                                             profSubscribeConfig, "profSubscribeConfig"));
    ACLSIM_RETURN_IF_ERROR(core::FindModel(modelId).status());
    ACLSIM_ASSIGN_OR_RETURN(auto book, Subscriptions());
    return book->Add(modelId, {config->fd, config->time_info});
  });
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto book, Subscriptions());
    if (!book->Has(modelId)) {
      return Err(StatusCode::kInvalidModelId, "model {} is not subscribed", modelId);
    }
    api::prof::DeliverSubscribed(modelId, /*flush=*/true);
    book->Remove(modelId);  // false: a concurrent unsubscribe won
    return Status::Ok();
  });
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opDescSize, "opDescSize"));
    *opDescSize = sizeof(OpDesc);
    return Status::Ok();
  });
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opNumber, "opNumber"));
    ACLSIM_RETURN_IF_ERROR(DescAt(opInfo, opInfoLen, 0).status());
    *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpDesc));
    return Status::Ok();
  });
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opTypeLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opTypeLen, "opTypeLen"));
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    *opTypeLen = strnlen(d->op_type, sizeof(d->op_type) - 1) + 1;
    return Status::Ok();
  });
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType,
                          size_t opTypeLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return CopyOut(d->op_type, opType, opTypeLen, "opType");
  });
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opNameLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opNameLen, "opNameLen"));
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    *opNameLen = strnlen(d->op_name, sizeof(d->op_name) - 1) + 1;
    return Status::Ok();
  });
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName,
                          size_t opNameLen) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return CopyOut(d->op_name, opName, opNameLen, "opName");
  });
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api::ValueCall<uint64_t>(__func__, 0, [&]() -> Result<uint64_t> {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return d->start_ns;
  });
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api::ValueCall<uint64_t>(__func__, 0, [&]() -> Result<uint64_t> {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return d->end_ns;
  });
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api::ValueCall<uint64_t>(__func__, 0, [&]() -> Result<uint64_t> {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return d->end_ns - d->start_ns;
  });
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    return d->model_id;
  });
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api::ValueCall<aclprofSubscribeOpFlag>(
      __func__, ACL_SUBSCRIBE_NONE, [&]() -> Result<aclprofSubscribeOpFlag> {
        ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
        return static_cast<aclprofSubscribeOpFlag>(d->flag);
      });
}

const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(const OpDesc* d, DescAt(opInfo, opInfoLen, index));
    if (api::EnumValue(attri) != ACL_SUBSCRIBE_ATTRI_THREADID) {
      return Err(StatusCode::kInvalidParam, "attri {} is not an aclprofSubscribeOpAttri value",
                 api::EnumValue(attri));
    }
    return d->thread_id;  // inside the caller's opInfo buffer
  });
}
