// Test helpers: environment variables set for one test and restored afterwards, and a
// temporary directory removed afterwards.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aclsim::dfx::testing {

// Every variable the logger reads.
extern const char* const kLogEnvVars[];

class ScopedEnv {
 public:
  ScopedEnv() = default;
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv();

  void Set(const char* name, const std::string& value);
  void Unset(const char* name);

 private:
  void Remember(const char* name);
  std::map<std::string, std::optional<std::string>> saved_;
};

class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Regular files below `dir` (recursively), sorted.
std::vector<std::string> FilesUnder(const std::string& dir);
// Whole file contents.
std::string ReadFile(const std::string& path);
// Lines of a file (without the newlines).
std::vector<std::string> ReadLines(const std::string& path);

}  // namespace aclsim::dfx::testing
