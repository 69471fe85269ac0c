// Reads and writes the memory-trace CSV files of aclsim-plan.
#include "tools/plan/trace_csv.h"

#include <charconv>
#include <fstream>
#include <unordered_set>

namespace aclsim::plan {
namespace {

template <typename T>
bool ParseInteger(const std::string& text, T* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end;
}

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return fields;
}

}  // namespace

Result<std::vector<core::PlanBuffer>> ReadTrace(std::istream& in, const std::string& source) {
  std::vector<core::PlanBuffer> buffers;
  std::unordered_set<int64_t> ids;
  std::string line;
  size_t number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (!header) {
      if (line != "id,lower,upper,size") {
        return Err(StatusCode::kParseFile, "{}:{}: expected the header 'id,lower,upper,size'",
                   source, number);
      }
      header = true;
      continue;
    }
    const std::vector<std::string> fields = SplitFields(line);
    if (fields.size() != 4) {
      return Err(StatusCode::kParseFile, "{}:{}: expected 4 fields (id,lower,upper,size), got {}",
                 source, number, fields.size());
    }
    core::PlanBuffer b;
    static const char* const kNames[] = {"id", "lower", "upper", "size"};
    const bool parsed[] = {ParseInteger(fields[0], &b.id), ParseInteger(fields[1], &b.lower),
                           ParseInteger(fields[2], &b.upper), ParseInteger(fields[3], &b.size)};
    for (size_t f = 0; f < 4; ++f) {
      if (!parsed[f]) {
        return Err(StatusCode::kParseFile, "{}:{}: {} '{}' is not an integer in range", source,
                   number, kNames[f], fields[f]);
      }
    }
    if (b.lower < 0 || b.upper <= b.lower) {
      return Err(StatusCode::kParseFile, "{}:{}: lifetime [{}, {}) needs 0 <= lower < upper",
                 source, number, b.lower, b.upper);
    }
    if (!ids.insert(b.id).second) {
      return Err(StatusCode::kParseFile, "{}:{}: id {} appears twice", source, number, b.id);
    }
    buffers.push_back(b);
  }
  if (!header) return Err(StatusCode::kParseFile, "{}: empty file (no header)", source);
  return buffers;
}

Result<std::vector<core::PlanBuffer>> ReadTraceFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Err(StatusCode::kInvalidFile, "{}: cannot open", path);
  return ReadTrace(in, path);
}

void WriteOffsets(std::ostream& out, const std::vector<core::PlanBuffer>& buffers,
                  const std::vector<uint64_t>& offsets) {
  out << "id,offset\n";
  for (size_t i = 0; i < buffers.size(); ++i) out << buffers[i].id << ',' << offsets[i] << '\n';
}

}  // namespace aclsim::plan
