// aclnn language-model operators through the public API: Tril / Triu (and in place),
// RmsNorm, RotaryPositionEmbedding, InplaceIndexCopy, on strided views, with their errors.
#include <cmath>

#include "aclnn_test.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::Iota;

TEST_F(AclnnTest, TrilTriuOutAndInPlace) {
  DeviceArray<float> a(Iota(9, 1));  // [[1,2,3],[4,5,6],[7,8,9]]
  DeviceArray<float> out(std::vector<float>(9, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Tril, a.View({3, 3}, ACL_FLOAT), 0, out.View({3, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  // Triu of the transposed view, diagonal 1.
  ASSERT_EQ(
      ACLNN_RUN(stream_, Triu, a.View({3, 3}, ACL_FLOAT, {1, 3}), 1, out.View({3, 3}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 4, 7, 0, 0, 8, 0, 0, 0}));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceTril, a.View({3, 3}, ACL_FLOAT), -1), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(a.Read(), (std::vector<float>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  EXPECT_EQ(ACLNN_RUN(stream_, InplaceTriu, a.View({9}, ACL_FLOAT), 0), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("at least 2 dims"), std::string::npos);
}

TEST_F(AclnnTest, RmsNormWithRstdAndStridedInput) {
  // x: the transpose of a [4, 2] buffer (rows [0,2,4,6] and [1,3,5,7]).
  DeviceArray<float> x(Iota(8));
  DeviceArray<float> gamma({1, 2, 1, 2});
  DeviceArray<float> y(std::vector<float>(8));
  DeviceArray<float> rstd(std::vector<float>(2));
  ASSERT_EQ(
      ACLNN_RUN(stream_, RmsNorm, x.View({2, 4}, ACL_FLOAT, {1, 2}), gamma.View({4}, ACL_FLOAT),
                1e-6, y.View({2, 4}, ACL_FLOAT), rstd.View({2, 1}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<std::vector<double>> rows = {{0, 2, 4, 6}, {1, 3, 5, 7}};
  const std::vector<float> got = y.Read();
  const std::vector<float> got_rstd = rstd.Read();
  const double g[4] = {1, 2, 1, 2};
  for (size_t r = 0; r < 2; ++r) {
    double squares = 0;
    for (double v : rows[r]) squares += v * v;
    const double inv = 1 / std::sqrt(squares / 4 + 1e-6);
    EXPECT_FLOAT_EQ(got_rstd[r], static_cast<float>(inv));
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_FLOAT_EQ(got[r * 4 + i], static_cast<float>(rows[r][i] * inv * g[i]));
    }
  }
  // rstdOut without gamma's dims, as llama.cpp passes it, holds the same values.
  DeviceArray<float> flat(std::vector<float>(2));
  ASSERT_EQ(
      ACLNN_RUN(stream_, RmsNorm, x.View({2, 4}, ACL_FLOAT, {1, 2}), gamma.View({4}, ACL_FLOAT),
                1e-6, y.View({2, 4}, ACL_FLOAT), flat.View({2}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(flat.Read(), got_rstd);
  // rstdOut of the wrong shape; gamma that is not x's trailing dims.
  EXPECT_EQ(ACLNN_RUN(stream_, RmsNorm, x.View({2, 4}, ACL_FLOAT), gamma.View({4}, ACL_FLOAT), 1e-6,
                      y.View({2, 4}, ACL_FLOAT), rstd.View({1, 2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rstdOut"), std::string::npos);
  EXPECT_EQ(ACLNN_RUN(stream_, RmsNorm, x.View({4, 2}, ACL_FLOAT), gamma.View({4}, ACL_FLOAT), 1e-6,
                      y.View({4, 2}, ACL_FLOAT), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("trailing dims"), std::string::npos);
}

TEST_F(AclnnTest, RotaryPositionEmbeddingHalfAndInterleave) {
  // x [1, 2, 1, 4] (B, S, N, D); cos/sin [1, 2, 1, 4]: position 0 identity, 1 pure rotation.
  DeviceArray<float> x(Iota(8, 1));
  DeviceArray<float> cos({1, 1, 1, 1, 0, 0, 0, 0});
  DeviceArray<float> sin({0, 0, 0, 0, 1, 1, 1, 1});
  DeviceArray<float> out(std::vector<float>(8));
  const std::vector<int64_t> dims = {1, 2, 1, 4};
  ASSERT_EQ(
      ACLNN_RUN(stream_, RotaryPositionEmbedding, x.View(dims, ACL_FLOAT),
                cos.View(dims, ACL_FLOAT), sin.View(dims, ACL_FLOAT), 0, out.View(dims, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 3, 4, -7, -8, 5, 6}));
  ASSERT_EQ(
      ACLNN_RUN(stream_, RotaryPositionEmbedding, x.View(dims, ACL_FLOAT),
                cos.View(dims, ACL_FLOAT), sin.View(dims, ACL_FLOAT), 1, out.View(dims, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 3, 4, -6, 5, -8, 7}));
  EXPECT_EQ(
      ACLNN_RUN(stream_, RotaryPositionEmbedding, x.View(dims, ACL_FLOAT),
                cos.View(dims, ACL_FLOAT), sin.View(dims, ACL_FLOAT), 2, out.View(dims, ACL_FLOAT)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("mode"), std::string::npos);
}

TEST_F(AclnnTest, InplaceIndexCopyRows) {
  DeviceArray<float> self(Iota(6));  // [3, 2]
  DeviceArray<int64_t> index({2, 0});
  DeviceArray<float> source({10, 11, 20, 21});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceIndexCopy, self.View({3, 2}, ACL_FLOAT), 0,
                      index.View({2}, ACL_INT64), source.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.Read(), (std::vector<float>{20, 21, 2, 3, 10, 11}));
  // Through a transposed selfRef: columns of the view are rows of the buffer.
  DeviceArray<int64_t> one({1});
  DeviceArray<float> column({7, 8});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceIndexCopy, self.View({2, 3}, ACL_FLOAT, {1, 2}), 1,
                      one.View({1}, ACL_INT64), column.View({2, 1}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.Read(), (std::vector<float>{20, 21, 7, 8, 10, 11}));
  // An index out of range is found on the device: the kernel fails and the stream reports it.
  DeviceArray<int64_t> bad({3});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnInplaceIndexCopyGetWorkspaceSize(self.View({3, 2}, ACL_FLOAT), 0,
                                                  bad.View({1}, ACL_INT64),
                                                  column.View({1, 2}, ACL_FLOAT), &ws, &ex),
            ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (ws > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(aclnnInplaceIndexCopy(workspace, ws, ex, stream_), ACLNN_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("out of range"), std::string::npos);
  if (workspace != nullptr) aclrtFree(workspace);
  EXPECT_EQ(self.Read(), (std::vector<float>{20, 21, 7, 8, 10, 11}));
  // A source of the wrong dtype is refused in the first phase.
  DeviceArray<int32_t> ints({1, 2});
  EXPECT_EQ(ACLNN_RUN(stream_, InplaceIndexCopy, self.View({3, 2}, ACL_FLOAT), 0,
                      one.View({1}, ACL_INT64), ints.View({1, 2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("source is"), std::string::npos);
}

}  // namespace
