// IPC memory (aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey, aclrtIpcMemClose, ...):
// device memory of one process used by another process on the same host.
//
// Exporting waits for the device's queued work, then has the driver move the allocation
// holding the range onto a shareable file in place (same addresses and contents; the
// allocation stays shareable until it is freed). The key is a string naming the process, the
// file and the range: "aclsim-ipc:<pid>:<fd>:<offset>:<size>". Importing opens the file
// through /proc/<pid>/fd (so the exporter must still run, as with the device driver), maps it
// into address space reserved on the importer's current device and returns the range's
// address there; the imported range is device memory of that device (copies, kernels) and
// counts as initialised for the memory checker. aclrtIpcMemClose unmaps an import, or ends
// an export of this process. The import pid list (aclrtIpcMemSetImportPid, ...InterServer)
// and attributes are recorded; the simulator does not enforce them.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.h"
#include "core/runtime.h"

namespace aclsim::feature {

// Writes the key (NUL-terminated) into key[0..len).
Status IpcExport(core::Runtime& runtime, void* ptr, size_t size, char* key, size_t len,
                 uint64_t flags);
Result<void*> IpcImport(core::Runtime& runtime, const char* key, uint64_t flags);
Status IpcClose(core::Runtime& runtime, const char* key);
Status IpcSetImportPids(core::Runtime& runtime, const char* key, const int32_t* pids, size_t count);
Status IpcSetAttr(core::Runtime& runtime, const char* key, int type, uint64_t value);

}  // namespace aclsim::feature
