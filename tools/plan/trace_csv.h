// The memory-trace CSV format of tests/data/memory-traces/README.md, for aclsim-plan and its
// tests.
//
//   id,lower,upper,size
//   0,0,1029,19267584
//
// One buffer per line after the header: integer id, the half-open lifetime [lower, upper)
// and the size in bytes. Blank lines (and a trailing carriage return) are ignored; any other
// malformed line is an error naming its line number.
//
// Thread-safety: pure functions.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/memory_planner.h"

namespace aclsim::plan {

// Parses a trace. Errors (kParseFile): a missing or different header, a line without
// exactly four fields, a field that is not a decimal integer in range (size: 0 .. 2^64 - 1,
// others signed 64-bit), a lifetime with lower < 0 or upper <= lower, or a repeated id.
// `source` names the input in messages ("FILE:LINE: ...").
Result<std::vector<core::PlanBuffer>> ReadTrace(std::istream& in, const std::string& source);

// Reads the trace file at `path` (kInvalidFile if it cannot be opened).
Result<std::vector<core::PlanBuffer>> ReadTraceFile(const std::string& path);

// Writes "id,offset" lines (with that header), one per buffer in input order.
void WriteOffsets(std::ostream& out, const std::vector<core::PlanBuffer>& buffers,
                  const std::vector<uint64_t>& offsets);

}  // namespace aclsim::plan
