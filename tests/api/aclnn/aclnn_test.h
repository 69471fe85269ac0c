// Helpers for the aclnn API tests: device tensors with views, running an operator's two
// phases, and host references. Public headers only (aclnn/, aclnnop/, acl/).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "api_test.h"

namespace aclnntest {

// A device buffer of `count` elements of `T` and aclTensor views of it.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::vector<T> host) : host_(std::move(host)) {
    const size_t bytes = std::max<size_t>(1, host_.size() * sizeof(T));
    EXPECT_EQ(aclrtMalloc(&dev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (!host_.empty()) {
      EXPECT_EQ(aclrtMemcpy(dev_, bytes, host_.data(), host_.size() * sizeof(T),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
  }
  ~DeviceArray() {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    aclrtFree(dev_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  // A view: dims, strides (empty = contiguous) and offset in elements.
  aclTensor* View(std::vector<int64_t> dims, aclDataType dtype, std::vector<int64_t> strides = {},
                  int64_t offset = 0) {
    const int64_t storage = static_cast<int64_t>(host_.size());
    aclTensor* t =
        aclCreateTensor(dims.data(), dims.size(), dtype, strides.empty() ? nullptr : strides.data(),
                        offset, ACL_FORMAT_ND, &storage, 1, dev_);
    tensors_.push_back(t);
    return t;
  }
  // A view the caller (or a tensor list it joins) destroys.
  aclTensor* UnownedView(std::vector<int64_t> dims, aclDataType dtype) {
    const int64_t storage = static_cast<int64_t>(host_.size());
    return aclCreateTensor(dims.data(), dims.size(), dtype, nullptr, 0, ACL_FORMAT_ND, &storage, 1,
                           dev_);
  }
  std::vector<T> Read() const {
    std::vector<T> out(host_.size());
    if (!out.empty()) {
      EXPECT_EQ(aclrtMemcpy(out.data(), out.size() * sizeof(T), dev_, out.size() * sizeof(T),
                            ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
    }
    return out;
  }
  void* data() const { return dev_; }

 private:
  std::vector<T> host_;
  void* dev_ = nullptr;
  std::vector<aclTensor*> tensors_;
};

// Runs the second phase of an executor from a first phase that returned `status`: allocates
// the workspace, launches on `stream`, synchronises. Returns the first failing status.
inline aclnnStatus Launch(aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                          uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
  void* workspace = nullptr;
  if (workspace_size > 0) {
    EXPECT_EQ(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  const aclnnStatus status = run(workspace, workspace_size, executor, stream);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  if (workspace != nullptr) aclrtFree(workspace);
  return status;
}

// Phase 1 with `args...` then phase 2, as GGML_CANN_CALL_ACLNN_OP does.
#define ACLNN_RUN(stream, Op, ...)                                                \
  [&]() -> aclnnStatus {                                                          \
    uint64_t ws = 0;                                                              \
    aclOpExecutor* ex = nullptr;                                                  \
    const aclnnStatus first = aclnn##Op##GetWorkspaceSize(__VA_ARGS__, &ws, &ex); \
    if (first != ACLNN_SUCCESS) return first;                                     \
    return aclnntest::Launch(aclnn##Op, ws, ex, stream);                          \
  }()

class AclnnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtDestroyStream(stream_);
    acltest::AclTest::Shutdown();
  }
  aclrtStream stream_ = nullptr;
};

// Whether aclGetRecentErrMsg contains `part`.
// An aclIntArray of `values` the caller destroys.
inline aclIntArray* Ints(const std::vector<int64_t>& values) {
  return aclCreateIntArray(values.data(), values.size());
}

inline bool HasMessage(const char* part) {
  return std::string(aclGetRecentErrMsg()).find(part) != std::string::npos;
}

// An aclIntArray destroyed with its scope.
struct IntArray {
  explicit IntArray(std::vector<int64_t> v) : handle(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(handle); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* handle;
};

// An aclScalar of `value` destroyed with its scope.
template <typename T>
struct Scalar {
  Scalar(T v, aclDataType dtype) : value(v), handle(aclCreateScalar(&value, dtype)) {}
  ~Scalar() { aclDestroyScalar(handle); }
  Scalar(const Scalar&) = delete;
  Scalar& operator=(const Scalar&) = delete;
  T value;
  aclScalar* handle;
};

// f16 bit patterns of `v` (round to nearest even) and back.
inline std::vector<uint16_t> ToF16(const std::vector<float>& v) {
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = aclFloatToFloat16(v[i]);
  return h;
}
inline std::vector<float> FromF16(const std::vector<uint16_t>& h) {
  std::vector<float> v(h.size());
  for (size_t i = 0; i < h.size(); ++i) v[i] = aclFloat16ToFloat(h[i]);
  return v;
}

inline std::vector<float> Iota(size_t n, float start = 0, float step = 1) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

}  // namespace aclnntest
