// Formatting helpers shared by the profiling output writers (internal to aclsim_dfx).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace aclsim::dfx::prof::detail {

// Nanoseconds as microseconds with exactly three decimals: 1234567 -> "1234.567".
std::string Us(uint64_t ns);
// The same for a fractional value (averages): rounded to three decimals.
std::string UsOf(double ns);
// A percentage with three decimals ("12.500"); 0 when `whole` is 0.
std::string Percent(double part, double whole);

// One CSV record: fields joined by commas, a field holding a comma, quote or line break
// quoted (quotes doubled), and a trailing "\n".
std::string CsvRow(const std::vector<std::string>& fields);

// `text` with &, <, >, " and ' replaced by XML entities.
std::string XmlEscape(const std::string& text);

// Writes `content` to `path` (replacing it). kWriteFile naming the path on failure.
Status WriteTextFile(const std::string& path, const std::string& content);

}  // namespace aclsim::dfx::prof::detail
