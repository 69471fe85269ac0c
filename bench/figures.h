// Figures of the benchmark mains that measure something other than Google Benchmark runs:
// each printed next to its target, then written as JSON.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace aclsim::bench {

class Figures {
 public:
  // Prints one figure with its target and whether it meets it.
  void Report(const std::string& name, double value, const std::string& unit,
              const std::string& target, bool pass) {
    fmt::print("{:<56} {:>12.2f} {:<8} target {:<30} {}\n", name, value, unit, target,
               pass ? "ok" : "MISS");
    figures_.push_back({name, unit, target, value, pass});
  }
  // A figure with no target (a reference measured in the same run).
  void Reference(const std::string& name, double value, const std::string& unit) {
    fmt::print("{:<56} {:>12.2f} {:<8} (reference)\n", name, value, unit);
    figures_.push_back({name, unit, "reference", value, true});
  }
  bool AllPass() const {
    return std::all_of(figures_.begin(), figures_.end(), [](const Figure& x) { return x.pass; });
  }
  // {"<key>": "<value>", "figures": [...]}
  void WriteJson(const char* path, const std::string& key, const std::string& value) const {
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) return;
    fmt::print(f, "{{\n  \"{}\": \"{}\",\n  \"figures\": [\n", key, value);
    for (size_t i = 0; i < figures_.size(); ++i) {
      const Figure& x = figures_[i];
      fmt::print(f,
                 "    {{\"name\": \"{}\", \"value\": {:.4f}, \"unit\": \"{}\", \"target\": \"{}\", "
                 "\"pass\": {}}}{}\n",
                 x.name, x.value, x.unit, x.target, x.pass ? "true" : "false",
                 i + 1 < figures_.size() ? "," : "");
    }
    fmt::print(f, "  ]\n}}\n");
    std::fclose(f);
    fmt::print("wrote {}\n", path);
  }

 private:
  struct Figure {
    std::string name, unit, target;
    double value;
    bool pass;
  };
  std::vector<Figure> figures_;
};

}  // namespace aclsim::bench
