// ApiTrace (api/api_call.h): one profiling record per API call.
#include <algorithm>

#include "api/api_call.h"
#include "core/prof_session.h"
#include "dfx/profiler.h"

namespace aclsim::api {

ApiTrace::ApiTrace(const char* api)
    : api_(api),
      id_(dfx::prof::Profiler::Get().NextApiId()),
      outer_(dfx::prof::CurrentApiCall()),
      start_ns_(core::prof::HostClockNs()) {
  if (outer_ == 0) dfx::prof::SetCurrentApiCall(id_);
}

ApiTrace::~ApiTrace() {
  dfx::prof::SetCurrentApiCall(outer_);
  dfx::prof::ApiRecord record;
  record.id = id_;
  record.name = api_;
  record.thread_id = dfx::prof::OsThreadId();
  record.start_ns = start_ns_;
  record.end_ns = std::max(start_ns_, core::prof::HostClockNs());
  dfx::prof::Profiler::Get().AddApi(std::move(record));
}

}  // namespace aclsim::api
