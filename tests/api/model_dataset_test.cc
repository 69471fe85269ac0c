// Model datasets and model configuration handles (acl_mdl.h), through the public API only:
// buffers listed (not owned), descriptors copied and owned, every bad argument refused with
// a message.
#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

class ModelDatasetTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    dataset_ = aclmdlCreateDataset();
    ASSERT_NE(dataset_, nullptr);
    for (int i = 0; i < 2; ++i) {
      buffers_[i] = aclCreateDataBuffer(storage_ + i * 16, 16);
      ASSERT_NE(buffers_[i], nullptr);
    }
  }
  void TearDown() override {
    if (dataset_ != nullptr) EXPECT_ACL_OK(aclmdlDestroyDataset(dataset_));
    for (auto* buffer : buffers_) EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
    AclTest::TearDown();
  }
  aclmdlDataset* dataset_ = nullptr;
  aclDataBuffer* buffers_[2] = {};
  char storage_[32] = {};
};

TEST_F(ModelDatasetTest, ListsItsBuffersInOrder) {
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 0u);
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffers_[0]));
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffers_[1]));
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 2u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 0), buffers_[0]);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 1), buffers_[1]);
  EXPECT_EQ(aclGetDataBufferAddr(aclmdlGetDatasetBuffer(dataset_, 1)), storage_ + 16);
}

TEST_F(ModelDatasetTest, DestroyingTheDatasetLeavesTheBuffersToTheProgram) {
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffers_[0]));
  ASSERT_ACL_OK(aclmdlDestroyDataset(dataset_));
  EXPECT_EQ(aclGetDataBufferSizeV2(buffers_[0]), 16u);  // still valid
  EXPECT_ACL_ERR(kBadHandle, aclmdlDestroyDataset, dataset_);
  dataset_ = nullptr;
}

TEST_F(ModelDatasetTest, TensorDescIsCopiedAndOwnedByTheDataset) {
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffers_[0]));
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);  // none set: NULL, no error
  const int64_t dims[] = {2, 4};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  ASSERT_NE(desc, nullptr);
  ASSERT_ACL_OK(aclmdlSetDatasetTensorDesc(dataset_, desc, 0));
  aclDestroyTensorDesc(desc);  // the dataset keeps its own copy
  aclTensorDesc* held = aclmdlGetDatasetTensorDesc(dataset_, 0);
  ASSERT_NE(held, nullptr);
  EXPECT_NE(held, desc);
  EXPECT_EQ(aclGetTensorDescNumDims(held), 2u);
  EXPECT_EQ(aclGetTensorDescType(held), ACL_FLOAT);
  int64_t dim = 0;
  EXPECT_ACL_OK(aclGetTensorDescDimV2(held, 1, &dim));
  EXPECT_EQ(dim, 4);
  // Setting NULL clears it; the copy is destroyed.
  ASSERT_ACL_OK(aclmdlSetDatasetTensorDesc(dataset_, nullptr, 0));
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclGetTensorDescNumDims(held), 0u);
  EXPECT_TRUE(acltest::RecentErrorNames("aclGetTensorDescNumDims"));
}

TEST_F(ModelDatasetTest, DestroyingTheDatasetDestroysItsDescriptors) {
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(dataset_, buffers_[0]));
  const int64_t dims[] = {3};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
  ASSERT_ACL_OK(aclmdlSetDatasetTensorDesc(dataset_, desc, 0));
  aclTensorDesc* held = aclmdlGetDatasetTensorDesc(dataset_, 0);
  ASSERT_ACL_OK(aclmdlDestroyDataset(dataset_));
  dataset_ = nullptr;
  int64_t dim = 0;
  EXPECT_ACL_ERR(kBadHandle, aclGetTensorDescDimV2, held, 0, &dim);
  EXPECT_ACL_OK(aclGetTensorDescDimV2(desc, 0, &dim));  // the program's own is untouched
  EXPECT_EQ(dim, 3);
  aclDestroyTensorDesc(desc);
}

TEST_F(ModelDatasetTest, RefusesBadArguments) {
  EXPECT_ACL_ERR(kBadParam, aclmdlAddDatasetBuffer, nullptr, buffers_[0]);
  EXPECT_ACL_ERR(kBadParam, aclmdlAddDatasetBuffer, dataset_, nullptr);
  // A handle of another kind.
  EXPECT_ACL_ERR(kBadHandle, aclmdlAddDatasetBuffer, dataset_,
                 reinterpret_cast<aclDataBuffer*>(dataset_));
  EXPECT_ACL_ERR(kBadParam, aclmdlSetDatasetTensorDesc, dataset_, nullptr, 0);  // no buffer 0
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 0), nullptr);
  EXPECT_TRUE(acltest::RecentErrorNames("aclmdlGetDatasetBuffer"));
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 5), nullptr);
  EXPECT_TRUE(acltest::RecentErrorNames("aclmdlGetDatasetTensorDesc"));
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(nullptr), 0u);
  EXPECT_TRUE(acltest::RecentErrorNames("aclmdlGetDatasetNumBuffers"));
  EXPECT_ACL_ERR(kBadParam, aclmdlDestroyDataset, nullptr);
}

class ModelConfigTest : public AclTest {};

TEST_F(ModelConfigTest, LoadConfigTakesEveryAttributeWithItsSize) {
  aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
  ASSERT_NE(config, nullptr);
  const size_t load_type = ACL_MDL_LOAD_FROM_FILE;
  const char* path = "/tmp/model.om";
  const int32_t priority = 1;
  void* ptr = nullptr;
  size_t size = 64;
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &load_type, sizeof(size_t)));
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_PATH_PTR, &path, sizeof(path)));
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_PRIORITY_INT32, &priority, sizeof(priority)));
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_WORKSPACE_ADDR_PTR, &ptr, sizeof(ptr)));
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_WORKSPACE_SIZET, &size, sizeof(size)));
  EXPECT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_WEIGHT_SIZET, &size, sizeof(size)));
  // Wrong sizes, bad values, unknown and unsupported attributes.
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, config, ACL_MDL_LOAD_TYPE_SIZET, &load_type, 4);
  const size_t bad_type = 9;
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, config, ACL_MDL_LOAD_TYPE_SIZET, &bad_type,
                 sizeof(size_t));
  const char* null_path = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, config, ACL_MDL_PATH_PTR, &null_path,
                 sizeof(null_path));
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, config, ACL_MDL_PRIORITY_INT32, nullptr, 4);
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, config, static_cast<aclmdlConfigAttr>(999), &size,
                 sizeof(size));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlSetConfigOpt, config, ACL_MDL_KERNEL_PTR,
                 &ptr, sizeof(ptr));
  EXPECT_ACL_ERR(kBadParam, aclmdlSetConfigOpt, nullptr, ACL_MDL_WEIGHT_SIZET, &size, sizeof(size));
  EXPECT_ACL_OK(aclmdlDestroyConfigHandle(config));
  EXPECT_ACL_ERR(kBadHandle, aclmdlDestroyConfigHandle, config);
}

TEST_F(ModelConfigTest, ExecConfigTakesEveryAttributeWithItsSize) {
  aclmdlExecConfigHandle* config = aclmdlCreateExecConfigHandle();
  ASSERT_NE(config, nullptr);
  const int32_t timeout = 100;
  const size_t size = 4096;
  void* ptr = nullptr;
  EXPECT_ACL_OK(
      aclmdlSetExecConfigOpt(config, ACL_MDL_STREAM_SYNC_TIMEOUT, &timeout, sizeof(timeout)));
  EXPECT_ACL_OK(
      aclmdlSetExecConfigOpt(config, ACL_MDL_EVENT_SYNC_TIMEOUT, &timeout, sizeof(timeout)));
  EXPECT_ACL_OK(aclmdlSetExecConfigOpt(config, ACL_MDL_WORK_ADDR_PTR, &ptr, sizeof(ptr)));
  EXPECT_ACL_OK(aclmdlSetExecConfigOpt(config, ACL_MDL_WORK_SIZET, &size, sizeof(size)));
  EXPECT_ACL_OK(
      aclmdlSetExecConfigOpt(config, ACL_MDL_EXEC_PRIORITY_INT32, &timeout, sizeof(timeout)));
  EXPECT_ACL_ERR(kBadParam, aclmdlSetExecConfigOpt, config, ACL_MDL_WORK_SIZET, &size, 4);
  EXPECT_ACL_ERR(kBadParam, aclmdlSetExecConfigOpt, config, static_cast<aclmdlExecConfigAttr>(77),
                 &size, sizeof(size));
  EXPECT_ACL_ERR(kBadParam, aclmdlSetExecConfigOpt, config, ACL_MDL_WORK_SIZET, nullptr,
                 sizeof(size));
  EXPECT_ACL_OK(aclmdlDestroyExecConfigHandle(config));
  EXPECT_ACL_ERR(kBadHandle, aclmdlDestroyExecConfigHandle, config);
}

}  // namespace
