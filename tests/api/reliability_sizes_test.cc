// Reliability, sizes that overflow: every way a size enters through the public API -- tensor
// descriptors, shapes inferred by ops, copies with pitches -- is refused with
// ACL_ERROR_INVALID_PARAM (or NULL) and a message once it passes the limit of one tensor
// (2^48 bytes, docs/errors.md "Hostile input"), and sizes under it are reported exactly.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "op_fixture.h"

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

class ReliabilitySizesTest : public acltest::OpFixture {};

// Shapes whose element count or byte size wraps 64 bits or passes 2^48 bytes.
const std::vector<std::vector<int64_t>>& WrappingShapes() {
  static const std::vector<std::vector<int64_t>> shapes = {
      {int64_t{1} << 32, int64_t{1} << 32},
      {int64_t{1} << 62, 4},
      {kMax},
      {0, kMax},
      {int64_t{1} << 24, int64_t{1} << 24},  // 2^48 elements: 2^50 bytes of float
      {int64_t{1} << 16, int64_t{1} << 16, int64_t{1} << 16, 2},
  };
  return shapes;
}

TEST_F(ReliabilitySizesTest, DescriptorsRefuseShapesPastTheLimit) {
  for (const auto& dims : WrappingShapes()) {
    acltest::ClearRecentErrors();
    aclTensorDesc* desc =
        aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND);
    EXPECT_EQ(desc, nullptr) << dims.size();
    const std::string message = acltest::TakeRecentErrors();
    EXPECT_NE(message.find("aclCreateTensorDesc"), std::string::npos) << message;
    EXPECT_NE(message.find("too large"), std::string::npos) << message;
    aclDestroyTensorDesc(desc);
  }
}

TEST_F(ReliabilitySizesTest, DescriptorsAtTheLimitReportExactSizes) {
  const int64_t at_limit[2] = {int64_t{1} << 23, int64_t{1} << 23};  // 2^46 floats = 2^48 bytes
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, at_limit, ACL_FORMAT_ND);
  ASSERT_NE(desc, nullptr) << acltest::TakeRecentErrors();
  descs_.push_back(desc);
  EXPECT_EQ(aclGetTensorDescSize(desc), size_t{1} << 48);
  EXPECT_EQ(aclGetTensorDescElementCount(desc), size_t{1} << 46);
  // One more element of a wider type is one past it.
  aclTensorDesc* wider = aclCreateTensorDesc(ACL_INT64, 2, at_limit, ACL_FORMAT_ND);
  EXPECT_EQ(wider, nullptr);
  aclDestroyTensorDesc(wider);
}

TEST_F(ReliabilitySizesTest, ShapeSettersRefuseAndLeaveTheDescriptorAsItWas) {
  aclTensorDesc* desc = Desc(ACL_FLOAT16, {2, 3});
  for (const auto& dims : WrappingShapes()) {
    const int n = static_cast<int>(dims.size());
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorShape, desc, n, dims.data());
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorOriginShape, desc, n, dims.data());
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorStorageShape, desc, n, dims.data());
    EXPECT_EQ(aclGetTensorDescSize(desc), 12u);
    EXPECT_EQ(aclGetTensorDescNumDims(desc), 2u);
  }
}

TEST_F(ReliabilitySizesTest, InferredOutputsPastTheLimitAreRefused) {
  // BroadcastTo and Tile with shapes and multiples whose product passes 2^48 elements.
  const std::vector<std::pair<const char*, std::vector<int64_t>>> cases = {
      {"BroadcastTo", {int64_t{1} << 30, int64_t{1} << 30}},
      {"BroadcastTo", {kMax, 1}},
      {"Tile", {int64_t{1} << 40, int64_t{1} << 40}},
      {"Tile", {kMax, kMax}},
  };
  for (const auto& [type, value] : cases) {
    aclTensorDesc* x = Desc(ACL_FLOAT, {2, 2});
    aclTensorDesc* v = Desc(ACL_INT64, {2});
    ASSERT_ACL_OK(aclSetTensorConst(v, const_cast<int64_t*>(value.data()), 16));
    aclTensorDesc* in[2] = {x, v};
    aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {})};
    acltest::ClearRecentErrors();
    const aclError got = aclopInferShape(type, 2, in, nullptr, 1, out, nullptr);
    EXPECT_NE(got, ACL_SUCCESS) << type;
    const std::string message = acltest::TakeRecentErrors();
    EXPECT_NE(message.find("aclopInferShape"), std::string::npos) << message;
    EXPECT_EQ(aclGetTensorDescNumDims(out[0]), 0u) << type;
  }
}

TEST_F(ReliabilitySizesTest, RangeWithAHugeCountFailsWithoutANegativeDim) {
  aclTensorDesc* in[3] = {Desc(ACL_INT64, {}), Desc(ACL_INT64, {}), Desc(ACL_INT64, {})};
  int64_t values[3] = {std::numeric_limits<int64_t>::min(), kMax, 1};
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclSetTensorConst(in[i], &values[i], 8));
  aclTensorDesc* out[1] = {Desc(ACL_INT64, {})};
  EXPECT_NE(aclopInferShape("Range", 3, in, nullptr, 1, out, nullptr), ACL_SUCCESS);
  for (size_t d = 0; d < aclGetTensorDescNumDims(out[0]); ++d) {
    EXPECT_GE(aclGetTensorDescDim(out[0], d), 0);
  }
}

TEST_F(ReliabilitySizesTest, CopiesWithWrappingPitchesAreRefused) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> host(4096);
  const size_t huge = std::numeric_limits<size_t>::max() / 2 + 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d, dev, huge, host.data(), 64, 64, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d, dev, 64, host.data(), huge, 64, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d, dev, 64, host.data(), 64, 64, huge,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_OK(aclrtFree(dev));
}

}  // namespace
