// Shared by the benchmark mains: a console reporter that remembers every run's wall time, and
// a main that adds --benchmark_out=<name>.json unless one is given.
#pragma once

#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace aclsim::bench {

// Collects each run's adjusted real time (in the run's time unit) by name; Summary() prints
// the figures next to their references once everything has run.
class TimesReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) times_[run.benchmark_name()] = run.GetAdjustedRealTime();
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    Summary();
  }

 protected:
  virtual void Summary() = 0;
  // The time of the first run whose name starts with `prefix` (0 if none ran).
  double TimeOf(const std::string& prefix) const {
    for (const auto& [name, time] : times_) {
      if (name.rfind(prefix, 0) == 0) return time;
    }
    return 0;
  }

 private:
  std::map<std::string, double> times_;
};

// Runs the registered benchmarks with `reporter`, writing Google Benchmark JSON to
// `json_file` unless the command line names another --benchmark_out.
inline int RunBenchmarks(int argc, char** argv, const char* json_file,
                         benchmark::BenchmarkReporter* reporter) {
  std::vector<char*> args(argv, argv + argc);
  std::string out = std::string("--benchmark_out=") + json_file;
  bool has_out = false;
  for (int i = 1; i < argc; ++i) has_out |= std::strncmp(argv[i], "--benchmark_out=", 16) == 0;
  if (!has_out) args.push_back(out.data());
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks(reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace aclsim::bench
