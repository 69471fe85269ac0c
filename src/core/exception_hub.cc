#include "core/exception_hub.h"

#include "dfx/log.h"

namespace aclsim::core {

void ExceptionHub::SetHandler(Handler handler) {
  std::lock_guard<std::mutex> lock(mu_);
  handler_ = std::move(handler);
}

void ExceptionHub::Report(const ExceptionRecord& record) {
  ACLSIM_LOG_ERROR(dfx::Module::kRuntime, "task failed: device {} stream {} task {} error {}: {}",
                   record.device_id, record.stream_id, record.task_id, record.error_code,
                   record.message);
  Handler handler;
  {
    std::lock_guard<std::mutex> lock(mu_);
    handler = handler_;
  }
  if (handler) handler(record);
}

}  // namespace aclsim::core
