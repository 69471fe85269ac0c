#include "dfx/plog_file_sink.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

namespace aclsim::dfx {

PlogFileSink::PlogFileSink(std::string dir, size_t max_file_size, int max_files, pid_t pid,
                           std::string prefix)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      max_file_size_(std::max<size_t>(max_file_size, 1)),
      max_files_(static_cast<size_t>(std::max(max_files, 1))),
      pid_(pid) {
  set_pattern_("%v");
}

void PlogFileSink::ResetForChild(pid_t pid) {
  if (open_) file_.close();  // buffer is empty: the parent flushed before fork()
  open_ = false;
  current_size_ = 0;
  files_.clear();
  pid_ = pid;
}

std::string PlogFileSink::NextFileName() {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  const int64_t now_ms =
      duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  // Two files of one process never share a name, even when rotating within a millisecond.
  const int64_t stamp_ms = std::max(now_ms, last_stamp_ms_ + 1);
  last_stamp_ms_ = stamp_ms;
  const time_t seconds = static_cast<time_t>(stamp_ms / 1000);
  struct tm local {};
  localtime_r(&seconds, &local);
  return fmt::format("{}/{}-{}_{:04}{:02}{:02}{:02}{:02}{:02}{:03}.log", dir_, prefix_, pid_,
                     local.tm_year + 1900, local.tm_mon + 1, local.tm_mday, local.tm_hour,
                     local.tm_min, local.tm_sec, static_cast<int>(stamp_ms % 1000));
}

bool PlogFileSink::OpenNewFile() {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (!std::filesystem::is_directory(dir_, ec)) return false;
  std::string name = NextFileName();
  try {
    file_.open(name, /*truncate=*/false);
  } catch (...) {
    return false;
  }
  open_ = true;
  current_size_ = 0;
  files_.push_back(std::move(name));
  while (files_.size() > max_files_) {
    std::filesystem::remove(files_.front(), ec);
    files_.pop_front();
  }
  return true;
}

void PlogFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t formatted;
  formatter_->format(msg, formatted);
  if (!failed_) {
    if (open_ && current_size_ > 0 && current_size_ + formatted.size() > max_file_size_) {
      file_.close();
      open_ = false;
    }
    if (!open_ && !OpenNewFile()) failed_ = true;
  }
  if (failed_) {
    std::fwrite(formatted.data(), 1, formatted.size(), stderr);
    return;
  }
  try {
    file_.write(formatted);
    current_size_ += formatted.size();
  } catch (...) {
    // Disk full or the file vanished: keep going, as CANN's logger does.
  }
}

void PlogFileSink::flush_() {
  if (open_) {
    file_.flush();
  } else if (failed_) {
    std::fflush(stderr);
  }
}

}  // namespace aclsim::dfx
