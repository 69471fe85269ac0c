// aclnn meta API: tensors, scalars, arrays, lists, their getters and destroy functions.
#include <dlfcn.h>

#include <string>

#include "aclnn_test.h"

namespace {

TEST(AclnnMetaTest, TensorGettersReturnWhatWasCreated) {
  const int64_t dims[] = {4, 2};
  const int64_t strides[] = {1, 4};
  const int64_t storage[] = {2, 4};
  int dummy = 0;
  aclTensor* t =
      aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 3, ACL_FORMAT_ND, storage, 2, &dummy);
  ASSERT_NE(t, nullptr);
  int64_t* values = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewShape(t, &values, &count), ACLNN_SUCCESS);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(values[0], 4);
  EXPECT_EQ(values[1], 2);
  delete[] values;
  ASSERT_EQ(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values[1], 4);
  delete[] values;
  ASSERT_EQ(aclGetStorageShape(t, &values, &count), ACLNN_SUCCESS);
  EXPECT_EQ(count, 2u);
  delete[] values;
  int64_t offset = 0;
  ASSERT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 3);
  aclDataType dtype = ACL_DT_UNDEFINED;
  ASSERT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT16);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  ASSERT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_ND);
  void* addr = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
  EXPECT_EQ(addr, &dummy);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(AclnnMetaTest, NullArgumentsAreRefused) {
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  EXPECT_EQ(aclCreateIntArray(nullptr, 3), nullptr);
  int64_t* values = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetViewShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
}

TEST(AclnnMetaTest, ArraysAndListsReportTheirSizes) {
  const int64_t ints[] = {1, 2, 3};
  aclIntArray* ia = aclCreateIntArray(ints, 3);
  uint64_t size = 0;
  ASSERT_EQ(aclGetIntArraySize(ia, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclDestroyIntArray(ia), ACLNN_SUCCESS);
  const float floats[] = {1.f, 2.f};
  aclFloatArray* fa = aclCreateFloatArray(floats, 2);
  ASSERT_EQ(aclGetFloatArraySize(fa, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclDestroyFloatArray(fa), ACLNN_SUCCESS);
  const bool bools[] = {true};
  aclBoolArray* ba = aclCreateBoolArray(bools, 1);
  ASSERT_EQ(aclGetBoolArraySize(ba, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(aclDestroyBoolArray(ba), ACLNN_SUCCESS);

  const int64_t dims[] = {2};
  const aclTensor* members[] = {
      aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr),
      aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr)};
  aclTensorList* list = aclCreateTensorList(members, 2);
  ASSERT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  // The list destroyed its members: they are stale now.
  aclDataType dtype;
  EXPECT_EQ(aclGetDataType(members[0], &dtype), ACLNN_ERR_PARAM_INVALID);
}

TEST(AclnnMetaTest, ScalarsCopyTheirValue) {
  float value = 2.5f;
  aclScalar* s = aclCreateScalar(&value, ACL_FLOAT);
  ASSERT_NE(s, nullptr);
  value = 0;
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID);  // stale handle
}

TEST(AclnnMetaTest, LibrariesOpenByCannNamesAndResolveOps) {
  std::string dir = ACLSIM_LIBASCENDCL_PATH;
  dir = dir.substr(0, dir.rfind('/'));
  for (const char* name : {"libopapi.so", "libnnopbase.so", "libopapi_math.so"}) {
    const std::string path = dir + "/" + name;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << path << ": " << dlerror();
    EXPECT_NE(dlsym(lib, "aclnnAddGetWorkspaceSize"), nullptr);
    EXPECT_NE(dlsym(lib, "aclnnAdd"), nullptr);
    EXPECT_NE(dlsym(lib, "aclCreateTensor"), nullptr);
    EXPECT_NE(dlsym(lib, "AclSetInputTensorAddr"), nullptr);
    dlclose(lib);
  }
}

TEST(AclnnMetaTest, InitAndFinalize) {
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnInit(""), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnInit("/nonexistent/aclnn.json"), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
