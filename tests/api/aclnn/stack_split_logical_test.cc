// aclnn Stack, SplitTensor, SplitWithSize, Flip, Roll, Expand, SWhere, Addcmul, Addcdiv, Lerp
// and the logical operators (LogicalAnd
// / Or / Xor and the in-place forms) through the public API: new and negative dims, promotion,
// strided outputs, tensor-list outputs, broadcasting, non-bool operands, and the errors.
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::HasMessage;
using aclnntest::Ints;
using aclnntest::Iota;

TEST_F(AclnnTest, StackAlongNewAndLastDims) {
  DeviceArray<float> a(Iota(6)), out(std::vector<float>(12));
  DeviceArray<int32_t> b({10, 11, 12, 13, 14, 15});
  std::vector<aclTensor*> members = {a.UnownedView({2, 3}, ACL_FLOAT),
                                     b.UnownedView({2, 3}, ACL_INT32)};
  aclTensorList* list = aclCreateTensorList(members.data(), members.size());
  // dim 0: [2, 2, 3]; the int32 tensor promoted to float.
  ASSERT_EQ(ACLNN_RUN(stream_, Stack, list, 0, out.View({2, 2, 3}, ACL_FLOAT)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}));
  // dim -1: [2, 3, 2], element (i, j) pairs a and b.
  ASSERT_EQ(ACLNN_RUN(stream_, Stack, list, -1, out.View({2, 3, 2}, ACL_FLOAT)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}));
  // Errors: a wrong out shape, a dim out of range.
  EXPECT_EQ(ACLNN_RUN(stream_, Stack, list, 0, out.View({4, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Stack, list, 4, out.View({2, 2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensorList(list);
  // Tensors of different shapes.
  std::vector<aclTensor*> mixed = {a.UnownedView({2, 3}, ACL_FLOAT),
                                   a.UnownedView({3, 2}, ACL_FLOAT)};
  aclTensorList* bad = aclCreateTensorList(mixed.data(), mixed.size());
  EXPECT_EQ(ACLNN_RUN(stream_, Stack, bad, 0, out.View({2, 2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("tensors[1] has shape [3, 2]")) << aclGetRecentErrMsg();
  aclDestroyTensorList(bad);
}

TEST_F(AclnnTest, SplitTensorAndSplitWithSizeFillAnOutputList) {
  DeviceArray<float> x(Iota(10));  // [5, 2]
  DeviceArray<float> p0(std::vector<float>(4)), p1(std::vector<float>(4)),
      p2(std::vector<float>(2));
  // splitSections 2 along dim 0: [2, 2], [2, 2], [1, 2].
  std::vector<aclTensor*> parts = {p0.UnownedView({2, 2}, ACL_FLOAT),
                                   p1.UnownedView({2, 2}, ACL_FLOAT),
                                   p2.UnownedView({1, 2}, ACL_FLOAT)};
  aclTensorList* out = aclCreateTensorList(parts.data(), parts.size());
  ASSERT_EQ(ACLNN_RUN(stream_, SplitTensor, x.View({5, 2}, ACL_FLOAT), 2, 0, out), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(p0.Read(), (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(p1.Read(), (std::vector<float>{4, 5, 6, 7}));
  EXPECT_EQ(p2.Read(), (std::vector<float>{8, 9}));
  aclDestroyTensorList(out);
  // SplitWithSize {1, 1} along dim -1 of [5, 2]: columns.
  DeviceArray<float> c0(std::vector<float>(5)), c1(std::vector<float>(5));
  std::vector<aclTensor*> cols = {c0.UnownedView({5, 1}, ACL_FLOAT),
                                  c1.UnownedView({5, 1}, ACL_FLOAT)};
  aclTensorList* col_list = aclCreateTensorList(cols.data(), cols.size());
  aclIntArray* sizes = Ints({1, 1});
  ASSERT_EQ(ACLNN_RUN(stream_, SplitWithSize, x.View({5, 2}, ACL_FLOAT), sizes, -1, col_list),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(c0.Read(), (std::vector<float>{0, 2, 4, 6, 8}));
  EXPECT_EQ(c1.Read(), (std::vector<float>{1, 3, 5, 7, 9}));
  // Sizes that do not add up, and a list of the wrong length.
  aclIntArray* wrong = Ints({1, 2});
  EXPECT_EQ(ACLNN_RUN(stream_, SplitWithSize, x.View({5, 2}, ACL_FLOAT), wrong, 1, col_list),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("add up to 3")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, SplitTensor, x.View({5, 2}, ACL_FLOAT), 1, 0, col_list),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("gives 5 tensors but out holds 2")) << aclGetRecentErrMsg();
  aclDestroyIntArray(sizes);
  aclDestroyIntArray(wrong);
  aclDestroyTensorList(col_list);
}

TEST_F(AclnnTest, LogicalOperatorsReadOperandsAsBool) {
  DeviceArray<float> a({0, 2.5f, -1, 0});
  DeviceArray<int32_t> b({0, 7});  // [2, 1] broadcast against [2, 2]
  DeviceArray<uint8_t> out(std::vector<uint8_t>(4, 9));
  ASSERT_EQ(ACLNN_RUN(stream_, LogicalAnd, a.View({2, 2}, ACL_FLOAT), b.View({2, 1}, ACL_INT32),
                      out.View({2, 2}, ACL_BOOL)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<uint8_t>{0, 0, 1, 0}));
  ASSERT_EQ(ACLNN_RUN(stream_, LogicalOr, a.View({2, 2}, ACL_FLOAT), b.View({2, 1}, ACL_INT32),
                      out.View({2, 2}, ACL_BOOL)),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<uint8_t>{0, 1, 1, 1}));
  DeviceArray<float> xor_out(std::vector<float>(4));
  ASSERT_EQ(ACLNN_RUN(stream_, LogicalXor, a.View({2, 2}, ACL_FLOAT), b.View({2, 1}, ACL_INT32),
                      xor_out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(xor_out.Read(), (std::vector<float>{0, 1, 0, 1}));
  // In place: the bool result cast back into selfRef's dtype.
  DeviceArray<float> self({0, 3, 4, 0});
  DeviceArray<uint8_t> mask({1, 0, 1, 0});
  ASSERT_EQ(
      ACLNN_RUN(stream_, InplaceLogicalAnd, self.View({4}, ACL_FLOAT), mask.View({4}, ACL_BOOL)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.Read(), (std::vector<float>{0, 0, 1, 0}));
  ASSERT_EQ(
      ACLNN_RUN(stream_, InplaceLogicalOr, self.View({4}, ACL_FLOAT), mask.View({4}, ACL_BOOL)),
      ACLNN_SUCCESS);
  EXPECT_EQ(self.Read(), (std::vector<float>{1, 0, 1, 0}));
  // Errors: shapes that do not broadcast; an in-place result larger than selfRef.
  EXPECT_EQ(ACLNN_RUN(stream_, LogicalAnd, a.View({4}, ACL_FLOAT), b.View({2}, ACL_INT32),
                      out.View({4}, ACL_BOOL)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      ACLNN_RUN(stream_, InplaceLogicalOr, self.View({1}, ACL_FLOAT), mask.View({4}, ACL_BOOL)),
      ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, FlipRollAndExpand) {
  DeviceArray<float> x(Iota(6)), out(std::vector<float>(6));  // [2, 3]
  aclIntArray* both = Ints({0, -1});
  ASSERT_EQ(ACLNN_RUN(stream_, Flip, x.View({2, 3}, ACL_FLOAT), both, out.View({2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{5, 4, 3, 2, 1, 0}));
  // Roll: by 1 along dim 1, then the flattened tensor by -2.
  aclIntArray* one = Ints({1});
  aclIntArray* dim1 = Ints({1});
  ASSERT_EQ(
      ACLNN_RUN(stream_, Roll, x.View({2, 3}, ACL_FLOAT), one, dim1, out.View({2, 3}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{2, 0, 1, 5, 3, 4}));
  aclIntArray* minus2 = Ints({-2});
  aclIntArray* none = Ints({});
  ASSERT_EQ(ACLNN_RUN(stream_, Roll, x.View({2, 3}, ACL_FLOAT), minus2, none,
                      out.View({2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{2, 3, 4, 5, 0, 1}));
  // Expand [3, 1] to [2, 3, 4] (a new leading dim, -1 keeps 3).
  DeviceArray<int32_t> col({7, 8, 9}), wide(std::vector<int32_t>(24));
  aclIntArray* size = Ints({2, -1, 4});
  ASSERT_EQ(ACLNN_RUN(stream_, Expand, col.View({3, 1}, ACL_INT32), size,
                      wide.View({2, 3, 4}, ACL_INT32)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = wide.Read();
  for (int i = 0; i < 24; ++i) EXPECT_EQ(got[i], 7 + (i / 4) % 3) << i;
  // Errors: a dim twice, shifts and dims of different lengths, a size that does not fit.
  aclIntArray* twice = Ints({1, -1});
  EXPECT_EQ(ACLNN_RUN(stream_, Flip, x.View({2, 3}, ACL_FLOAT), twice, out.View({2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      ACLNN_RUN(stream_, Roll, x.View({2, 3}, ACL_FLOAT), one, both, out.View({2, 3}, ACL_FLOAT)),
      ACLNN_ERR_PARAM_INVALID);
  aclIntArray* bad = Ints({2, 1});  // dim 0 is 3, not 1
  EXPECT_EQ(
      ACLNN_RUN(stream_, Expand, col.View({3, 1}, ACL_INT32), bad, wide.View({2, 1}, ACL_INT32)),
      ACLNN_ERR_PARAM_INVALID);
  for (aclIntArray* a : {both, one, dim1, minus2, none, size, twice, bad}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, SWhereAddcmulAddcdivAndLerp) {
  // SWhere: a [2, 1] uint8 condition, an f32 [2, 2] self, an int32 [2] other (promoted).
  DeviceArray<uint8_t> cond({1, 0});
  DeviceArray<float> self({1, 2, 3, 4}), out(std::vector<float>(4));
  DeviceArray<int32_t> other({-1, -2});
  ASSERT_EQ(ACLNN_RUN(stream_, SWhere, cond.View({2, 1}, ACL_UINT8), self.View({2, 2}, ACL_FLOAT),
                      other.View({2}, ACL_INT32), out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, -1, -2}));
  // Addcmul / Addcdiv: self + 0.5 * t1 (op) t2, t2 broadcast.
  DeviceArray<float> t1({2, 4, 6, 8}), t2({2, 4});
  float half_value = 0.5f;
  aclScalar* half = aclCreateScalar(&half_value, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, Addcmul, self.View({2, 2}, ACL_FLOAT), t1.View({2, 2}, ACL_FLOAT),
                      t2.View({2}, ACL_FLOAT), half, out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{3, 10, 9, 20}));
  ASSERT_EQ(ACLNN_RUN(stream_, Addcdiv, self.View({2, 2}, ACL_FLOAT), t1.View({2, 2}, ACL_FLOAT),
                      t2.View({2}, ACL_FLOAT), half, out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<float>{1.5f, 2.5f, 4.5f, 5}));
  // In place and Lerp (weight broadcast): self + w * (end - self).
  DeviceArray<float> acc({1, 1, 1, 1});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceAddcmul, acc.View({2, 2}, ACL_FLOAT),
                      t1.View({2, 2}, ACL_FLOAT), t2.View({2}, ACL_FLOAT), half),
            ACLNN_SUCCESS);
  EXPECT_EQ(acc.Read(), (std::vector<float>{3, 9, 7, 17}));
  DeviceArray<float> end({11, 12, 13, 14}), w({0.5f, 0.25f});
  ASSERT_EQ(ACLNN_RUN(stream_, Lerp, self.View({2, 2}, ACL_FLOAT), end.View({2, 2}, ACL_FLOAT),
                      w.View({2}, ACL_FLOAT), out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{6, 4.5f, 8, 6.5f}));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceLerp, acc.View({2, 2}, ACL_FLOAT),
                      end.View({2, 2}, ACL_FLOAT), w.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(acc.Read(), (std::vector<float>{7, 9.75f, 10, 16.25f}));
  // Errors: a float condition, integer division, a NULL value, shapes that do not broadcast.
  EXPECT_EQ(ACLNN_RUN(stream_, SWhere, self.View({2, 2}, ACL_FLOAT), self.View({2, 2}, ACL_FLOAT),
                      other.View({2}, ACL_INT32), out.View({2, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  DeviceArray<int32_t> ints({1, 2, 3, 4}), iout(std::vector<int32_t>(4));
  EXPECT_EQ(ACLNN_RUN(stream_, Addcdiv, ints.View({4}, ACL_INT32), ints.View({4}, ACL_INT32),
                      ints.View({4}, ACL_INT32), half, iout.View({4}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Addcmul, self.View({2, 2}, ACL_FLOAT), t1.View({2, 2}, ACL_FLOAT),
                      t2.View({2}, ACL_FLOAT), nullptr, out.View({2, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(ACLNN_RUN(stream_, Lerp, self.View({4}, ACL_FLOAT), end.View({2, 2}, ACL_FLOAT),
                      w.View({3}, ACL_FLOAT, {}, 0), out.View({2, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyScalar(half);
}

}  // namespace
