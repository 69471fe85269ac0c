// libFuzzer target for the aclInit JSON config (core/config.h): any bytes are accepted or
// refused with kParseFile and a message, never a crash; an accepted config keeps its
// documented ranges. The input is also read as an ASCEND_RT_VISIBLE_DEVICES value, whose ids
// must come out strictly ascending. (Core only, like the other targets, so that CI builds
// them quickly: the sim backend's option parser is not linked.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  aclsim::core::RuntimeConfig config;
  const aclsim::Status status = aclsim::core::ApplyConfigJson(text, "fuzz.json", &config);
  if (!status.ok()) {
    if (status.code() != aclsim::StatusCode::kParseFile || status.message().empty()) std::abort();
  } else {
    if (config.err_msg_mode != 0 && config.err_msg_mode != 1) std::abort();
    if (config.max_opqueue_num == 0) std::abort();
  }
  const auto ids = aclsim::core::ParseVisibleDevices(text);
  for (size_t i = 1; i < ids.size(); ++i) {
    if (ids[i] <= ids[i - 1]) std::abort();
  }
  return 0;
}
