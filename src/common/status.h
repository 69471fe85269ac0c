// Status: the one error type inside aclsim.
//
// Every layer below the C ABI returns a Status (or a Result<T>). A Status carries a
// StatusCode and a human-readable message naming what was wrong (the argument, the
// handle, the limit). src/api converts it to an aclError exactly once, in one table
// (src/api/error_map.cc), and records the message for aclGetRecentErrMsg.
//
// Thread-safety: plain values; safe to copy between threads.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace aclsim {

// Internal error kinds. Each maps to exactly one documented aclError (see error_map.cc).
enum class StatusCode {
  kOk = 0,
  kInvalidParam,            // a plain argument is out of range / NULL where not allowed
  kUninitialized,           // aclInit has not been called
  kRepeatInitialize,        // aclInit called twice
  kRepeatFinalize,          // aclFinalize without aclInit
  kInvalidFile,             // config / model file missing or unreadable
  kParseFile,               // config file malformed
  kInvalidDevice,           // device id out of range or not visible
  kInvalidHandle,           // destroyed, foreign or wrong-kind handle
  kContextNull,             // no current context on this thread
  kStreamContext,           // stream does not belong to the current context/device
  kBadAlloc,                // host allocation failed
  kDeviceOom,               // device memory exhausted
  kMemoryFree,              // free of an address that is not a live allocation
  kInvalidMemoryType,       // policy/type bits not supported
  kAddrUnaligned,           // address alignment violated
  kNotSupported,            // API not supported (yet)
  kFeatureUnsupported,      // feature not available on this SoC / backend
  kStreamSyncTimeout,       // aclrtSynchronizeStreamWithTimeout expired
  kEventSyncTimeout,        // aclrtSynchronizeEventWithTimeout expired
  kWaitTimeout,             // aclrtProcessReport and other waits expired
  kNoStreamResource,        // SoC stream limit reached
  kNoEventResource,         // SoC event limit reached
  kEventNotComplete,        // event has not completed (query)
  kEventTimestampInvalid,   // event never recorded / not complete for timing
  kRepeatSubscribe,         // stream already subscribed to a report thread
  kStreamNotSubscribe,      // stream has no report thread
  kThreadNotSubscribe,      // thread has no subscribed stream
  kResourceNotMatch,        // resources of different devices / contexts mixed
  kPeerAccessDenied,        // cross-device copy without peer access enabled
  kTaskFailed,              // a device task failed (see exception info)
  kDeviceTaskAbort,         // work dropped by a forced destroy / reset
  kSysParamNotSet,          // aclrt*GetSysParamOpt of an option never set
  kOpTypeNotMatch,          // op type unknown to the op library
  kOpInputNotMatch,         // op inputs: count, dtype or shape not accepted
  kOpOutputNotMatch,        // op outputs: count, dtype or shape not accepted
  kOpAttrNotMatch,          // op attribute missing or of the wrong type / value
  kOpNotFound,              // no compiled / loaded op matches (aclopExecute without model)
  kOpLoadFailed,            // single-op model could not be loaded
  kReadModelFailure,        // model file shorter than its header or than the payload it announces
  kParseModel,              // model file malformed, corrupt, inconsistent or not ours
  kUnsupportedDataType,     // data type not supported by the op / function
  kFormatNotMatch,          // tensor format not supported by the op / function
  kOpUnsupportedDynamic,    // unknown shape where the op needs a known one
  kInvalidModelId,          // no loaded model has this id
  kModelSizeInvalid,        // memory supplied for a model is smaller than it needs
  kModelInputNotMatch,      // model inputs: count or buffer size not what the model needs
  kModelOutputNotMatch,     // model outputs: count or buffer size not what the model needs
  kModelNotDynamic,         // a dynamic-gear call on a model without such gears
  kWriteFile,               // an output file or directory could not be written
  kInvalidProfilingConfig,  // profiling options / config malformed or out of range
  kProfAlreadyRun,          // profiling already started (or switched on another way)
  kProfNotRun,              // profiling not initialised / not started
  kProfRepeatSubscribe,     // model already subscribed
  kProfApiConflict,         // the aclprof API while profiling is on another way (aclInit)
  kDumpAlreadyRun,          // dump already on (aclmdlInitDump twice, aclInit "dump" key)
  kDumpNotRun,              // dump not initialised / not started
  kInvalidDumpConfig,       // dump configuration malformed or out of range
  kNullPointer,             // a required pointer argument is NULL (aclnn: 161001)
  kInternal,                // a bug in aclsim
};

// The message lives on the heap and only failures have one, so an OK Status (the result of
// almost every call) is copied, moved and destroyed without touching the allocator.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::make_unique<std::string>(std::move(message))) {}
  // A failure that carries the exact runtime error code to report (e.g. a device task's
  // 507015 AICORE_EXCEPTION under kTaskFailed); 0 = use the table for `code`.
  Status(StatusCode code, std::string message, uint32_t detail)
      : code_(code), message_(std::make_unique<std::string>(std::move(message))), detail_(detail) {}
  Status(const Status& other)
      : code_(other.code_), message_(CopyMessage(other)), detail_(other.detail_) {}
  Status& operator=(const Status& other) {
    if (this != &other) {
      code_ = other.code_;
      message_ = CopyMessage(other);
      detail_ = other.detail_;
    }
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status Ok() { return {}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_ != nullptr ? *message_ : EmptyMessage(); }
  uint32_t detail() const { return detail_; }

 private:
  static std::unique_ptr<std::string> CopyMessage(const Status& other) {
    return other.message_ != nullptr ? std::make_unique<std::string>(*other.message_) : nullptr;
  }
  static const std::string& EmptyMessage() {
    static const std::string* empty = new std::string();  // never destroyed: used at exit
    return *empty;
  }

  StatusCode code_ = StatusCode::kOk;
  std::unique_ptr<std::string> message_;
  uint32_t detail_ = 0;
};

// Builds a Status with an fmt-formatted message: Err(StatusCode::kInvalidParam, "size {}", n).
template <typename... Args>
Status Err(StatusCode code, fmt::format_string<Args...> format, Args&&... args) {
  return Status(code, fmt::format(format, std::forward<Args>(args)...));
}

// A value or an error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return value_; }
  const T& value() const { return value_; }
  T& operator*() { return value_; }
  T* operator->() { return &value_; }

 private:
  Status status_;
  T value_{};
};

}  // namespace aclsim

// Propagates a non-OK Status to the caller.
#define ACLSIM_RETURN_IF_ERROR(expr)         \
  do {                                       \
    ::aclsim::Status _aclsim_st = (expr);    \
    if (!_aclsim_st.ok()) return _aclsim_st; \
  } while (0)

#define ACLSIM_CONCAT_INNER(a, b) a##b
#define ACLSIM_CONCAT(a, b) ACLSIM_CONCAT_INNER(a, b)
// Declares `lhs` from a Result<T> expression, or returns its Status.
//   ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
#define ACLSIM_ASSIGN_OR_RETURN(lhs, expr) \
  ACLSIM_ASSIGN_OR_RETURN_IMPL(ACLSIM_CONCAT(_aclsim_result_, __LINE__), lhs, expr)
#define ACLSIM_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp.value())
