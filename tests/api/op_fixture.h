// The fixture of the single-op API tests: a device and a stream, and helpers that create
// descriptors, device buffers and attributes the fixture destroys at the end.
#pragma once

#include <vector>

#include "acl/acl.h"
#include "api_test.h"

namespace acltest {

class OpFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    for (auto* d : descs_) aclDestroyTensorDesc(d);
    for (auto* b : buffers_) aclDestroyDataBuffer(b);
    for (void* p : device_) aclrtFree(p);
    if (attr_ != nullptr) aclopDestroyAttr(attr_);
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
  }

  aclTensorDesc* Desc(aclDataType dtype, std::vector<int64_t> dims,
                      aclFormat format = ACL_FORMAT_ND) {
    aclTensorDesc* desc =
        aclCreateTensorDesc(dtype, static_cast<int>(dims.size()), dims.data(), format);
    EXPECT_NE(desc, nullptr) << acltest::TakeRecentErrors();
    descs_.push_back(desc);
    return desc;
  }

  // A device buffer holding `values` (or `bytes` zero bytes if values is empty).
  template <typename T>
  aclDataBuffer* Device(const std::vector<T>& values, size_t bytes = 0) {
    if (bytes == 0) bytes = values.size() * sizeof(T);
    void* ptr = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    device_.push_back(ptr);
    if (!values.empty()) {
      EXPECT_ACL_OK(aclrtMemcpy(ptr, bytes, values.data(), values.size() * sizeof(T),
                                ACL_MEMCPY_HOST_TO_DEVICE));
    } else {
      EXPECT_ACL_OK(aclrtMemset(ptr, bytes, 0, bytes));
    }
    aclDataBuffer* buffer = aclCreateDataBuffer(ptr, bytes);
    buffers_.push_back(buffer);
    return buffer;
  }

  template <typename T>
  std::vector<T> Read(aclDataBuffer* buffer) {
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
    std::vector<T> out(aclGetDataBufferSizeV2(buffer) / sizeof(T));
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), out.size() * sizeof(T), aclGetDataBufferAddr(buffer),
                              out.size() * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  aclopAttr* Attr() {
    if (attr_ == nullptr) attr_ = aclopCreateAttr();
    return attr_;
  }

  static std::vector<aclFloat16> Half(const std::vector<float>& values) {
    std::vector<aclFloat16> out;
    for (float v : values) out.push_back(aclFloatToFloat16(v));
    return out;
  }

  aclrtStream stream_ = nullptr;
  aclopAttr* attr_ = nullptr;
  std::vector<aclTensorDesc*> descs_;
  std::vector<aclDataBuffer*> buffers_;
  std::vector<void*> device_;
};

}  // namespace acltest
