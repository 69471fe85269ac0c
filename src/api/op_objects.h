// The objects behind aclTensorDesc*, aclopAttr* and aclopHandle*, and the conversion of
// op-call arguments (descriptor and buffer arrays) to the core's OpLaunch.
//
// Thread-safety: a descriptor or attribute object is owned by the program, which must not
// modify it while another thread uses it (as in CANN); lookups are thread-safe.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "common/status.h"
#include "core/handle_table.h"
#include "core/op_executor.h"
#include "ops/types.h"

struct aclTensorDesc {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kTensorDesc;
  aclsim::ops::TensorDesc desc;
  aclMemType placement = ACL_MEMTYPE_DEVICE;
  std::string dynamic_input;
  std::vector<std::pair<int64_t, int64_t>> value_range;
  void* address = nullptr;
  bool unknown_rank = false;
};

struct aclopAttr {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kOpAttr;
  aclsim::ops::AttrMap attrs;
};

struct aclopHandle {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kOpHandle;
  aclsim::core::OpLaunch launch;  // descriptors and attributes; buffers filled per call
};

// The data buffer object (defined in base.cc).
struct aclDataBuffer {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kDataBuffer;
  void* data = nullptr;
  size_t size = 0;
};

namespace aclsim::api {

// Resolves `count` descriptors (and buffers, if `buffers` is not null) into tensor args.
// `what` names the array in messages ("inputDesc"). A NULL array with count 0 is fine.
Result<std::vector<core::OpTensorArg>> TensorArgs(int count, const aclTensorDesc* const* descs,
                                                  const aclDataBuffer* const* buffers,
                                                  const char* desc_what, const char* buffer_what);
// The attributes of an optional aclopAttr (NULL = none).
Result<ops::AttrMap> AttrsOf(const aclopAttr* attr);
// Checks an op type argument.
Status CheckOpType(const char* op_type);
// Writes resolved output descriptors back (aclopExecuteV2 / aclopInferShape).
void UpdateOutputDescs(const std::vector<ops::TensorDesc>& resolved, int count,
                       aclTensorDesc* const* descs);

}  // namespace aclsim::api
