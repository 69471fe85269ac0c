// libFuzzer target for atc's single-op JSON (tools/atc/singleop_json.h): any bytes are
// accepted or refused with kParseFile and a message, never a crash, and every accepted op
// gets a ".om" file name. (The op-library check of atc main is not linked: it would pull the
// whole simulator into the CI fuzz build.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/atc/singleop_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ops = aclsim::atc::ParseSingleOpJson(text);
  if (!ops.ok()) {
    if (ops.status().code() != aclsim::StatusCode::kParseFile || ops.status().message().empty()) {
      std::abort();
    }
    return 0;
  }
  for (const auto& op : *ops) {
    const std::string name = aclsim::atc::SingleOpFileName(op);
    if (name.size() < 4 || name.compare(name.size() - 3, 3, ".om") != 0) std::abort();
  }
  return 0;
}
