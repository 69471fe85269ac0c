// One log line in CANN's format (log.h, "Line format"), for writers other than the host
// logger: the device log (dfx/device_log.h) writes its lines through it so that both read
// alike. Thread-safety: may be called from any thread.
#pragma once

#include <fmt/format.h>

#include <string_view>

#include "dfx/log.h"

namespace aclsim::dfx {

// Appends "[LEVEL] MODULE(pid,pname):yyyy-mm-dd-hh:mm:ss.mmm.uuu [file:line]tid func: msg"
// (no newline) to *out. `module_name` is printed as given; `func` may be null.
void FormatLogLine(fmt::memory_buffer* out, const char* module_name, Level level, const char* file,
                   int line, const char* func, std::string_view msg);

}  // namespace aclsim::dfx
