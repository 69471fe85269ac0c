// acl_base_rt.h: fp16 conversion, data buffers, aclDataTypeSize, aclAppLog. None of these
// needs aclInit.
#include <cmath>
#include <limits>

#include "api_test.h"

namespace {

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

bool IsHalfNan(aclFloat16 h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0; }

TEST(aclFloat16Test, KnownValuesConvertExactly) {
  struct Case {
    float value;
    aclFloat16 half;
  };
  const Case cases[] = {
      {0.0f, 0x0000},           {-0.0f, 0x8000},        {1.0f, 0x3C00},
      {-2.0f, 0xC000},          {0.5f, 0x3800},         {65504.0f, 0x7BFF},
      {-65504.0f, 0xFBFF},      {0.099975586f, 0x2E66}, {6.1035156e-05f, 0x0400},  // min normal
      {5.9604645e-08f, 0x0001},                                                    // min subnormal
      {6.097555e-05f, 0x03FF},                                                     // max subnormal
  };
  for (const Case& c : cases) {
    EXPECT_EQ(aclFloatToFloat16(c.value), c.half) << c.value;
    EXPECT_EQ(aclFloat16ToFloat(c.half), c.value) << std::hex << c.half;
  }
}

TEST(aclFloat16Test, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(aclFloatToFloat16(inf), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(-inf), 0xFC00);
  EXPECT_EQ(aclFloat16ToFloat(0x7C00), inf);
  EXPECT_EQ(aclFloat16ToFloat(0xFC00), -inf);
  EXPECT_TRUE(IsHalfNan(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7E00)));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0xFC01)));
  // Past the largest half (65504, rounding boundary 65520): infinity.
  EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(1e10f), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(-1e10f), 0xFC00);
  // Below half the smallest subnormal: signed zero.
  EXPECT_EQ(aclFloatToFloat16(1e-10f), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(-1e-10f), 0x8000);
}

TEST(aclFloat16Test, RoundsToNearestEven) {
  // Between 1.0 (0x3C00) and the next half 1.0009765625 (0x3C01).
  EXPECT_EQ(aclFloatToFloat16(1.0f + 0.00048828125f), 0x3C00);           // exact tie: even
  EXPECT_EQ(aclFloatToFloat16(1.0f + 0.00048828125f + 1e-7f), 0x3C01);   // above the tie
  EXPECT_EQ(aclFloatToFloat16(1.0009765625f + 0.00048828125f), 0x3C02);  // tie up to even
  EXPECT_EQ(aclFloatToFloat16(2.9802322e-08f), 0x0000);                  // tie at 2^-25: even
  EXPECT_EQ(aclFloatToFloat16(2.9802326e-08f), 0x0001);
}

TEST(aclFloat16Test, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto half = static_cast<aclFloat16>(bits);
    const float value = aclFloat16ToFloat(half);
    if (IsHalfNan(half)) {
      ASSERT_TRUE(std::isnan(value)) << std::hex << bits;
      ASSERT_TRUE(IsHalfNan(aclFloatToFloat16(value))) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(aclFloatToFloat16(value), half) << std::hex << bits;
  }
}

TEST(aclDataBufferTest, CreateGetUpdateDestroy) {
  std::vector<uint8_t> storage(100), other(7);
  aclDataBuffer* buffer = aclCreateDataBuffer(storage.data(), storage.size());
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage.data());
  EXPECT_EQ(aclGetDataBufferSize(buffer), 100u);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 100u);
  ASSERT_ACL_OK(aclUpdateDataBuffer(buffer, other.data(), other.size()));
  EXPECT_EQ(aclGetDataBufferAddr(buffer), other.data());
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 7u);
  ASSERT_ACL_OK(aclUpdateDataBuffer(buffer, nullptr, 0));
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  ASSERT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST(aclDataBufferTest, EmptyBufferIsAllowed) {
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSize(buffer), 0u);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_EQ(acltest::TakeRecentErrors(), "");  // not failures
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST(aclDataBufferTest, DeviceMemoryBuffersWorkAcrossInit) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  aclDataBuffer* buffer = aclCreateDataBuffer(dev, 1 << 20);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), dev);
  EXPECT_ACL_OK(aclrtFree(dev));
  acltest::AclTest::Shutdown();
  // A data buffer is a host-side descriptor: it outlives the runtime.
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), size_t{1} << 20);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST(aclDataBufferTest, SizeOver4GiBNeedsV2) {
  static char dummy;  // never dereferenced
  const size_t big = (size_t{5} << 30) + 1;
  aclDataBuffer* buffer = aclCreateDataBuffer(&dummy, big);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), big);
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclGetDataBufferSize(buffer), 0u);
  EXPECT_RECENT_ERROR_NAMES(aclGetDataBufferSize);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST(aclDataBufferTest, CreateWithNullDataAndNonZeroSizeFails) {
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 8), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclCreateDataBuffer);
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclUpdateDataBuffer, buffer, nullptr, 8);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

// Every data-buffer function refuses `bad` with `code` and a message naming it.
void ExpectDataBufferFunctionsRefuse(aclDataBuffer* bad, int code) {
  char data[4];
  EXPECT_ACL_ERR(code, aclDestroyDataBuffer, bad);
  EXPECT_ACL_ERR(code, aclUpdateDataBuffer, bad, data, sizeof(data));
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclGetDataBufferAddr(bad), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclGetDataBufferAddr);
  EXPECT_EQ(aclGetDataBufferSize(bad), 0u);
  EXPECT_RECENT_ERROR_NAMES(aclGetDataBufferSize);
  EXPECT_EQ(aclGetDataBufferSizeV2(bad), 0u);
  EXPECT_RECENT_ERROR_NAMES(aclGetDataBufferSizeV2);
}

TEST(aclDataBufferTest, NullBufferIsInvalidParam) {
  ExpectDataBufferFunctionsRefuse(nullptr, kBadParam);
}

TEST(aclDataBufferTest, DestroyedBufferIsInvalidHandle) {
  char data[16];
  aclDataBuffer* buffer = aclCreateDataBuffer(data, sizeof(data));
  ASSERT_NE(buffer, nullptr);
  ASSERT_ACL_OK(aclDestroyDataBuffer(buffer));
  ExpectDataBufferFunctionsRefuse(buffer, kBadHandle);
}

TEST(aclDataBufferTest, DestroyedBufferDoesNotAliasANewerBuffer) {
  char data[8];
  for (int i = 0; i < 20; ++i) {
    aclDataBuffer* old_buffer = aclCreateDataBuffer(data, 1);
    ASSERT_NE(old_buffer, nullptr);
    ASSERT_ACL_OK(aclDestroyDataBuffer(old_buffer));
    aclDataBuffer* new_buffer = aclCreateDataBuffer(data, 2);
    ASSERT_NE(new_buffer, nullptr);
    EXPECT_NE(old_buffer, new_buffer);
    EXPECT_ACL_ERR(kBadHandle, aclDestroyDataBuffer, old_buffer);
    EXPECT_EQ(aclGetDataBufferSizeV2(new_buffer), 2u);
    EXPECT_ACL_OK(aclDestroyDataBuffer(new_buffer));
  }
}

TEST(aclDataBufferTest, OtherHandlesAreInvalidHandle) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ExpectDataBufferFunctionsRefuse(static_cast<aclDataBuffer*>(stream), kBadHandle);
  ExpectDataBufferFunctionsRefuse(static_cast<aclDataBuffer*>(event), kBadHandle);
  int plain = 0;
  ExpectDataBufferFunctionsRefuse(reinterpret_cast<aclDataBuffer*>(&plain), kBadHandle);
  // The stream and event are untouched.
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
  acltest::AclTest::Shutdown();
}

TEST(aclDataTypeSizeTest, WholeByteTypes) {
  struct Case {
    aclDataType type;
    size_t size;
  };
  const Case cases[] = {
      {ACL_FLOAT, 4},     {ACL_FLOAT16, 2},     {ACL_INT8, 1},          {ACL_INT32, 4},
      {ACL_UINT8, 1},     {ACL_INT16, 2},       {ACL_UINT16, 2},        {ACL_UINT32, 4},
      {ACL_INT64, 8},     {ACL_UINT64, 8},      {ACL_DOUBLE, 8},        {ACL_BOOL, 1},
      {ACL_COMPLEX64, 8}, {ACL_COMPLEX128, 16}, {ACL_BF16, 2},          {ACL_COMPLEX32, 4},
      {ACL_HIFLOAT8, 1},  {ACL_FLOAT8_E5M2, 1}, {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},
  };
  for (const Case& c : cases) EXPECT_EQ(aclDataTypeSize(c.type), c.size) << c.type;
}

TEST(aclDataTypeSizeTest, TypesWithoutAWholeByteSizeAreZero) {
  for (aclDataType type : {ACL_STRING, ACL_INT4, ACL_UINT1, ACL_FLOAT4_E2M1, ACL_FLOAT6_E3M2}) {
    EXPECT_EQ(aclDataTypeSize(type), 0u) << type;
  }
}

TEST(aclDataTypeSizeTest, ValuesThatAreNoDataTypeAreZeroWithAMessage) {
  for (int type : {static_cast<int>(ACL_DT_UNDEFINED), 5, 14, 999, -7}) {
    acltest::ClearRecentErrors();
    EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(type)), 0u) << type;
    EXPECT_RECENT_ERROR_NAMES(aclDataTypeSize);
  }
}

TEST(aclAppLogTest, AcceptsAnyArgumentsWithoutCrashing) {
  aclAppLog(ACL_INFO, __func__, __FILE__, __LINE__, "value %d, text %s", 42, "ok");
  aclAppLog(ACL_ERROR, __func__, __FILE__, __LINE__, "%s", std::string(4000, 'x').c_str());
  ACL_APP_LOG(ACL_WARNING, "macro form %u", 7u);
  aclAppLog(ACL_DEBUG, nullptr, __FILE__, __LINE__, "no function");
  aclAppLog(ACL_DEBUG, __func__, nullptr, __LINE__, "no file");
  aclAppLog(ACL_DEBUG, __func__, __FILE__, __LINE__, nullptr);
  aclAppLog(static_cast<aclLogLevel>(99), __func__, __FILE__, __LINE__, "bad level");
  SUCCEED();
}

}  // namespace
