#include "core/nn/objects.h"

#include "common/checked_size.h"

namespace aclsim::core::nn {

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = SaturatingMul(strides[k], dims[k]);
  return strides;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count = SaturatingMul(count, d);
  return count;
}

bool IsRowMajor(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
  int64_t expect = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    if (dims[k] == 1) continue;
    if (dims[k] == 0) return true;
    if (strides[k] != expect) return false;
    expect = SaturatingMul(expect, dims[k]);
  }
  return true;
}

int64_t NnTensor::numel() const { return ElementCount(dims); }

bool NnTensor::contiguous() const { return IsRowMajor(dims, strides); }

}  // namespace aclsim::core::nn
