#include "test_env.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace aclsim::dfx::testing {

const char* const kLogEnvVars[] = {
    "ASCEND_GLOBAL_LOG_LEVEL",
    "ASCEND_MODULE_LOG_LEVEL",
    "ASCEND_GLOBAL_EVENT_ENABLE",
    "ASCEND_LOG_PRINT_TO_STDOUT",
    "ASCEND_SLOG_PRINT_TO_STDOUT",
    "ASCEND_PROCESS_LOG_PATH",
    "ASCEND_WORK_PATH",
    "ASCEND_HOST_LOG_FILE_NUM",
    "ASCEND_LOG_SYNC_SAVE",
    nullptr,
};

ScopedEnv::~ScopedEnv() {
  for (const auto& [name, value] : saved_) {
    if (value.has_value()) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
}

void ScopedEnv::Remember(const char* name) {
  if (saved_.count(name) != 0) return;
  const char* old = getenv(name);
  saved_[name] = old != nullptr ? std::optional<std::string>(old) : std::nullopt;
}

void ScopedEnv::Set(const char* name, const std::string& value) {
  Remember(name);
  setenv(name, value.c_str(), 1);
}

void ScopedEnv::Unset(const char* name) {
  Remember(name);
  unsetenv(name);
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "aclsim_dfx_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace aclsim::dfx::testing
