// The profiling session of the process: who switched profiling on, where its run goes.
//
// Three ways in, one at a time (CANN: ACL_ERROR_PROF_API_CONFLICT, kProfApiConflict, otherwise):
//  * the aclInit JSON "profiler" key ({"switch": "on", "output": DIR, ...}) or the
//    environment (PROFILING_MODE=true, PROFILING_OPTIONS={"output": DIR, ...}; what msprof
//    --application sets): collection starts at aclInit, the run is written at aclFinalize;
//  * the aclprof API: aclprofInit(DIR) .. aclprofStart / aclprofStop (any number of pairs,
//    collected into one run) .. aclprofFinalize writes the run.
// A run is written as DIR/PROF_.../ (dfx/prof_export.h); docs/profiling.md.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace aclsim::core::prof {

// The options of a run (aclprofCreateConfig, or the JSON / environment options).
struct RunOptions {
  std::vector<uint32_t> devices;  // empty: all
  uint64_t aic_metrics = 1;       // aclprofAicoreMetrics (PipeUtilization)
  uint64_t data_types = 0;        // ACL_PROF_* bits
};

// aclInit: starts a run when the JSON "profiler" key or PROFILING_MODE switches it on
// (kInvalidProfilingConfig on malformed options).
Status StartFromConfig(const std::string& json_text);
// aclFinalize, before the runtime goes: a run that is still open is stopped and written.
void FinishAtFinalize();

Status Init(const std::string& output_dir);
Status Start(const RunOptions& options);
Status Stop();
Status Finalize();
// True while a run collects (for the marker API).
bool Collecting();
// The calling thread's simulated host clock (0 before aclInit / with no device).
uint64_t HostClockNs();

}  // namespace aclsim::core::prof
