// The generated files of a run, as text (ExportRun writes them). Internal to aclsim_dfx;
// docs/profiling.md describes each file.
#pragma once

#include <string>

#include "dfx/prof_records.h"

namespace aclsim::dfx::prof::detail {

std::string TimelineJson(const Trace& trace);     // msprof_<ts>.json (Chrome trace events)
std::string OpSummaryCsv(const Trace& trace);     // op_summary_<ts>.csv
std::string TaskTimeCsv(const Trace& trace);      // task_time_<ts>.csv
std::string OpStatisticCsv(const Trace& trace);   // op_statistic_<ts>.csv
std::string ApiStatisticCsv(const Trace& trace);  // api_statistic_<ts>.csv
std::string TimelineSvg(const Trace& trace);      // timeline_<ts>.svg

}  // namespace aclsim::dfx::prof::detail
