// TODO(issue 5): ops of this group.
#include "sim/ops/op_library.h"

namespace aclsim::sim::ops {

void RegisterSelectOps(OpRegistry& registry) { (void)registry; }

}  // namespace aclsim::sim::ops
