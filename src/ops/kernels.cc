// Building blocks of functional kernels (ops/kernels.h).
#include "ops/kernels.h"

namespace aclsim::ops {

std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out_dims) {
  std::vector<int64_t> strides(out_dims.size(), 0);
  const auto own = Strides(in);
  const size_t offset = out_dims.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    strides[offset + i] = in[i] == 1 && out_dims[offset + i] != 1 ? 0 : own[i];
  }
  return strides;
}

}  // namespace aclsim::ops
