// PlogFileSink: a spdlog sink that writes CANN-style per-process plog files.
//
// Layout (CANN log reference, "Viewing application logs"; file names seen in real logs,
// e.g. run/plog/plog-2111667_20251024111652406.log):
//   <dir>/plog-<pid>_<YYYYMMDDhhmmssmmm>.log      (local time the file was created)
//   <dir>/device-<pid>_<YYYYMMDDhhmmssmmm>.log    (device logs, prefix "device")
// When the current file would exceed `max_file_size` bytes, a new timestamped file is
// started and, if this process now has more than `max_files` files in <dir>, its oldest
// ones are deleted (ASCEND_HOST_LOG_FILE_NUM semantics: "if the number of one process's
// files exceeds the value, the earliest are deleted; each file is at most 20 MB").
// spdlog's rotating_file_sink is not used because it renames files (x.log -> x.1.log)
// instead of starting a new timestamped one, which is not the name CANN tools glob for.
//
// Nothing touches the disk before the first line: the directory and the first file are
// created by the first write. If they cannot be created (or a later file cannot be
// opened), the sink silently writes every further line to stderr instead.
//
// Thread-safety: none of its own (spdlog null_mutex); the logger serialises all calls.
#pragma once

#include <spdlog/details/file_helper.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/sinks/base_sink.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace aclsim::dfx {

class PlogFileSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  // `dir` is e.g. <root>/debug/plog. `max_files` >= 1. Lines are formatted with "%v"
  // (the payload is the complete line; the sink adds the newline). `prefix` starts the file
  // names: "plog" (host logs) or "device" (device logs: device-<pid>_<stamp>.log).
  PlogFileSink(std::string dir, size_t max_file_size, int max_files, pid_t pid,
               std::string prefix = "plog");

  // Files this process created and still keeps, oldest first.
  std::vector<std::string> files() const { return {files_.begin(), files_.end()}; }
  bool fell_back_to_stderr() const { return failed_; }

  // In a forked child: forget the parent's files (they stay on disk, untouched); the next
  // line starts plog-<pid>_*.log files of the child. The parent must have flushed first.
  void ResetForChild(pid_t pid);

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

 private:
  bool OpenNewFile();
  std::string NextFileName();

  std::string dir_;
  std::string prefix_;
  size_t max_file_size_;
  size_t max_files_;
  pid_t pid_;
  spdlog::details::file_helper file_;
  bool open_ = false;
  bool failed_ = false;
  size_t current_size_ = 0;
  int64_t last_stamp_ms_ = 0;
  std::deque<std::string> files_;
};

}  // namespace aclsim::dfx
