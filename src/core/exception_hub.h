// ExceptionHub: task failures reported to the program (aclrtSetExceptionInfoCallback).
//
// The backend reports each failed task; the hub logs it, keeps the last record per device
// and calls the registered handler (set by src/api, which turns the record into an
// aclrtExceptionInfo for the user's callback). The handler runs on a backend thread.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace aclsim::core {

struct ExceptionRecord {
  uint32_t task_id = 0;
  uint32_t stream_id = 0;
  uint32_t thread_id = 0;
  uint32_t device_id = 0;
  uint32_t error_code = 0;
  std::string message;
};

class ExceptionHub {
 public:
  using Handler = std::function<void(const ExceptionRecord&)>;

  void SetHandler(Handler handler);
  void Report(const ExceptionRecord& record);

 private:
  std::mutex mu_;
  Handler handler_;
};

}  // namespace aclsim::core
