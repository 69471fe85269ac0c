#include "dfx/device_log.h"

#include <spdlog/details/log_msg.h>
#include <unistd.h>

#include "dfx/log_config.h"
#include "dfx/log_line.h"
#include "dfx/plog_file_sink.h"

namespace aclsim::dfx {

DeviceLog::DeviceLog(const std::string& root, int32_t device_id, DeviceLogSettings settings,
                     size_t max_file_size, int max_files)
    : device_id_(device_id), settings_(settings) {
  if (max_files <= 0) max_files = ReadLogConfigFromEnv().host_log_file_num;
  if (max_file_size == 0) max_file_size = kDefaultMaxLogFileSize;
  sink_ = std::make_shared<PlogFileSink>(DeviceLogDir(root, device_id), max_file_size, max_files,
                                         getpid(), "device");
}

DeviceLog::~DeviceLog() { Flush(); }

bool DeviceLog::Enabled(DeviceModule module, Level level) const {
  if (level == Level::kEvent) return settings_.event_enabled;
  if (level < Level::kDebug || level >= Level::kNull) return false;
  return static_cast<int8_t>(level) >= settings_.LevelOf(module);
}

void DeviceLog::Write(DeviceModule module, Level level, const char* file, int line,
                      const char* func, std::string_view msg) noexcept {
  try {
    fmt::memory_buffer buf;
    FormatLogLine(&buf, DeviceModuleName(module), level, file, line, func, msg);
    const spdlog::details::log_msg record(spdlog::source_loc{}, spdlog::string_view_t(),
                                          spdlog::level::info,
                                          spdlog::string_view_t(buf.data(), buf.size()));
    std::lock_guard<std::mutex> lock(mu_);
    sink_->log(record);
    if (level == Level::kEvent || level >= Level::kWarning) sink_->flush();
  } catch (...) {
    // Logging never throws: the line is lost.
  }
}

void DeviceLog::Flush() noexcept {
  try {
    std::lock_guard<std::mutex> lock(mu_);
    sink_->flush();
  } catch (...) {
  }
}

std::vector<std::string> DeviceLog::files() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sink_->files();
}

}  // namespace aclsim::dfx
