// Shared by the benchmark mains: a console reporter that remembers every run's wall time, and
// a main that adds --benchmark_out=<name>.json unless one is given.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace aclsim::bench {

// The host's cross-core round trip: two threads hand a cache line back and forth; the median
// time of one exchange there and back, in ns. Every figure that involves another thread (a
// worker of the simulated device, the allocator's lock) moves with it: on this kind of VM it
// is ~100-150 ns most of the time and ~450-550 ns in spells, when such figures double.
inline double CrossCoreRoundTripNs() {
  constexpr int kRounds = 20000;
  std::atomic<int> flag{0};
  std::thread peer([&flag] {
    for (int i = 0; i < kRounds; ++i) {
      while (flag.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      flag.store(2 * i + 2, std::memory_order_release);
    }
  });
  std::vector<double> samples;
  for (int chunk = 0; chunk < kRounds / 1000; ++chunk) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = chunk * 1000; i < (chunk + 1) * 1000; ++i) {
      flag.store(2 * i + 1, std::memory_order_release);
      while (flag.load(std::memory_order_acquire) != 2 * i + 2) {
      }
    }
    samples.push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        1000);
  }
  peer.join();
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// Collects each run's adjusted real time (in the run's time unit) by name; Summary() prints
// the figures next to their references once everything has run, then the host's cross-core
// round trip measured right after (it tells a slow spell of the host from a slow build).
class TimesReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) times_[run.benchmark_name()] = run.GetAdjustedRealTime();
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    Summary();
    std::printf("host cross-core round trip right after: %.0f ns (see bench_report.h)\n",
                CrossCoreRoundTripNs());
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
