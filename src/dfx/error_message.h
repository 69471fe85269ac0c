// The recent-error message behind aclGetRecentErrMsg().
//
// CANN's documented behaviour (hiascend.com, AscendCL API reference "aclGetRecentErrMsg",
// CANN 6.0.1 .. 9.1; and hicann/runtime src/acl/aclrt_impl/acl.cpp, which implements it on
// GE's ErrorManager, hicann/metadef error_manager.cc):
//  * It "obtains and clears" the error messages of failed API calls. Reading empties the
//    store; a second call without a new failure returns NULL.
//  * Messages of several failures accumulate until read; all are returned in one string,
//    "the latest error message on top" (newest first, one per line). Identical messages
//    are recorded once (ErrorManager skips an item already present).
//  * With nothing recorded it returns NULL (nullptr), not "" (acl.cpp: "get errorMessage is
//    empty" -> return nullptr; docs: "Failure: nullptr").
//  * The returned pointer is valid until the next aclGetRecentErrMsg() on the same thread
//    (docs: "only the pointer returned by the most recent call is valid"; acl.cpp keeps the
//    string in a thread_local std::string).
//  * Scope is chosen by the aclInit JSON key "err_msg_mode": "0" = per thread (the default
//    in the runtime source and the docs: "thread-level by default"), "1" = per process: one
//    store shared by all threads, any thread's read returns and clears it, and each message
//    is suffixed with "[THREAD:<tid>]" naming the failing thread (ErrorManager does this).
// aclsim differences: the store keeps at most kMaxRecentErrors messages per scope (CANN's
// ErrorManager stops recording after 1000; we drop the OLDEST instead, so the newest
// failure is never lost).
//
// Thread-safety: all functions may be called from any thread concurrently.
#pragma once

#include <cstddef>
#include <string>

namespace aclsim::dfx {

inline constexpr size_t kMaxRecentErrors = 1000;

enum ErrMsgMode : int {
  kErrMsgPerThread = 0,   // err_msg_mode "0" (default)
  kErrMsgPerProcess = 1,  // err_msg_mode "1"
};

// Records the message of one failed API call (the full, human-readable text). Empty
// messages are ignored.
void SetRecentError(std::string message);

// aclGetRecentErrMsg: returns all pending messages of the current scope, newest first,
// joined by '\n', and clears them; nullptr if there are none. The pointer stays valid
// until the next RecentErrorCStr() call on the calling thread.
const char* RecentErrorCStr();

// Drops the pending messages of the current scope (this thread's, or the process's).
void ClearRecentError();

// Selects the scope for later Set/Get calls: 0 per thread (default), 1 per process. Other
// values are ignored (a WARNING is logged). Messages already recorded stay in the scope
// they were recorded in.
void SetErrMsgMode(int mode);
int GetErrMsgMode();

}  // namespace aclsim::dfx
