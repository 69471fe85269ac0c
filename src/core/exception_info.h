// User exception info (acldumpSaveExceptionInfo / acldumpGetExceptionInfoPath): tensors a
// program names, saved in the data-dump file format (dfx/dump_file.h, exception flag set) to
// the exception-info directory (DataDump::ExceptionInfoDir), so that the tools that read
// exception dumps (aclsim-dump-reader) read them too.
//
// Thread-safety: may be called concurrently (each call writes its own file; two calls with
// the same file name leave one of the two files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "dfx/dump_file.h"

namespace aclsim::core {

class Runtime;

// How `address` leads to the data (acldumpTensorAddressType):
//  kPtr:    the data starts at `address`;
//  kPtrPtr: `address` holds a pointer (8 bytes, in the same placement) to the data;
//  kRaw:    the data starts at `address` and is saved as `bytes` raw bytes (dtype uint8, shape
//           [bytes]): the given dtype and shape are not interpreted.
enum class ExceptionAddrType { kPtr, kPtrPtr, kRaw };

struct ExceptionTensor {
  dfx::dump::TensorKind kind = dfx::dump::TensorKind::kInput;
  int32_t dtype = 0;
  int32_t format = 2;
  std::vector<int64_t> dims;
  const void* address = nullptr;
  size_t bytes = 0;
  ExceptionAddrType addr_type = ExceptionAddrType::kPtr;
  bool on_host = false;  // placement: host memory (else: device memory)
};

// Reads every tensor (device memory through a synchronous copy, after checking that the range
// is live device memory; host memory directly) and writes <dir>/<file_name>. Returns the path.
// `file_name` must be a plain file name (no '/', not "." or ".."). Errors: kInvalidParam
// naming the tensor (a device range that is not live device memory, a NULL address with a
// size, a NULL pointer behind a kPtrPtr address); kWriteFile if the directory or the file
// cannot be written.
Result<std::string> SaveExceptionInfo(Runtime& runtime, const std::string& file_name,
                                      const std::string& user_tag,
                                      const std::vector<ExceptionTensor>& tensors);

}  // namespace aclsim::core
