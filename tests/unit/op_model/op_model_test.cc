// Single-op model format (serialise / parse, every corruption an error) and registry matching.
#include "core/op_model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace aclsim::core {
namespace {

using ops::DataType;
using ops::Format;
using ops::TensorDesc;

TensorDesc Desc(DataType dtype, std::vector<int64_t> dims, Format format = Format::kNd) {
  TensorDesc t;
  t.dtype = dtype;
  t.format = format;
  t.dims = std::move(dims);
  return t;
}

OpModel RichModel() {
  OpModel m;
  m.soc_version = "Ascend910B2";
  m.call.type = "GEMM";
  m.call.inputs = {Desc(DataType::kFloat16, {16, -1}), Desc(DataType::kFloat16, {-1, 16}),
                   Desc(DataType::kFloat16, {16, 16}), Desc(DataType::kFloat16, {}), TensorDesc{}};
  m.call.inputs[0].shape_range = {{16, 16}, {1, 64}};
  m.call.inputs[0].name = "a";
  m.call.inputs[3].value = std::vector<uint8_t>{0x00, 0x3c};
  m.call.inputs[2].storage_format = Format::kFractalNz;
  m.call.inputs[2].storage_dims = {1, 1, 16, 16};
  m.call.outputs = {Desc(DataType::kFloat16, {-2})};
  m.call.attrs["b"] = true;
  m.call.attrs["i"] = int64_t{-7};
  m.call.attrs["f"] = 0.5f;
  m.call.attrs["s"] = std::string("hello");
  m.call.attrs["t"] = DataType::kBf16;
  m.call.attrs["lb"] = std::vector<bool>{true, false};
  m.call.attrs["li"] = std::vector<int64_t>{1, 2, 3};
  m.call.attrs["lf"] = std::vector<float>{1.5f};
  m.call.attrs["ls"] = std::vector<std::string>{"x", ""};
  m.call.attrs["lt"] = std::vector<DataType>{DataType::kInt8};
  m.call.attrs["lli"] = std::vector<std::vector<int64_t>>{{1}, {}, {2, 3}};
  return m;
}

void ExpectSameDesc(const TensorDesc& a, const TensorDesc& b) {
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.storage_format, b.storage_format);
  EXPECT_EQ(a.dims, b.dims);
  EXPECT_EQ(a.storage_dims, b.storage_dims);
  EXPECT_EQ(a.shape_range, b.shape_range);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.value, b.value);
}

// Rewrites the header's payload size and CRC so a payload edit reaches the field parser.
void Reseal(std::vector<uint8_t>* bytes) {
  const uint64_t size = bytes->size() - kOpModelHeaderBytes;
  std::memcpy(bytes->data() + 16, &size, 8);
  const uint32_t crc = Crc32(bytes->data() + kOpModelHeaderBytes, size);
  std::memcpy(bytes->data() + 24, &crc, 4);
}

TEST(OpModelFormatTest, RoundTripKeepsEveryField) {
  const OpModel m = RichModel();
  const auto bytes = SerializeOpModel(m);
  auto parsed = ParseOpModel(bytes.data(), bytes.size(), "rich.om");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->call.type, "GEMM");
  EXPECT_EQ(parsed->soc_version, "Ascend910B2");
  EXPECT_EQ(parsed->source, "rich.om");
  ASSERT_EQ(parsed->call.inputs.size(), m.call.inputs.size());
  for (size_t i = 0; i < m.call.inputs.size(); ++i) {
    ExpectSameDesc(parsed->call.inputs[i], m.call.inputs[i]);
  }
  ASSERT_EQ(parsed->call.outputs.size(), 1u);
  ExpectSameDesc(parsed->call.outputs[0], m.call.outputs[0]);
  EXPECT_EQ(parsed->call.attrs, m.call.attrs);
  EXPECT_EQ(SerializeOpModel(parsed.value()), bytes);  // deterministic
}

TEST(OpModelFormatTest, Crc32MatchesTheStandardCheckValue) {
  const char* text = "123456789";
  EXPECT_EQ(Crc32(reinterpret_cast<const uint8_t*>(text), 9), 0xCBF43926u);
}

TEST(OpModelFormatTest, EveryTruncationIsAnError) {
  auto bytes = SerializeOpModel(RichModel());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto parsed = ParseOpModel(bytes.data(), n, "cut.om");
    ASSERT_FALSE(parsed.ok()) << n;
    EXPECT_EQ(parsed.status().code(), StatusCode::kOpLoadFailed);
    EXPECT_NE(parsed.status().message().find("cut.om"), std::string::npos);
  }
  // Truncated payloads with a valid header: the field parser reports the field.
  for (size_t n = kOpModelHeaderBytes; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
    Reseal(&cut);
    auto parsed = ParseOpModel(cut.data(), cut.size(), "cut.om");
    ASSERT_FALSE(parsed.ok()) << n;
  }
}

TEST(OpModelFormatTest, HeaderDefectsNameTheProblem) {
  const auto good = SerializeOpModel(RichModel());
  auto expect = [&](std::vector<uint8_t> bytes, const char* words) {
    auto parsed = ParseOpModel(bytes.data(), bytes.size(), "x.om");
    ASSERT_FALSE(parsed.ok()) << words;
    EXPECT_NE(parsed.status().message().find(words), std::string::npos)
        << parsed.status().message();
  };
  auto b = good;
  b[0] = 'X';
  expect(b, "magic");
  b = good;
  b[8] = 2;
  expect(b, "version 2");
  b = good;
  b[12] = 9;
  expect(b, "kind 9");
  b = good;
  b.push_back(0);
  expect(b, "payload bytes");
  b = good;
  b[28] = 1;
  expect(b, "reserved");
  b = good;
  b[kOpModelHeaderBytes + 6] ^= 0x40;
  expect(b, "checksum");
  b = good;
  b.push_back(0);
  Reseal(&b);
  expect(b, "unexpected bytes");
  EXPECT_FALSE(ParseOpModel(nullptr, 100, "x").ok());
}

TEST(OpModelFormatTest, BadFieldValuesAreErrors) {
  auto expect_bad = [](OpModel m, const char* words) {
    auto bytes = SerializeOpModel(m);
    auto parsed = ParseOpModel(bytes.data(), bytes.size(), "f.om");
    ASSERT_FALSE(parsed.ok()) << words;
    EXPECT_NE(parsed.status().message().find(words), std::string::npos)
        << parsed.status().message();
  };
  OpModel m = RichModel();
  m.call.inputs[0].dtype = static_cast<DataType>(99);
  expect_bad(m, "unknown dtype 99");
  m = RichModel();
  m.call.inputs[1].format = static_cast<Format>(77);
  expect_bad(m, "unknown format 77");
  m = RichModel();
  m.call.inputs[1].dims = {3, -5};
  expect_bad(m, "dim -5");
  m = RichModel();
  m.call.inputs[0].shape_range = {{4, 2}, {1, 2}};
  expect_bad(m, "shape range 0");
  m = RichModel();
  m.call.inputs[0].shape_range = {{1, 2}};
  expect_bad(m, "1 shape ranges for 2 dims");
  m = RichModel();
  m.call.inputs[3].value = std::vector<uint8_t>{1, 2, 3};
  expect_bad(m, "constant value has 3 bytes");
  m = RichModel();
  m.call.type.clear();
  expect_bad(m, "op type is empty");
  m = RichModel();
  m.call.outputs[0].dtype = DataType::kUndefined;
  expect_bad(m, "output 0 has no dtype");
  m = RichModel();
  m.call.attrs[""] = true;
  expect_bad(m, "empty name");
}

TEST(OpModelFormatTest, HugeCountsAreRejectedWithoutAllocating) {
  OpModel m;
  m.call.type = "Add";
  m.call.outputs = {Desc(DataType::kFloat, {2})};
  auto bytes = SerializeOpModel(m);
  // payload: str type (4 + 3), str soc (4), u32 inputs -> set the input count to 2^32-1.
  const size_t inputs_at = kOpModelHeaderBytes + 4 + 3 + 4;
  std::memset(bytes.data() + inputs_at, 0xFF, 4);
  Reseal(&bytes);
  auto parsed = ParseOpModel(bytes.data(), bytes.size(), "huge.om");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("inputs count"), std::string::npos)
      << parsed.status().message();
}

TEST(OpModelFormatTest, RandomBytesAndFlipsNeverCrash) {
  std::mt19937 rng(1234);
  const auto good = SerializeOpModel(RichModel());
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bytes = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      bytes[kOpModelHeaderBytes + rng() % (bytes.size() - kOpModelHeaderBytes)] =
          static_cast<uint8_t>(rng());
    }
    if (round % 3 == 0) bytes.resize(kOpModelHeaderBytes + rng() % (bytes.size() - 31));
    Reseal(&bytes);  // reach the field parser, not just the checksum
    auto parsed = ParseOpModel(bytes.data(), bytes.size(), "fuzz.om");
    if (parsed.ok()) {
      // Whatever parses re-serialises to a file that parses again.
      auto again = SerializeOpModel(parsed.value());
      EXPECT_TRUE(ParseOpModel(again.data(), again.size(), "again").ok());
    }
    std::vector<uint8_t> noise(rng() % 256);
    for (auto& b : noise) b = static_cast<uint8_t>(rng());
    if (round % 2 == 0 && noise.size() >= 8) std::memcpy(noise.data(), kOpModelMagic, 8);
    EXPECT_FALSE(ParseOpModel(noise.data(), noise.size(), "noise").ok());
  }
}

// --- matching -------------------------------------------------------------------------------

ops::OpCall AddCall(std::vector<int64_t> dims) {
  ops::OpCall c;
  c.type = "Add";
  c.inputs = {Desc(DataType::kFloat, dims), Desc(DataType::kFloat, dims)};
  c.outputs = {Desc(DataType::kFloat, dims)};
  return c;
}

TEST(OpModelMatchTest, StaticModelMatchesOnlyItsExactCall) {
  const auto model = AddCall({2, 3});
  EXPECT_TRUE(OpModelMatches(model, AddCall({2, 3})));
  EXPECT_FALSE(OpModelMatches(model, AddCall({2, 4})));
  EXPECT_FALSE(OpModelMatches(model, AddCall({2, 3, 1})));
  auto other = AddCall({2, 3});
  other.inputs[1].dtype = DataType::kFloat16;
  EXPECT_FALSE(OpModelMatches(model, other));
  other = AddCall({2, 3});
  other.inputs[0].format = Format::kNchw;
  EXPECT_FALSE(OpModelMatches(model, other));
  other = AddCall({2, 3});
  other.type = "Sub";
  EXPECT_FALSE(OpModelMatches(model, other));
  other = AddCall({2, 3});
  other.attrs["x"] = true;
  EXPECT_FALSE(OpModelMatches(model, other));
}

TEST(OpModelMatchTest, UnknownDimsMatchInsideTheirRange) {
  auto model = AddCall({-1, 3});
  EXPECT_TRUE(OpModelMatches(model, AddCall({1, 3})));
  EXPECT_TRUE(OpModelMatches(model, AddCall({1000, 3})));
  EXPECT_FALSE(OpModelMatches(model, AddCall({8, 4})));
  for (auto* t : {&model.inputs[0], &model.inputs[1], &model.outputs[0]}) {
    t->shape_range = {{2, 8}, {3, 3}};
  }
  EXPECT_TRUE(OpModelMatches(model, AddCall({2, 3})));
  EXPECT_TRUE(OpModelMatches(model, AddCall({8, 3})));
  EXPECT_FALSE(OpModelMatches(model, AddCall({1, 3})));
  EXPECT_FALSE(OpModelMatches(model, AddCall({9, 3})));
  for (auto* t : {&model.inputs[0], &model.inputs[1], &model.outputs[0]}) {
    t->shape_range = {{2, -1}, {3, 3}};
  }
  EXPECT_TRUE(OpModelMatches(model, AddCall({4096, 3})));
  const auto any_rank = AddCall({-2});
  EXPECT_TRUE(OpModelMatches(any_rank, AddCall({1, 2, 3, 4})));
  EXPECT_TRUE(OpModelMatches(any_rank, AddCall({})));
}

TEST(OpModelMatchTest, ConstantsAndOmittedInputsMustAgree) {
  auto model = AddCall({2});
  model.inputs[1].value = std::vector<uint8_t>(8, 1);
  auto call = AddCall({2});
  EXPECT_FALSE(OpModelMatches(model, call));  // the call's input is not that constant
  call.inputs[1].value = std::vector<uint8_t>(8, 1);
  EXPECT_TRUE(OpModelMatches(model, call));
  call.inputs[1].value = std::vector<uint8_t>(8, 2);
  EXPECT_FALSE(OpModelMatches(model, call));
  // A model without a constant accepts a call that has one.
  auto plain = AddCall({2});
  EXPECT_TRUE(OpModelMatches(plain, call));
  auto omitted = AddCall({2});
  omitted.inputs[1] = TensorDesc{};
  EXPECT_FALSE(OpModelMatches(omitted, AddCall({2})));
  EXPECT_FALSE(OpModelMatches(AddCall({2}), omitted));
  EXPECT_TRUE(OpModelMatches(omitted, omitted));
}

TEST(OpModelMatchTest, StorageFormatIsPartOfTheMatch) {
  auto model = AddCall({16, 16});
  model.inputs[0].storage_format = Format::kFractalNz;
  model.inputs[0].storage_dims = {1, 1, 16, 16};
  EXPECT_FALSE(OpModelMatches(model, AddCall({16, 16})));
  auto call = AddCall({16, 16});
  call.inputs[0].storage_format = Format::kFractalNz;
  call.inputs[0].storage_dims = {1, 1, 16, 16};
  EXPECT_TRUE(OpModelMatches(model, call));
  // storage format equal to the origin format is no storage layout
  auto same = AddCall({16, 16});
  same.inputs[0].storage_format = Format::kNd;
  EXPECT_TRUE(OpModelMatches(AddCall({16, 16}), same));
}

TEST(OpModelRegistryTest, RegistersByTypeNewestFirstAndReplacesDuplicates) {
  OpModelRegistry registry;
  OpModel a{AddCall({-1}), "Ascend910B2", "a.om"};
  OpModel b{AddCall({4}), "Ascend910B2", "b.om"};
  registry.Add(a);
  registry.Add(b);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_EQ(registry.Match(AddCall({4}))->source, "b.om");
  EXPECT_EQ(registry.Match(AddCall({5}))->source, "a.om");
  EXPECT_EQ(registry.Match(AddCall({4, 4})), nullptr);
  OpModel b2{AddCall({4}), "Ascend910B2", "b2.om"};
  registry.Add(b2);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_EQ(registry.Match(AddCall({4}))->source, "b2.om");
  auto sub = AddCall({4});
  sub.type = "Sub";
  EXPECT_EQ(registry.Match(sub), nullptr);
}

class OpModelDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("aclsim_op_model_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "d1" / "d2" / "d3");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::filesystem::path& rel, const std::vector<uint8_t>& bytes) {
    std::ofstream out(dir_ / rel, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  static std::vector<uint8_t> Model(std::vector<int64_t> dims) {
    return SerializeOpModel(OpModel{AddCall(std::move(dims)), "Ascend910B2", ""});
  }
  std::filesystem::path dir_;
};

TEST_F(OpModelDirTest, LoadsThreeLevelsAndIgnoresOtherFiles) {
  Write("a.om", Model({1}));
  Write("d1/b.om", Model({2}));
  Write("d1/d2/c.om", Model({3}));
  Write("d1/d2/d3/too_deep.om", Model({4}));
  Write("notes.txt", {1, 2, 3});
  OpModelRegistry registry;
  size_t count = 0;
  ASSERT_TRUE(registry.LoadDir(dir_.string(), &count).ok());
  EXPECT_EQ(count, 3u);
  EXPECT_NE(registry.Match(AddCall({3})), nullptr);
  EXPECT_EQ(registry.Match(AddCall({4})), nullptr);
  Status again = registry.LoadDir(dir_.string(), &count);
  EXPECT_EQ(again.code(), StatusCode::kRepeatInitialize);
}

TEST_F(OpModelDirTest, CorruptFileFailsAndRegistersNothing) {
  Write("a.om", Model({1}));
  auto bad = Model({2});
  bad.back() ^= 1;
  Write("d1/bad.om", bad);
  OpModelRegistry registry;
  Status status = registry.LoadDir(dir_.string(), nullptr);
  EXPECT_EQ(status.code(), StatusCode::kOpLoadFailed);
  EXPECT_NE(status.message().find("bad.om"), std::string::npos) << status.message();
  EXPECT_EQ(registry.size(), 0u);
  std::filesystem::remove(dir_ / "d1" / "bad.om");
  EXPECT_TRUE(registry.LoadDir(dir_.string(), nullptr).ok());  // a failed call does not count
}

TEST_F(OpModelDirTest, MissingDirectoryIsInvalidFile) {
  OpModelRegistry registry;
  EXPECT_EQ(registry.LoadDir((dir_ / "nope").string(), nullptr).code(), StatusCode::kInvalidFile);
  Write("file.om", Model({1}));
  EXPECT_EQ(registry.LoadDir((dir_ / "file.om").string(), nullptr).code(),
            StatusCode::kInvalidFile);
}

}  // namespace
}  // namespace aclsim::core
