// Host registration (aclrtHostRegister[V2], aclrtHostGetDevicePointer, aclrtHostUnregister)
// and managed memory (aclrtMemAllocManaged, prefetch, advice, attributes).
#include <cstring>

#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

TEST_F(AclTest, RegisteredHostMemoryHasADeviceAddressAndCopiesAsync) {
  const size_t kBytes = 64 << 10;
  std::vector<uint8_t> user = acltest::Pattern(kBytes, 21);
  void* dev_view = nullptr;
  ASSERT_ACL_OK(aclrtHostRegister(user.data(), kBytes, ACL_HOST_REGISTER_MAPPED, &dev_view));
  ASSERT_NE(dev_view, nullptr);
  void* inner = nullptr;
  ASSERT_ACL_OK(aclrtHostGetDevicePointer(user.data() + 100, &inner, 0));
  EXPECT_EQ(inner, static_cast<char*>(dev_view) + 100);

  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, user.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, user);
  aclrtPtrAttributes attributes = {};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(user.data(), &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);

  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeHost, user.data());      // not ours to free
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegisterV2, user.data() + 8, 16, 0x2);  // overlaps
  ASSERT_ACL_OK(aclrtHostUnregister(user.data()));
  EXPECT_ACL_ERR(kBadParam, aclrtHostUnregister, user.data());
  EXPECT_ACL_ERR(kBadParam, aclrtHostGetDevicePointer, user.data(), &inner, 0);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclTest, HostRegistrationsEndWithTheInitThatMadeThem) {
  // Registered and never unregistered, ten inits in a row: each aclFinalize forgets the
  // registration, so the next init sees no trace of it and may register the range again.
  std::vector<uint8_t> user(64 << 10);
  for (int round = 0; round < 10; ++round) {
    void* inner = nullptr;
    EXPECT_ACL_ERR(kBadParam, aclrtHostGetDevicePointer, user.data(), &inner, 0);
    EXPECT_ACL_ERR(kBadParam, aclrtHostUnregister, user.data());
    void* dev_view = nullptr;
    ASSERT_ACL_OK(aclrtHostRegister(user.data(), user.size(), ACL_HOST_REGISTER_MAPPED, &dev_view));
    ASSERT_ACL_OK(aclrtHostGetDevicePointer(user.data(), &inner, 0));
    Shutdown();
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
  }
}

TEST_F(AclTest, HostRegistrationRefusesBadArguments) {
  std::vector<uint8_t> user(4096);
  void* dev_view = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegister, nullptr, 16, ACL_HOST_REGISTER_MAPPED, &dev_view);
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegister, user.data(), 0, ACL_HOST_REGISTER_MAPPED, &dev_view);
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegister, user.data(), 16,
                 static_cast<aclrtHostRegisterType>(3), &dev_view);
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegister, user.data(), 16, ACL_HOST_REGISTER_MAPPED, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegisterV2, user.data(), 16, 0x1);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(kBadParam, aclrtHostRegister, dev, 16, ACL_HOST_REGISTER_MAPPED, &dev_view);
  ASSERT_ACL_OK(aclrtFree(dev));
  // Registered without MAPPED: pinned, but no device address.
  ASSERT_ACL_OK(aclrtHostRegisterV2(user.data(), 4096, 0x10000000));
  EXPECT_ACL_ERR(kBadParam, aclrtHostGetDevicePointer, user.data(), &dev_view, 0);
  ASSERT_ACL_OK(aclrtHostUnregister(user.data()));
}

TEST_F(AclTest, ManagedMemoryIsSharedByHostAndDevice) {
  const size_t kBytes = 256 << 10;
  void* managed = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, kBytes, ACL_RT_MEM_ATTACH_GLOBAL));
  std::memset(managed, 0x42, kBytes);  // the host touches it directly
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kBytes, managed, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, std::vector<uint8_t>(kBytes, 0x42));

  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtMemManagedLocation device0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
  ASSERT_ACL_OK(aclrtMemManagedPrefetchAsync(managed, kBytes, device0, 0, stream));
  int32_t value = -9;
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed,
                                       kBytes, &value, sizeof(value)));
  EXPECT_EQ(value, 0);
  ASSERT_ACL_OK(aclrtMemManagedPrefetchAsync(managed, 4096, host, 0, stream));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed,
                                       kBytes, &value, sizeof(value)));
  EXPECT_EQ(value, -1);  // the host
  ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, kBytes, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kBytes, &value,
                                       sizeof(value)));
  EXPECT_EQ(value, 1);
  ASSERT_ACL_OK(
      aclrtMemManagedAdvise(managed, kBytes, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device0));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, managed,
                                       kBytes, &value, sizeof(value)));
  EXPECT_EQ(value, ACL_MEM_LOCATIONTYPE_DEVICE);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));

  // Misuse.
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(kBadParam, aclrtMemManagedPrefetchAsync, plain, 4096, device0, 0, stream);
  EXPECT_ACL_ERR(kBadParam, aclrtMemManagedPrefetchAsync, managed, kBytes + 1, device0, 0, stream);
  aclrtMemManagedLocation nowhere = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
  EXPECT_ACL_ERR(kBadParam, aclrtMemManagedPrefetchAsync, managed, 16, nowhere, 0, stream);
  EXPECT_ACL_ERR(kBadParam, aclrtMemAllocManaged, &plain, 4096, 0);
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtFree(managed));
}

}  // namespace
