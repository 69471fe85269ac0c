// DeviceDataset: device buffers of a model's inputs or outputs in an aclmdlDataset, for the
// API tests that run models.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "acl/acl.h"
#include "api_test.h"

namespace acltest {

// Device buffers of a model's inputs or outputs, in a dataset.
class DeviceDataset {
 public:
  DeviceDataset() : dataset_(aclmdlCreateDataset()) {}
  ~DeviceDataset() {
    for (auto* buffer : buffers_) {
      (void)aclrtFree(aclGetDataBufferAddr(buffer));
      (void)aclDestroyDataBuffer(buffer);
    }
    (void)aclmdlDestroyDataset(dataset_);
  }
  DeviceDataset(const DeviceDataset&) = delete;
  DeviceDataset& operator=(const DeviceDataset&) = delete;

  void* Add(size_t bytes) {
    void* dev = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclDataBuffer* buffer = aclCreateDataBuffer(dev, bytes);
    buffers_.push_back(buffer);
    EXPECT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffer));
    return dev;
  }
  template <typename T>
  void* AddFilled(const std::vector<T>& values) {
    void* dev = Add(values.size() * sizeof(T));
    EXPECT_ACL_OK(aclrtMemcpy(dev, values.size() * sizeof(T), values.data(),
                              values.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
    return dev;
  }
  template <typename T>
  std::vector<T> Read(size_t index, size_t count) const {
    std::vector<T> host(count);
    void* dev = aclGetDataBufferAddr(buffers_.at(index));
    EXPECT_ACL_OK(aclrtMemcpy(host.data(), count * sizeof(T), dev, count * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST));
    return host;
  }
  aclmdlDataset* get() const { return dataset_; }

 private:
  aclmdlDataset* dataset_;
  std::vector<aclDataBuffer*> buffers_;
};

}  // namespace acltest
