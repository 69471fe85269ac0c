// Single-op models (aclopSetModelDir, aclopLoad) as a program uses them: models written by
// `atc --singleop` at build time (data/op_models.json -> ACLSIM_OP_MODEL_DIR) are loaded,
// matching calls run from them, other calls compile online.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "api_test.h"
#include "op_fixture.h"

namespace {

namespace fs = std::filesystem;

class OpModelTest : public acltest::OpFixture {
 protected:
  void TearDown() override {
    OpFixture::TearDown();
    if (!scratch_.empty()) fs::remove_all(scratch_);
  }

  // Simulated time of `launch` on the stream, from an event before to one after: it includes
  // the host's compile time when the op is compiled online.
  template <typename Fn>
  float ElapsedMs(Fn&& launch) {
    aclrtEvent start = nullptr, end = nullptr;
    EXPECT_ACL_OK(aclrtCreateEvent(&start));
    EXPECT_ACL_OK(aclrtCreateEvent(&end));
    EXPECT_ACL_OK(aclrtRecordEvent(start, stream_));
    launch();
    EXPECT_ACL_OK(aclrtRecordEvent(end, stream_));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(end));
    float ms = -1;
    EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
    EXPECT_ACL_OK(aclrtDestroyEvent(start));
    EXPECT_ACL_OK(aclrtDestroyEvent(end));
    return ms;
  }
  // Adds int32 tensors of shape `dims`; [3, 3] is data/op_models.json's "add_int32".
  void AddInt32(std::vector<int64_t> dims = {3, 3}) {
    size_t n = 1;
    for (int64_t d : dims) n *= static_cast<size_t>(d);
    std::vector<int32_t> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<int32_t>(i);
      b[i] = static_cast<int32_t>(100 * i);
    }
    aclTensorDesc* in[2] = {Desc(ACL_INT32, dims), Desc(ACL_INT32, dims)};
    aclTensorDesc* out[1] = {Desc(ACL_INT32, dims)};
    aclDataBuffer* x[2] = {Device(a), Device(b)};
    aclDataBuffer* y[1] = {Device<int32_t>({}, n * 4)};
    ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, x, 1, out, y, nullptr, stream_));
    const auto got = Read<int32_t>(y[0]);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], static_cast<int32_t>(101 * i)) << i;
  }
  // x [rows, 4] float + constant [1, 2, 3, 4]: data/op_models.json's dynamic Add. Returns the
  // simulated time of the launch.
  float AddConst(int64_t rows) {
    std::vector<float> x(static_cast<size_t>(rows * 4), 10.0f);
    const std::vector<float> y_const = {1, 2, 3, 4};
    aclTensorDesc* y_desc = Desc(ACL_FLOAT, {4});
    EXPECT_ACL_OK(aclSetTensorConst(y_desc, const_cast<float*>(y_const.data()), 16));
    aclTensorDesc* in[2] = {Desc(ACL_FLOAT, {rows, 4}), y_desc};
    aclTensorDesc* out[1] = {Desc(ACL_FLOAT, {rows, 4})};
    aclDataBuffer* bufs[2] = {Device(x), Device(y_const)};
    aclDataBuffer* z[1] = {Device<float>({}, x.size() * 4)};
    const float ms = ElapsedMs(
        [&] { EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in, bufs, 1, out, z, nullptr, stream_)); });
    const auto got = Read<float>(z[0]);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], 11.0f + static_cast<float>(i % 4));
    return ms;
  }
  fs::path Scratch() {
    scratch_ = fs::temp_directory_path() /
               ("aclsim_op_model_api_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    return scratch_;
  }
  static std::vector<char> ReadFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path scratch_;
};

TEST_F(OpModelTest, SetModelDirThenAddRunsFromTheModel) {
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
  // The model's shape: no online compile (2 ms of simulated host time) before it runs.
  const float with_model = ElapsedMs([&] { AddInt32({3, 3}); });
  // Another rank: no model matches, so it is compiled online, as CANN's newest runtime does.
  const float online = ElapsedMs([&] { AddInt32({3, 3, 2}); });
  EXPECT_LT(with_model, 1.0f);
  EXPECT_GE(online, 2.0f);
}

TEST_F(OpModelTest, GemmFromTheModelComputesAlphaAbPlusBetaC) {
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
  std::vector<aclFloat16> a(256), b(256), c(256);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      a[i * 16 + j] = aclFloatToFloat16(i == j ? 2.0f : 0.0f);  // 2 I
      b[i * 16 + j] = aclFloatToFloat16(static_cast<float>(j));
      c[i * 16 + j] = aclFloatToFloat16(1.0f);
    }
  }
  aclTensorDesc* in[5] = {Desc(ACL_FLOAT16, {16, 16}), Desc(ACL_FLOAT16, {16, 16}),
                          Desc(ACL_FLOAT16, {16, 16}), Desc(ACL_FLOAT16, {}),
                          Desc(ACL_FLOAT16, {})};
  aclTensorDesc* out[1] = {Desc(ACL_FLOAT16, {16, 16})};
  aclDataBuffer* x[5] = {Device(a), Device(b), Device(c),
                         Device(std::vector<aclFloat16>{aclFloatToFloat16(0.5f)}),
                         Device(std::vector<aclFloat16>{aclFloatToFloat16(3.0f)})};
  aclDataBuffer* y[1] = {Device<aclFloat16>({}, 512)};
  attr_ = aclopCreateAttr();
  ASSERT_ACL_OK(aclopSetAttrBool(attr_, "transpose_a", 0));
  ASSERT_ACL_OK(aclopSetAttrBool(attr_, "transpose_b", 0));
  const float ms = ElapsedMs(
      [&] { ASSERT_ACL_OK(aclopExecuteV2("GEMM", 5, in, x, 1, out, y, attr_, stream_)); });
  EXPECT_LT(ms, 1.0f);  // matched the model: no online compile
  const auto got = Read<aclFloat16>(y[0]);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      // 0.5 * (2I x B) + 3 * 1 = j + 3
      ASSERT_EQ(aclFloat16ToFloat(got[i * 16 + j]), static_cast<float>(j + 3)) << i << "," << j;
    }
  }
}

TEST_F(OpModelTest, DynamicModelMatchesShapesInsideItsRange) {
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
  EXPECT_LT(AddConst(5), 1.0f);  // [-1, 4] with range [1, 64]: from the model
  AddConst(64);                  // the upper bound
}

TEST_F(OpModelTest, ShapeOutsideTheRangeCompilesOnline) {
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
  EXPECT_GE(AddConst(65), 2.0f);  // the range is [1, 64]: no model, a full online compile
}

TEST_F(OpModelTest, AclopLoadReadsAModelFromMemory) {
  const auto bytes = ReadFile(fs::path(ACLSIM_OP_MODEL_DIR) / "add_int32.om");
  ASSERT_FALSE(bytes.empty());
  ASSERT_ACL_OK(aclopLoad(bytes.data(), bytes.size()));
  EXPECT_LT(ElapsedMs([&] { AddInt32(); }), 1.0f);
  // aclopLoad may be called any number of times; aclopSetModelDir still works once.
  ASSERT_ACL_OK(aclopLoad(bytes.data(), bytes.size()));
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
}

TEST_F(OpModelTest, AclopLoadRejectsBadBytes) {
  const char garbage[64] = "this is not an om file";
  EXPECT_ACL_ERR(ACL_ERROR_OP_LOAD_FAILED, aclopLoad, garbage, sizeof(garbage));
  auto bytes = ReadFile(fs::path(ACLSIM_OP_MODEL_DIR) / "add_int32.om");
  bytes.resize(bytes.size() - 3);
  EXPECT_ACL_ERR(ACL_ERROR_OP_LOAD_FAILED, aclopLoad, bytes.data(), bytes.size());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopLoad, nullptr, 10);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopLoad, garbage, 0);
}

TEST_F(OpModelTest, SetModelDirTwiceIsRepeatInitialize) {
  ASSERT_ACL_OK(aclopSetModelDir(ACLSIM_OP_MODEL_DIR));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclopSetModelDir, ACLSIM_OP_MODEL_DIR);
}

TEST_F(OpModelTest, SetModelDirErrors) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetModelDir, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclopSetModelDir, "/nonexistent/aclsim/models");
  const fs::path dir = Scratch();
  fs::copy_file(fs::path(ACLSIM_OP_MODEL_DIR) / "add_int32.om", dir / "good.om");
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "corrupt.om") << "not a model";
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclopSetModelDir(dir.c_str()), ACL_ERROR_OP_LOAD_FAILED);
  const std::string msg = acltest::TakeRecentErrors();
  EXPECT_NE(msg.find("corrupt.om"), std::string::npos) << msg;
  // The failed call loaded nothing and does not count as the one call.
  fs::remove(dir / "sub" / "corrupt.om");
  ASSERT_ACL_OK(aclopSetModelDir(dir.c_str()));
  EXPECT_LT(ElapsedMs([&] { AddInt32(); }), 1.0f);
}

TEST_F(OpModelTest, WithoutModelsEveryOpCompilesOnline) {
  EXPECT_GE(ElapsedMs([&] { AddInt32(); }), 2.0f);
}

}  // namespace
