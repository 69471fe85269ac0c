// Run directories (NewRunDir) and writing a run's files (SaveRun, ExportRun).
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <system_error>

#include "dfx/prof_export.h"
#include "dfx/prof_format.h"
#include "dfx/prof_outputs.h"

namespace aclsim::dfx::prof {
namespace {

namespace fs = std::filesystem;

bool AllDigits(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The sequence of a "PROF_<6 digits>_..." name, or -1.
long SequenceOf(const std::string& name) {
  if (name.size() < 12 || name.compare(0, 5, "PROF_") != 0 || name[11] != '_') return -1;
  const std::string digits = name.substr(5, 6);
  return AllDigits(digits) ? std::stol(digits) : -1;
}

// "YYYYMMDDhhmmss" of a run directory name PROF_<seq>_<YYYYMMDDhhmmssmmm>_<letters>, or "0".
std::string TimestampOf(const std::string& run_dir) {
  fs::path path = fs::path(run_dir).lexically_normal();
  std::string name = path.filename().string();
  if (name.empty()) name = path.parent_path().filename().string();
  if (SequenceOf(name) < 0 || name.size() < 12 + 17) return "0";
  const std::string stamp = name.substr(12, 17);
  if (!AllDigits(stamp) || (name.size() > 29 && name[29] != '_')) return "0";
  return stamp.substr(0, 14);
}

std::string LocalStamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%d%H%M%S", &local);
  return fmt::format("{}{:03}", text, ms.count());
}

std::string RandomLetters() {
  std::random_device device;
  std::mt19937 generator(device());
  std::uniform_int_distribution<int> letter(0, 25);
  std::string letters(16, 'A');
  for (char& c : letters) c = static_cast<char>('A' + letter(generator));
  return letters;
}

Status MakeDirs(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    return Err(StatusCode::kWriteFile, "cannot create directory {}: {}", dir.string(),
               error.message());
  }
  return Status::Ok();
}

}  // namespace

std::string RawPathOf(const std::string& run_dir) {
  return (fs::path(run_dir) / "host" / "data" / "aclsim_trace.jsonl").string();
}

Result<std::string> NewRunDir(const std::string& output_dir) {
  if (Status made = MakeDirs(output_dir); !made.ok()) return made;
  long highest = 0;
  std::error_code error;
  for (fs::directory_iterator it(output_dir, error), end; !error && it != end;
       it.increment(error)) {
    highest = std::max(highest, SequenceOf(it->path().filename().string()));
  }
  if (error) {
    return Err(StatusCode::kWriteFile, "cannot list directory {}: {}", output_dir, error.message());
  }
  // Another process may take the same sequence between the listing and the creation: then
  // the next one is tried.
  for (long sequence = highest + 1; sequence <= 999999; ++sequence) {
    const fs::path dir = fs::path(output_dir) /
                         fmt::format("PROF_{:06}_{}_{}", sequence, LocalStamp(), RandomLetters());
    if (fs::create_directory(dir, error)) return dir.string();
    if (error) {
      return Err(StatusCode::kWriteFile, "cannot create directory {}: {}", dir.string(),
                 error.message());
    }
  }
  return Err(StatusCode::kWriteFile, "cannot create a run directory in {}: sequence 999999 used",
             output_dir);
}

Status SaveRun(const Trace& trace, const std::string& run_dir) {
  const fs::path raw = RawPathOf(run_dir);
  if (Status made = MakeDirs(raw.parent_path()); !made.ok()) return made;
  if (Status written = WriteRaw(trace, raw.string()); !written.ok()) return written;
  return ExportRun(trace, run_dir);
}

Status ExportRun(const Trace& trace, const std::string& run_dir) {
  const fs::path out = fs::path(run_dir) / "mindstudio_profiler_output";
  if (Status made = MakeDirs(out); !made.ok()) return made;
  const std::string ts = TimestampOf(run_dir);
  const std::pair<const char*, std::string (*)(const Trace&)> files[] = {
      {"msprof_{}.json", detail::TimelineJson},
      {"op_summary_{}.csv", detail::OpSummaryCsv},
      {"task_time_{}.csv", detail::TaskTimeCsv},
      {"op_statistic_{}.csv", detail::OpStatisticCsv},
      {"api_statistic_{}.csv", detail::ApiStatisticCsv},
      {"timeline_{}.svg", detail::TimelineSvg},
      {"summary_{}.txt", SummaryText},
  };
  for (const auto& [pattern, generate] : files) {
    const std::string path = (out / fmt::format(fmt::runtime(pattern), ts)).string();
    if (Status written = detail::WriteTextFile(path, generate(trace)); !written.ok()) {
      return written;
    }
  }
  return Status::Ok();
}

}  // namespace aclsim::dfx::prof
