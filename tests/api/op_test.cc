// Single-op API (acl_op.h, acl_op_compiler.h, tensor descriptors) as a program uses it.
#include <cmath>
#include <numeric>

#include "acl/acl_op_compiler.h"
#include "api_test.h"
#include "op_fixture.h"

namespace {

using OpTest = acltest::OpFixture;

TEST_F(OpTest, TensorDescriptorReportsWhatWasSet) {
  aclTensorDesc* d = Desc(ACL_FLOAT16, {2, 3, 4}, ACL_FORMAT_NCHW);
  EXPECT_EQ(aclGetTensorDescType(d), ACL_FLOAT16);
  EXPECT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclGetTensorDescNumDims(d), 3u);
  EXPECT_EQ(aclGetTensorDescElementCount(d), 24u);
  EXPECT_EQ(aclGetTensorDescSize(d), 48u);
  int64_t dim = 0;
  EXPECT_ACL_OK(aclGetTensorDescDimV2(d, 2, &dim));
  EXPECT_EQ(dim, 4);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetTensorDescDimV2, d, 3, &dim);
  aclSetTensorDescName(d, "x");
  EXPECT_STREQ(aclGetTensorDescName(d), "x");
  int64_t range[2][2] = {{1, 8}, {3, 3}};
  EXPECT_ACL_OK(aclSetTensorShapeRange(d, 2, range));
  int64_t got[2] = {0, 0};
  EXPECT_ACL_OK(aclGetTensorDescDimRange(d, 0, 2, got));
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[1], 8);
  EXPECT_ACL_OK(aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorPlaceMent, d, static_cast<aclMemType>(7));
}

TEST_F(OpTest, TransTensorDescFormatGivesTheBlockedShape) {
  aclTensorDesc* d = Desc(ACL_FLOAT16, {1, 20, 5, 5}, ACL_FORMAT_NCHW);
  aclTensorDesc* nc1hwc0 = nullptr;
  ASSERT_ACL_OK(aclTransTensorDescFormat(d, ACL_FORMAT_NC1HWC0, &nc1hwc0));
  descs_.push_back(nc1hwc0);
  // storage: [1, 2, 5, 5, 16] fp16
  EXPECT_EQ(aclGetTensorDescElementCount(nc1hwc0), 500u);  // logical
  aclTensorDesc* bad = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_FORMAT_NOT_MATCH, aclTransTensorDescFormat, d, ACL_FORMAT_NDC1HWC0,
                 &bad);
}

TEST_F(OpTest, BadDescriptorArgumentsFail) {
  int64_t dims[2] = {2, -3};
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclCreateTensorDesc);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclCreateTensorDesc);
  EXPECT_EQ(aclCreateTensorDesc(static_cast<aclDataType>(99), 0, nullptr, ACL_FORMAT_ND), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclCreateTensorDesc);
  EXPECT_EQ(aclGetTensorDescType(nullptr), ACL_DT_UNDEFINED);
  EXPECT_RECENT_ERROR_NAMES(aclGetTensorDescType);
}

// One value range per element: a count past the elements of a known shape is refused before
// the array is read.
TEST_F(OpTest, ValueRangeCountBeyondTheElementsIsInvalid) {
  aclTensorDesc* desc = Desc(ACL_INT64, {2});
  int64_t ranges[2][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 4}, {1, 8}};
  EXPECT_ACL_OK(aclSetTensorValueRange(desc, 2, ranges));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorValueRange, desc, 3, ranges);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetTensorValueRange, desc, SIZE_MAX, ranges);
}

// As aclopCreateHandle, the cast handle needs the runtime.
TEST(OpNoInitTest, CreateHandleForCastBeforeInitIsUninitialize) {
  const int64_t dims[1] = {4};
  aclTensorDesc* src = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclTensorDesc* dst = aclCreateTensorDesc(ACL_FLOAT16, 1, dims, ACL_FORMAT_ND);
  aclopHandle* handle = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclopCreateHandleForCast, src, dst, 0, &handle);
  EXPECT_EQ(handle, nullptr);
  aclDestroyTensorDesc(src);
  aclDestroyTensorDesc(dst);
}

TEST_F(OpTest, AttributesOfEveryKind) {
  aclopAttr* a = Attr();
  ASSERT_NE(a, nullptr);
  EXPECT_ACL_OK(aclopSetAttrBool(a, "b", 1));
  EXPECT_ACL_OK(aclopSetAttrInt(a, "i", -3));
  EXPECT_ACL_OK(aclopSetAttrFloat(a, "f", 0.5f));
  EXPECT_ACL_OK(aclopSetAttrString(a, "s", "NCHW"));
  EXPECT_ACL_OK(aclopSetAttrDataType(a, "t", ACL_INT64));
  const aclDataType types[2] = {ACL_FLOAT, ACL_INT8};
  EXPECT_ACL_OK(aclopSetAttrListDataType(a, "lt", 2, types));
  const uint8_t bools[2] = {1, 0};
  EXPECT_ACL_OK(aclopSetAttrListBool(a, "lb", 2, bools));
  const int64_t ints[3] = {1, 2, 3};
  EXPECT_ACL_OK(aclopSetAttrListInt(a, "li", 3, ints));
  const float floats[1] = {1.5f};
  EXPECT_ACL_OK(aclopSetAttrListFloat(a, "lf", 1, floats));
  const char* strings[2] = {"a", "b"};
  EXPECT_ACL_OK(aclopSetAttrListString(a, "ls", 2, strings));
  const int counts[2] = {2, 1};
  const int64_t l0[2] = {1, 2};
  const int64_t l1[1] = {3};
  const int64_t* lists[2] = {l0, l1};
  EXPECT_ACL_OK(aclopSetAttrListListInt(a, "lli", 2, counts, lists));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetAttrInt, a, nullptr, 1);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetAttrListInt, a, "x", 2, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetAttrInt, nullptr, "x", 1);
}

TEST_F(OpTest, AddInt32WithExecuteV2) {
  aclTensorDesc* in[2] = {Desc(ACL_INT32, {2, 3}), Desc(ACL_INT32, {3})};
  aclTensorDesc* out[1] = {Desc(ACL_INT32, {2, 3})};
  aclDataBuffer* a[2] = {Device<int32_t>({1, 2, 3, 4, 5, 6}), Device<int32_t>({10, 20, 30})};
  aclDataBuffer* y[1] = {Device<int32_t>({}, 24)};
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<int32_t>(y[0]), (std::vector<int32_t>{11, 22, 33, 14, 25, 36}));
}

// Repeated calls with the same descriptor and attribute objects follow every change made to
// them between calls (the runtime remembers recent calls; it must notice).
TEST_F(OpTest, RepeatedCallsFollowDescriptorAndAttributeChanges) {
  aclTensorDesc* in[2] = {Desc(ACL_INT32, {6}), Desc(ACL_INT32, {6})};
  aclTensorDesc* out[1] = {Desc(ACL_INT32, {6})};
  aclDataBuffer* a[2] = {Device<int32_t>({1, 2, 3, 4, 5, 6}),
                         Device<int32_t>({10, 20, 30, 40, 50, 60})};
  aclDataBuffer* y[1] = {Device<int32_t>({}, 24)};
  for (int i = 0; i < 3; ++i)
    ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<int32_t>(y[0]), (std::vector<int32_t>{11, 22, 33, 44, 55, 66}));
  const int64_t matrix[2] = {2, 3};
  const int64_t row[1] = {3};
  ASSERT_ACL_OK(aclSetTensorOriginShape(in[0], 2, matrix));
  ASSERT_ACL_OK(aclSetTensorOriginShape(in[1], 1, row));
  ASSERT_ACL_OK(aclSetTensorOriginShape(out[0], 2, matrix));
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<int32_t>(y[0]), (std::vector<int32_t>{11, 22, 33, 14, 25, 36}));
  ASSERT_ACL_OK(aclopExecuteV2("Sub", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<int32_t>(y[0]), (std::vector<int32_t>{-9, -18, -27, -6, -15, -24}));

  aclTensorDesc* x[1] = {Desc(ACL_FLOAT, {2})};
  aclTensorDesc* z[1] = {Desc(ACL_FLOAT, {2})};
  aclDataBuffer* xb[1] = {Device<float>({-2.0f, 4.0f})};
  aclDataBuffer* zb[1] = {Device<float>({}, 8)};
  ASSERT_ACL_OK(aclopSetAttrFloat(Attr(), "negative_slope", 0.25f));
  ASSERT_ACL_OK(aclopExecuteV2("LeakyRelu", 1, x, xb, 1, z, zb, Attr(), stream_));
  EXPECT_EQ(Read<float>(zb[0]), (std::vector<float>{-0.5f, 4.0f}));
  ASSERT_ACL_OK(aclopSetAttrFloat(Attr(), "negative_slope", 0.5f));
  ASSERT_ACL_OK(aclopExecuteV2("LeakyRelu", 1, x, xb, 1, z, zb, Attr(), stream_));
  EXPECT_EQ(Read<float>(zb[0]), (std::vector<float>{-1.0f, 4.0f}));
  aclSetTensorDescName(x[0], "renamed");  // names are part of the call too
  ASSERT_ACL_OK(aclopExecuteV2("LeakyRelu", 1, x, xb, 1, z, zb, Attr(), stream_));
  EXPECT_EQ(Read<float>(zb[0]), (std::vector<float>{-1.0f, 4.0f}));
}

TEST_F(OpTest, AddFp16CompileAndExecuteThenCompiledExecuteV2) {
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT16, {4}), Desc(ACL_FLOAT16, {4})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT16, {4})};
  aclDataBuffer* a[2] = {Device(Half({1, 2, 3, 4})), Device(Half({0.5f, 0.25f, -3, 100}))};
  aclDataBuffer* y[1] = {Device<aclFloat16>({}, 8)};
  ASSERT_ACL_OK(aclopCompileAndExecute("Add", 2, in, a, 1, out, y, nullptr, ACL_ENGINE_SYS,
                                       ACL_COMPILE_SYS, nullptr, stream_));
  auto got = Read<aclFloat16>(y[0]);
  EXPECT_EQ(aclFloat16ToFloat(got[0]), 1.5f);
  EXPECT_EQ(aclFloat16ToFloat(got[3]), 104.0f);
  ASSERT_ACL_OK(
      aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  got = Read<aclFloat16>(y[0]);
  EXPECT_EQ(aclFloat16ToFloat(got[1]), 2.25f);
}

TEST_F(OpTest, MatMulWithTransposeX2) {
  // x1 [2, 3], x2 stored [4, 3] (transpose_x2): y = x1 x x2^T, [2, 4].
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {2, 3}), Desc(ACL_FLOAT, {4, 3})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2, 4})};
  std::vector<float> x1 = {1, 2, 3, 4, 5, 6};
  std::vector<float> x2 = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  aclDataBuffer* a[2] = {Device(x1), Device(x2)};
  aclDataBuffer* y[1] = {Device<float>({}, 32)};
  ASSERT_ACL_OK(aclopSetAttrBool(Attr(), "transpose_x2", 1));
  ASSERT_ACL_OK(aclopExecuteV2("MatMul", 2, in, a, 1, out, y, Attr(), stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{1, 2, 3, 6, 4, 5, 6, 15}));
}

TEST_F(OpTest, CastFloatToFloat16) {
  aclTensorDesc* src = Desc(ACL_FLOAT, {3});
  aclTensorDesc* dst = Desc(ACL_FLOAT16, {3});
  aclDataBuffer* x = Device<float>({1.0f, -2.5f, 65504.0f});
  aclDataBuffer* y = Device<aclFloat16>({}, 6);
  ASSERT_ACL_OK(aclopCast(src, x, dst, y, 0, stream_));
  auto got = Read<aclFloat16>(y);
  EXPECT_EQ(aclFloat16ToFloat(got[0]), 1.0f);
  EXPECT_EQ(aclFloat16ToFloat(got[1]), -2.5f);
  EXPECT_EQ(aclFloat16ToFloat(got[2]), 65504.0f);
}

TEST_F(OpTest, SoftmaxV2OverTheLastAxis) {
  aclTensorDesc* in[1] = {Desc(ACL_FLOAT, {2, 3})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2, 3})};
  aclDataBuffer* x[1] = {Device<float>({1, 2, 3, 0, 0, 0})};
  aclDataBuffer* y[1] = {Device<float>({}, 24)};
  const int64_t axes[1] = {-1};
  ASSERT_ACL_OK(aclopSetAttrListInt(Attr(), "axes", 1, axes));
  ASSERT_ACL_OK(aclopExecuteV2("SoftmaxV2", 1, in, x, 1, out, y, Attr(), stream_));
  auto got = Read<float>(y[0]);
  const float e = std::exp(1.0f);
  const float s = 1 + e + e * e;
  EXPECT_NEAR(got[0], 1 / s, 1e-6);
  EXPECT_NEAR(got[2], e * e / s, 1e-6);
  EXPECT_NEAR(got[4], 1.0f / 3, 1e-6);
}

TEST_F(OpTest, UnknownOpTypeIsOpTypeNotMatch) {
  aclTensorDesc* in[1] = {Desc(ACL_FLOAT, {2})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2})};
  aclDataBuffer* x[1] = {Device<float>({1, 2})};
  aclDataBuffer* y[1] = {Device<float>({}, 8)};
  EXPECT_ACL_ERR(ACL_ERROR_OP_TYPE_NOT_MATCH, aclopExecuteV2, "NoSuchOp", 1, in, x, 1, out, y,
                 nullptr, stream_);
}

TEST_F(OpTest, MismatchedShapesAreOpInputNotMatch) {
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {2, 3}), Desc(ACL_FLOAT, {4})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2, 3})};
  aclDataBuffer* a[2] = {Device<float>({}, 24), Device<float>({}, 16)};
  aclDataBuffer* y[1] = {Device<float>({}, 24)};
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclopCompileAndExecute("Add", 2, in, a, 1, out, y, nullptr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream_),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
  const std::string msg = acltest::TakeRecentErrors();
  EXPECT_NE(msg.find("Add"), std::string::npos) << msg;
  EXPECT_NE(msg.find("x2"), std::string::npos) << msg;
}

TEST_F(OpTest, ShortOutputBufferIsRefused) {
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {4}), Desc(ACL_FLOAT, {4})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {4})};
  aclDataBuffer* a[2] = {Device<float>({}, 16), Device<float>({}, 16)};
  aclDataBuffer* y[1] = {Device<float>({}, 8)};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2, "Add", 2, in, a, 1, out, y, nullptr,
                 stream_);
}

TEST_F(OpTest, HostBufferWithoutHostPlacementIsRefused) {
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {2}), Desc(ACL_FLOAT, {2})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2})};
  float host[2] = {1, 2};
  aclDataBuffer* hb = aclCreateDataBuffer(host, sizeof(host));
  buffers_.push_back(hb);
  aclDataBuffer* a[2] = {hb, Device<float>({}, 8)};
  aclDataBuffer* y[1] = {Device<float>({}, 8)};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2, "Add", 2, in, a, 1, out, y, nullptr,
                 stream_);
  // With host placement it is read when the op is launched.
  ASSERT_ACL_OK(aclSetTensorPlaceMent(in[0], ACL_MEMTYPE_HOST));
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  host[0] = 100;  // too late to matter
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{1, 2}));
}

TEST_F(OpTest, ConstantHostInputForTranspose) {
  aclTensorDesc* x = Desc(ACL_FLOAT, {2, 3});
  aclTensorDesc* perm = Desc(ACL_INT64, {2});
  int64_t perm_values[2] = {1, 0};
  ASSERT_ACL_OK(aclSetTensorConst(perm, perm_values, sizeof(perm_values)));
  ASSERT_ACL_OK(aclSetTensorPlaceMent(perm, ACL_MEMTYPE_HOST));
  aclTensorDesc* in[2] = {x, perm};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {3, 2})};
  aclDataBuffer* perm_buffer = aclCreateDataBuffer(perm_values, sizeof(perm_values));
  buffers_.push_back(perm_buffer);
  aclDataBuffer* a[2] = {Device<float>({1, 2, 3, 4, 5, 6}), perm_buffer};
  aclDataBuffer* y[1] = {Device<float>({}, 24)};
  ASSERT_ACL_OK(aclopExecuteV2("Transpose", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST_F(OpTest, DeviceValueInputIsReadAfterTheStreamCatchesUp) {
  // perm lives in device memory, written by an async copy queued just before the op.
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {2, 3}), Desc(ACL_INT32, {2})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {3, 2})};
  aclDataBuffer* perm = Device<int32_t>({0, 1});
  static const int32_t kPerm[2] = {1, 0};
  acltest::PinnedHost pinned_perm(kPerm, sizeof(kPerm));
  ASSERT_ACL_OK(aclrtMemcpyAsync(aclGetDataBufferAddr(perm), 8, kPerm, 8, ACL_MEMCPY_HOST_TO_DEVICE,
                                 stream_));
  aclDataBuffer* a[2] = {Device<float>({1, 2, 3, 4, 5, 6}), perm};
  aclDataBuffer* y[1] = {Device<float>({}, 24)};
  ASSERT_ACL_OK(aclopExecuteV2("Transpose", 2, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST_F(OpTest, HandleRunsTheSameOpWithNewBuffers) {
  const aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {2}), Desc(ACL_FLOAT, {2})};
  const aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2})};
  aclopHandle* handle = nullptr;
  ASSERT_ACL_OK(aclopCreateHandle("Mul", 2, in, 1, out, nullptr, &handle));
  aclDataBuffer* a[2] = {Device<float>({2, 3}), Device<float>({4, 5})};
  aclDataBuffer* y[1] = {Device<float>({}, 8)};
  ASSERT_ACL_OK(aclopExecWithHandle(handle, 2, a, 1, y, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{8, 15}));
  EXPECT_ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, aclopExecWithHandle, handle, 1, a, 1, y, stream_);
  aclopDestroyHandle(handle);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclopExecWithHandle, handle, 2, a, 1, y, stream_);
}

TEST_F(OpTest, InferShapeFillsOutputDescriptors) {
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {4, 1, 3}), Desc(ACL_FLOAT, {5, 1})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {})};
  ASSERT_ACL_OK(aclopInferShape("Add", 2, in, nullptr, 1, out, nullptr));
  ASSERT_EQ(aclGetTensorDescNumDims(out[0]), 3u);
  EXPECT_EQ(aclGetTensorDescDim(out[0], 0), 4);
  EXPECT_EQ(aclGetTensorDescDim(out[0], 1), 5);
  EXPECT_EQ(aclGetTensorDescDim(out[0], 2), 3);
}

TEST_F(OpTest, CompileWithUnknownDimsThenExecuteConcreteShapes) {
  const int64_t dynamic[1] = {-1};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 1, dynamic, ACL_FORMAT_ND);
  descs_.push_back(d);
  const aclTensorDesc* in[2] = {d, d};
  const aclTensorDesc* out[1] = {d};
  ASSERT_ACL_OK(
      aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  for (int n : {3, 5}) {
    aclTensorDesc* cin[2] = {Desc(ACL_FLOAT, {n}), Desc(ACL_FLOAT, {n})};
    aclTensorDesc* cout[1] = {Desc(ACL_FLOAT, {n})};
    std::vector<float> ones(static_cast<size_t>(n), 1.0f);
    aclDataBuffer* a[2] = {Device(ones), Device(ones)};
    aclDataBuffer* y[1] = {Device<float>({}, static_cast<size_t>(n) * 4)};
    ASSERT_ACL_OK(aclopExecuteV2("Add", 2, cin, a, 1, cout, y, nullptr, stream_));
    EXPECT_EQ(Read<float>(y[0]), std::vector<float>(static_cast<size_t>(n), 2.0f));
  }
}

TEST_F(OpTest, MissingRequiredAttributeIsOpAttrNotMatch) {
  aclTensorDesc* in[1] = {Desc(ACL_FLOAT, {2})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT16, {2})};
  aclDataBuffer* x[1] = {Device<float>({1, 2})};
  aclDataBuffer* y[1] = {Device<aclFloat16>({}, 4)};
  EXPECT_ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, aclopExecuteV2, "Cast", 1, in, x, 1, out, y, nullptr,
                 stream_);
}

TEST_F(OpTest, OptionalInputPlaceholderIsAccepted) {
  // MatMul(x1, x2, bias?) with an undefined-type placeholder for bias.
  aclTensorDesc* in[3] = {Desc(ACL_FLOAT, {1, 2}), Desc(ACL_FLOAT, {2, 1}),
                          aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED)};
  descs_.push_back(in[2]);
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {1, 1})};
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  buffers_.push_back(empty);
  aclDataBuffer* a[3] = {Device<float>({2, 3}), Device<float>({4, 5}), empty};
  aclDataBuffer* y[1] = {Device<float>({}, 4)};
  ASSERT_ACL_OK(aclopExecuteV2("MatMul", 3, in, a, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{23}));
}

TEST_F(OpTest, CompileOptionsRoundTrip) {
  ASSERT_ACL_OK(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"));
  const size_t size = aclGetCompileoptSize(ACL_PRECISION_MODE);
  ASSERT_EQ(size, sizeof("allow_fp32_to_fp16"));
  std::vector<char> value(size);
  ASSERT_ACL_OK(aclGetCompileopt(ACL_PRECISION_MODE, value.data(), value.size()));
  EXPECT_STREQ(value.data(), "allow_fp32_to_fp16");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCompileopt, ACL_PRECISION_MODE, value.data(), 3);
  EXPECT_ACL_OK(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetCompileFlag, static_cast<aclOpCompileFlag>(5));
}

TEST_F(OpTest, OpTakesSimulatedTimeOnTheStream) {
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&start));
  ASSERT_ACL_OK(aclrtCreateEvent(&end));
  const int64_t n = 1 << 20;
  aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {n}), Desc(ACL_FLOAT, {n})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {n})};
  aclDataBuffer* a[2] = {Device<float>({}, n * 4), Device<float>({}, n * 4)};
  aclDataBuffer* y[1] = {Device<float>({}, n * 4)};
  // Compile first: an online compile costs simulated host time before the launch.
  ASSERT_ACL_OK(
      aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  ASSERT_ACL_OK(aclrtRecordEvent(start, stream_));
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, a, 1, out, y, nullptr, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(end, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  float ms = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  // 12 MiB through HBM at ~1.6 TB/s: several microseconds, well under a millisecond.
  EXPECT_GT(ms, 0.003f);
  EXPECT_LT(ms, 0.5f);
  EXPECT_ACL_OK(aclrtDestroyEvent(start));
  EXPECT_ACL_OK(aclrtDestroyEvent(end));
}

}  // namespace

namespace {

TEST(CannAttributes, Ascend910B2SupportsAllThree) {
  ASSERT_ACL_OK(aclInit(nullptr));
  const aclCannAttr* list = nullptr;
  size_t num = 0;
  ASSERT_ACL_OK(aclGetCannAttributeList(&list, &num));
  EXPECT_EQ(num, 3u);
  int32_t value = -1;
  ASSERT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &value));
  EXPECT_EQ(value, 1);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute, static_cast<aclCannAttr>(9), &value);
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(OpTest, UnknownRankCompilesThenRunsConcreteShapes) {
  const int64_t unknown_rank[1] = {-2};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 1, unknown_rank, ACL_FORMAT_ND);
  ASSERT_NE(d, nullptr);
  descs_.push_back(d);
  EXPECT_EQ(aclGetTensorDescNumDims(d), static_cast<size_t>(ACL_UNKNOWN_RANK));
  const aclTensorDesc* in[1] = {d};
  const aclTensorDesc* out[1] = {d};
  ASSERT_ACL_OK(
      aclopCompile("Relu", 1, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  aclTensorDesc* cin[1] = {Desc(ACL_FLOAT, {2, 2})};
  aclTensorDesc* cout[1] = {Desc(ACL_FLOAT, {2, 2})};
  aclDataBuffer* x[1] = {Device<float>({-1, 2, -3, 4})};
  aclDataBuffer* y[1] = {Device<float>({}, 16)};
  ASSERT_ACL_OK(aclopExecuteV2("Relu", 1, cin, x, 1, cout, y, nullptr, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{0, 2, 0, 4}));
}

TEST_F(OpTest, NonZeroUpdatesTheOutputDescriptor) {
  aclTensorDesc* in[1] = {Desc(ACL_FLOAT, {2, 3})};
  aclTensorDesc* out[1] = {Desc(ACL_INT64, {6, 2})};  // the largest possible shape
  aclDataBuffer* x[1] = {Device<float>({0, 1, 0, 2, 0, 3})};
  aclDataBuffer* y[1] = {Device<int64_t>({}, 6 * 2 * 8)};
  ASSERT_ACL_OK(aclopExecuteV2("NonZero", 1, in, x, 1, out, y, nullptr, stream_));
  ASSERT_EQ(aclGetTensorDescNumDims(out[0]), 2u);
  EXPECT_EQ(aclGetTensorDescDim(out[0], 0), 3);
  EXPECT_EQ(aclGetTensorDescDim(out[0], 1), 2);
  auto got = Read<int64_t>(y[0]);
  EXPECT_EQ(std::vector<int64_t>(got.begin(), got.begin() + 6),
            (std::vector<int64_t>{0, 1, 1, 0, 1, 2}));
}

TEST_F(OpTest, OutOfRangeGatherIndexFailsTheTaskNotTheProcess) {
  aclTensorDesc* in[3] = {Desc(ACL_FLOAT, {3}), Desc(ACL_INT32, {2}), Desc(ACL_INT32, {})};
  int32_t axis = 0;
  ASSERT_ACL_OK(aclSetTensorConst(in[2], &axis, sizeof(axis)));
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {2})};
  aclDataBuffer* axis_buffer = aclCreateDataBuffer(nullptr, 0);
  buffers_.push_back(axis_buffer);
  aclDataBuffer* a[3] = {Device<float>({1, 2, 3}), Device<int32_t>({0, 7}), axis_buffer};
  aclDataBuffer* y[1] = {Device<float>({}, 8)};
  ASSERT_ACL_OK(aclopExecuteV2("GatherV2", 3, in, a, 1, out, y, nullptr, stream_));
  acltest::ClearRecentErrors();
  const aclError err = aclrtSynchronizeStream(stream_);
  EXPECT_EQ(err, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string msg = acltest::TakeRecentErrors();
  EXPECT_NE(msg.find("GatherV2"), std::string::npos) << msg;
  // The stream is usable again.
  aclDataBuffer* ok[3] = {a[0], Device<int32_t>({2, 0}), axis_buffer};
  ASSERT_ACL_OK(aclopExecuteV2("GatherV2", 3, in, ok, 1, out, y, nullptr, stream_));
  EXPECT_EQ(Read<float>(y[0]), (std::vector<float>{3, 1}));
}

}  // namespace
