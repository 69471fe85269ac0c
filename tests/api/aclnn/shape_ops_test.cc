// aclnn shape and movement operators (Permute, Slice, SliceV2, Cat, Repeat, ConstantPadNd,
// GatherV2, IndexSelect, Arange) through the public API, on strided views, with the errors.
#include <cstdint>
#include <memory>
#include <string>

#include "aclnn_test.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_slice.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::HasMessage;
using aclnntest::IntArray;
using aclnntest::Iota;
using aclnntest::Scalar;

TEST_F(AclnnTest, PermuteIntoContiguousAndStridedOut) {
  DeviceArray<float> a(Iota(24));  // [2, 3, 4]
  DeviceArray<float> out(std::vector<float>(24, -1));
  IntArray dims({2, 0, -2});
  ASSERT_EQ(ACLNN_RUN(stream_, Permute, a.View({2, 3, 4}, ACL_FLOAT), dims.handle,
                      out.View({4, 2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want(24);
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j)
        want[(k * 2 + i) * 3 + j] = static_cast<float>(i * 12 + j * 4 + k);
    }
  }
  EXPECT_EQ(out.Read(), want);
  // A transposed input ((r, c) at r + 3c) through a transposed output view ((i, j) at i + 2j).
  DeviceArray<float> back(std::vector<float>(6, -1));
  IntArray swap({1, 0});
  ASSERT_EQ(ACLNN_RUN(stream_, Permute, a.View({3, 2}, ACL_FLOAT, {1, 3}), swap.handle,
                      back.View({2, 3}, ACL_FLOAT, {1, 2})),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(back.Read(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  IntArray twice({0, 0, 1});
  EXPECT_EQ(ACLNN_RUN(stream_, Permute, a.View({2, 3, 4}, ACL_FLOAT), twice.handle,
                      out.View({2, 2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("twice")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Permute, a.View({2, 3, 4}, ACL_FLOAT), swap.handle,
                      out.View({3, 2, 4}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Permute, a.View({2, 3, 4}, ACL_FLOAT), dims.handle,
                      out.View({4, 2, 3}, ACL_FLOAT16)),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, SliceAndSliceV2ClampAsTorch) {
  DeviceArray<float> a(Iota(20));  // [4, 5]
  DeviceArray<float> out(std::vector<float>(8, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Slice, a.View({4, 5}, ACL_FLOAT), 1, 1, -1, 2,
                      out.View({4, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 3, 6, 8, 11, 13, 16, 18}));
  // Out-of-range bounds clamp: rows [-100, 100) step 3 are rows 0 and 3.
  DeviceArray<float> rows(std::vector<float>(10, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Slice, a.View({4, 5}, ACL_FLOAT), 0, -100, 100, 3,
                      rows.View({2, 5}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(rows.Read(), (std::vector<float>{0, 1, 2, 3, 4, 15, 16, 17, 18, 19}));
  IntArray starts({1, 0});
  IntArray ends({100, 5});
  IntArray axes({0, -1});
  IntArray steps({2, 3});
  DeviceArray<float> v2(std::vector<float>(4, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, SliceV2, a.View({4, 5}, ACL_FLOAT), starts.handle, ends.handle,
                      axes.handle, steps.handle, v2.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(v2.Read(), (std::vector<float>{5, 8, 15, 18}));
  DeviceArray<float> whole(std::vector<float>(20, -1));
  EXPECT_EQ(ACLNN_RUN(stream_, Slice, a.View({4, 5}, ACL_FLOAT), 1, 0, 5, 0,
                      whole.View({4, 5}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("must be positive")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Slice, a.View({4, 5}, ACL_FLOAT), 2, 0, 5, 1,
                      whole.View({4, 5}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("out of range")) << aclGetRecentErrMsg();
  // The empty slice writes nothing.
  ASSERT_EQ(
      ACLNN_RUN(stream_, Slice, a.View({4, 5}, ACL_FLOAT), 1, 4, 2, 1, out.View({4, 0}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, CatPromotesAndSkipsLegacyEmptyTensors) {
  DeviceArray<float> a(Iota(4, 1));             // [2, 2]
  DeviceArray<int32_t> b({5, 6, 7, 8, 9, 10});  // [2, 3]
  DeviceArray<float> e(std::vector<float>{});
  const aclTensor* members[] = {a.UnownedView({2, 2}, ACL_FLOAT), e.UnownedView({0}, ACL_FLOAT),
                                b.UnownedView({2, 3}, ACL_INT32)};
  aclTensorList* list = aclCreateTensorList(members, 3);
  DeviceArray<float> out(std::vector<float>(10, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Cat, list, -1, out.View({2, 5}, ACL_FLOAT)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 5, 6, 7, 3, 4, 8, 9, 10}));
  // Along dim 0 into a transposed output.
  const aclTensor* rows[] = {a.UnownedView({1, 4}, ACL_FLOAT), a.UnownedView({1, 4}, ACL_FLOAT)};
  aclTensorList* two = aclCreateTensorList(rows, 2);
  DeviceArray<float> t(std::vector<float>(8, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Cat, two, 0, t.View({2, 4}, ACL_FLOAT, {1, 2})), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(t.Read(), (std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4}));
  // The float result does not go into a bool output; shapes must agree outside dim.
  DeviceArray<uint8_t> bout(std::vector<uint8_t>(10, 0));
  EXPECT_EQ(ACLNN_RUN(stream_, Cat, list, 1, bout.View({2, 5}, ACL_BOOL)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("cannot be cast")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Cat, list, 0, out.View({4, 2}, ACL_FLOAT)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("does not match")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclDestroyTensorList(list), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(two), ACL_SUCCESS);
}

TEST_F(AclnnTest, RepeatAddsLeadingDims) {
  DeviceArray<float> a(Iota(6));  // [2, 3]
  DeviceArray<float> out(std::vector<float>(24, -1));
  IntArray repeats({2, 1, 2});
  ASSERT_EQ(ACLNN_RUN(stream_, Repeat, a.View({2, 3}, ACL_FLOAT, {1, 2}), repeats.handle,
                      out.View({2, 2, 6}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // The transposed view is [[0, 2, 4], [1, 3, 5]].
  const std::vector<float> block{0, 2, 4, 0, 2, 4, 1, 3, 5, 1, 3, 5};
  std::vector<float> want = block;
  want.insert(want.end(), block.begin(), block.end());
  EXPECT_EQ(out.Read(), want);
  IntArray fewer({2});
  EXPECT_EQ(ACLNN_RUN(stream_, Repeat, a.View({2, 3}, ACL_FLOAT), fewer.handle,
                      out.View({4, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  IntArray huge({INT64_MAX, 2});
  EXPECT_EQ(ACLNN_RUN(stream_, Repeat, a.View({2, 3}, ACL_FLOAT), huge.handle,
                      out.View({4, 6}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("overflows")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, RepeatInterleaveAlongADimAndFlattened) {
  DeviceArray<float> a(Iota(4));  // [[0, 1], [2, 3]]
  DeviceArray<float> out(std::vector<float>(8, -1));
  // llama.cpp's ROPE cache: each column twice along the last dim.
  ASSERT_EQ(ACLNN_RUN(stream_, RepeatInterleaveIntWithDim, a.View({2, 2}, ACL_FLOAT), 2, -1, 4,
                      out.View({2, 4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3}));
  // Rows of the transposed view twice along dim 0.
  ASSERT_EQ(ACLNN_RUN(stream_, RepeatInterleaveIntWithDim, a.View({2, 2}, ACL_FLOAT, {1, 2}), 2, 0,
                      4, out.View({4, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 2, 0, 2, 1, 3, 1, 3}));
  ASSERT_EQ(ACLNN_RUN(stream_, RepeatInterleaveInt, a.View({2, 2}, ACL_FLOAT), 2, 0,
                      out.View({8}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(ACLNN_RUN(stream_, RepeatInterleaveIntWithDim, a.View({2, 2}, ACL_FLOAT), -1, 0, 0,
                      out.View({2, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("must not be negative")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, RepeatInterleaveIntWithDim, a.View({2, 2}, ACL_FLOAT), INT64_MAX, 0,
                      0, out.View({2, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("overflows")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, ConstantPadNdPadsFromTheLastDimAndCrops) {
  DeviceArray<float> a(Iota(6, 1));  // [[1, 2, 3], [4, 5, 6]]
  DeviceArray<float> out(std::vector<float>(12, -1));
  IntArray pad({1, 2});
  Scalar<float> nine(9, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, ConstantPadNd, a.View({2, 3}, ACL_FLOAT), pad.handle, nine.handle,
                      out.View({2, 6}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{9, 1, 2, 3, 9, 9, 9, 4, 5, 6, 9, 9}));
  // Last dim (0, 1), first dim (-1, 0): row 0 cropped.
  IntArray crop({0, 1, -1, 0});
  DeviceArray<float> cropped(std::vector<float>(4, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, ConstantPadNd, a.View({2, 3}, ACL_FLOAT), crop.handle, nine.handle,
                      cropped.View({1, 4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(cropped.Read(), (std::vector<float>{4, 5, 6, 9}));
  IntArray odd({1, 2, 3});
  EXPECT_EQ(ACLNN_RUN(stream_, ConstantPadNd, a.View({2, 3}, ACL_FLOAT), odd.handle, nine.handle,
                      out.View({2, 6}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("even count")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, ConstantPadNd, a.View({2, 3}, ACL_FLOAT), pad.handle, nullptr,
                      out.View({2, 6}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnTest, GatherV2AndIndexSelect) {
  DeviceArray<float> a(Iota(12));  // [4, 3]
  DeviceArray<int64_t> idx({3, 0, 1, 1});
  DeviceArray<float> out(std::vector<float>(12, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, GatherV2, a.View({4, 3}, ACL_FLOAT), 0, idx.View({2, 2}, ACL_INT64),
                      out.View({2, 2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{9, 10, 11, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  DeviceArray<int32_t> cols({2, 0});
  DeviceArray<float> sel(std::vector<float>(8, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, IndexSelect, a.View({4, 3}, ACL_FLOAT), -1,
                      cols.View({2}, ACL_INT32), sel.View({4, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(sel.Read(), (std::vector<float>{2, 0, 5, 3, 8, 6, 11, 9}));
  EXPECT_EQ(ACLNN_RUN(stream_, IndexSelect, a.View({4, 3}, ACL_FLOAT), 0,
                      idx.View({2, 2}, ACL_INT64), out.View({2, 2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("0-D or 1-D")) << aclGetRecentErrMsg();
  DeviceArray<float> idx_f({0, 1});
  EXPECT_EQ(ACLNN_RUN(stream_, GatherV2, a.View({4, 3}, ACL_FLOAT), 0, idx_f.View({2}, ACL_FLOAT),
                      out.View({2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("int32 or int64")) << aclGetRecentErrMsg();
  // An index out of range fails the kernel on the stream, not the process; nothing is written.
  DeviceArray<int64_t> bad({7});
  DeviceArray<float> untouched(std::vector<float>(3, -1));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGatherV2GetWorkspaceSize(a.View({4, 3}, ACL_FLOAT), 0, bad.View({1}, ACL_INT64),
                                          untouched.View({1, 3}, ACL_FLOAT), &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(ws, 0U);
  const aclnnStatus launched = aclnnGatherV2(nullptr, 0, ex, stream_);
  const aclError synced = aclrtSynchronizeStream(stream_);
  EXPECT_TRUE(launched != ACLNN_SUCCESS || synced != ACL_SUCCESS);
  EXPECT_EQ(untouched.Read(), (std::vector<float>{-1, -1, -1}));
}

TEST_F(AclnnTest, ArangeIntegersExactlyAndFloats) {
  Scalar<int64_t> zero(0, ACL_INT64);
  Scalar<int64_t> ten(10, ACL_INT64);
  Scalar<int64_t> three(3, ACL_INT64);
  DeviceArray<int64_t> ints(std::vector<int64_t>(4, -1));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Arange, zero.handle, ten.handle, three.handle, ints.View({4}, ACL_INT64)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ints.Read(), (std::vector<int64_t>{0, 3, 6, 9}));
  Scalar<float> f0(1, ACL_FLOAT);
  Scalar<float> f1(0, ACL_FLOAT);
  Scalar<float> fs(-0.25F, ACL_FLOAT);
  DeviceArray<float> floats(std::vector<float>(4, -1));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Arange, f0.handle, f1.handle, fs.handle, floats.View({4}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(floats.Read(), (std::vector<float>{1, 0.75F, 0.5F, 0.25F}));
  EXPECT_EQ(
      ACLNN_RUN(stream_, Arange, zero.handle, ten.handle, three.handle, ints.View({3}, ACL_INT64)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("range has 4 values")) << aclGetRecentErrMsg();
  EXPECT_EQ(
      ACLNN_RUN(stream_, Arange, ten.handle, zero.handle, three.handle, ints.View({4}, ACL_INT64)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("signs must agree")) << aclGetRecentErrMsg();
  EXPECT_EQ(
      ACLNN_RUN(stream_, Arange, zero.handle, nullptr, three.handle, ints.View({4}, ACL_INT64)),
      ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
