// ScatterElements and TensorScatterUpdate / Add / Max / Min of the sim op library: values
// against the ONNX examples, reductions (duplicate indices combine), negative indices, shape
// errors and out-of-range indices (a failed run, never a crash).
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

RunResult ScatterElements(const std::vector<float>& data, const Ints& data_dims,
                          const std::vector<int64_t>& indices, const std::vector<float>& updates,
                          const Ints& idx_dims, int64_t axis,
                          const std::string& reduction = "none") {
  OpCall call = MakeCall("ScatterElements",
                         {Desc(DataType::kFloat, data_dims), Desc(DataType::kInt64, idx_dims),
                          Desc(DataType::kFloat, idx_dims)});
  call.attrs["axis"] = axis;
  call.attrs["reduction"] = reduction;
  return RunOp(call, {Bytes::Of(data), Bytes::Of(indices), Bytes::Of(updates)});
}

TEST(ScatterOps, ScatterElementsOnnxExamples) {
  // ONNX scatter_elements_with_axis: data [[1,2,3,4,5]], indices [[1,3]], updates [[1.1,2.1]].
  auto r = ScatterElements({1, 2, 3, 4, 5}, {1, 5}, {1, 3}, {1.1f, 2.1f}, {1, 2}, 1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1.1f, 3, 2.1f, 5}));
  // Negative index and "add" with a duplicate.
  r = ScatterElements({1, 2, 3, 4, 5}, {1, 5}, {-1, 1, 1}, {10, 20, 30}, {1, 3}, 1, "add");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 52, 3, 4, 15}));
  // axis 0 on [3, 2]: y[indices[i][j]][j] = updates[i][j].
  r = ScatterElements({0, 0, 0, 0, 0, 0}, {3, 2}, {2, 0}, {7, 8}, {1, 2}, 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 8, 0, 0, 7, 0}));
  r = ScatterElements({1, 2, 3}, {1, 3}, {0, 0}, {5, 4}, {1, 2}, 1, "mul");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{20, 2, 3}));
}

TEST(ScatterOps, ScatterElementsErrors) {
  auto r = ScatterElements({1, 2, 3}, {1, 3}, {3}, {1}, {1, 1}, 1);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam) << r.status.message();
  EXPECT_NE(r.status.message().find("out of range"), std::string::npos) << r.status.message();
  r = ScatterElements({1, 2, 3}, {1, 3}, {-4}, {1}, {1, 1}, 1);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam) << r.status.message();
  r = ScatterElements({1, 2, 3}, {1, 3}, {0}, {1}, {1, 1}, 2);
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = ScatterElements({1, 2, 3}, {1, 3}, {0}, {1}, {1, 1}, 1, "sub");
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  // indices and updates of different shapes.
  OpCall call = MakeCall(
      "ScatterElements",
      {Desc(DataType::kFloat, {3}), Desc(DataType::kInt32, {1}), Desc(DataType::kFloat, {2})});
  r = RunOp(call, {Bytes::Of(std::vector<float>{1, 2, 3}), Bytes::Of(std::vector<int32_t>{0}),
                   Bytes::Of(std::vector<float>{1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

TEST(ScatterOps, TensorScatterUpdate) {
  // ONNX scatternd example (slices): x [4, 2], indices [[1], [3]], updates [2, 2].
  OpCall call = MakeCall("TensorScatterUpdate",
                         {Desc(DataType::kFloat, {4, 2}), Desc(DataType::kInt32, {2, 1}),
                          Desc(DataType::kFloat, {2, 2})});
  auto r = RunOp(
      call, {Bytes::Of(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}),
             Bytes::Of(std::vector<int32_t>{1, 3}), Bytes::Of(std::vector<float>{10, 11, 12, 13})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 2, 10, 11, 5, 6, 12, 13}));
  // Element indices (K = rank).
  call = MakeCall("TensorScatterUpdate",
                  {Desc(DataType::kInt64, {2, 2}), Desc(DataType::kInt64, {1, 2}),
                   Desc(DataType::kInt64, {1})});
  r = RunOp(call, {Bytes::Of(std::vector<int64_t>{1, 2, 3, 4}),
                   Bytes::Of(std::vector<int64_t>{1, 0}), Bytes::Of(std::vector<int64_t>{9})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1, 2, 9, 4}));
}

TEST(ScatterOps, TensorScatterAddMaxMinCombineDuplicates) {
  // x [4], indices [[1], [1], [3]], updates [5, -2, 7].
  const std::vector<float> x = {1, 2, 3, 4};
  const std::vector<int64_t> idx = {1, 1, 3};
  const std::vector<float> updates = {5, -2, 7};
  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"TensorScatterAdd", {1, 5, 3, 11}},
      {"TensorScatterMax", {1, 5, 3, 7}},
      {"TensorScatterMin", {1, -2, 3, 4}}};
  for (const auto& [type, want] : cases) {
    OpCall call = MakeCall(type, {Desc(DataType::kFloat, {4}), Desc(DataType::kInt64, {3, 1}),
                                  Desc(DataType::kFloat, {3})});
    auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(idx), Bytes::Of(updates)});
    ASSERT_TRUE(r.status.ok()) << type << ": " << r.status.message();
    EXPECT_EQ(r.outputs[0].As<float>(), want) << type;
  }
  // Out of range: a failed run.
  OpCall call = MakeCall(
      "TensorScatterAdd",
      {Desc(DataType::kFloat, {4}), Desc(DataType::kInt64, {1, 1}), Desc(DataType::kFloat, {1})});
  auto r = RunOp(
      call, {Bytes::Of(x), Bytes::Of(std::vector<int64_t>{4}), Bytes::Of(std::vector<float>{1})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam) << r.status.message();
}

TEST(ScatterOps, TensorScatterUpdateErrors) {
  OpCall call = MakeCall("TensorScatterUpdate",
                         {Desc(DataType::kFloat, {4, 2}), Desc(DataType::kInt32, {1, 1}),
                          Desc(DataType::kFloat, {1, 2})});
  auto r = RunOp(call, {Bytes::Of(std::vector<float>(8, 0)), Bytes::Of(std::vector<int32_t>{4}),
                        Bytes::Of(std::vector<float>{1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam) << r.status.message();
  EXPECT_NE(r.status.message().find("out of range"), std::string::npos) << r.status.message();
  call = MakeCall("TensorScatterUpdate",
                  {Desc(DataType::kFloat, {4, 2}), Desc(DataType::kInt32, {1, 1}),
                   Desc(DataType::kFloat, {2})});
  r = RunOp(call, {Bytes::Of(std::vector<float>(8, 0)), Bytes::Of(std::vector<int32_t>{0}),
                   Bytes::Of(std::vector<float>{1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  call = MakeCall(
      "TensorScatterUpdate",
      {Desc(DataType::kFloat, {4}), Desc(DataType::kInt32, {1, 2}), Desc(DataType::kFloat, {1})});
  r = RunOp(call, {Bytes::Of(std::vector<float>(4, 0)), Bytes::Of(std::vector<int32_t>{0, 0}),
                   Bytes::Of(std::vector<float>{1})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
