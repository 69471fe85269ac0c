// What an op group's file (src/ops/groups/*_ops.cc) includes: the op definition API
// (ops/op_def.h) and the declaration of every group's registration function, one per line of
// ops/op_groups.def.
//
// Thread-safety: registration runs once, in the op library's constructor.
#pragma once

#include "ops/op_def.h"

namespace aclsim::ops {

#define ACLSIM_OP_GROUP(name) void Register##name##Ops(OpRegistry& registry);
#include "ops/op_groups.def"
#undef ACLSIM_OP_GROUP

}  // namespace aclsim::ops
