// Graph model files (src/core/model_file.*): round trip, every truncation and corruption an
// error, one test per validation rule, CANN's own `.om` recognised, LoadModelFile.
#include "core/model_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/om_codec.h"
#include "core/op_model.h"

namespace aclsim::core {
namespace {

using ops::DataType;
using ops::Format;
using ops::TensorDesc;

ModelTensor Tensor(const char* name, DataType dtype, std::vector<int64_t> dims) {
  ModelTensor t;
  t.desc.dtype = dtype;
  t.desc.format = Format::kNd;
  t.desc.dims = std::move(dims);
  t.desc.name = name;
  return t;
}

// x[-1, 4] -> MatMulV2(x, w, <no bias>) -> t0 -> Add(t0, b) -> t1 -> Relu -> y, with the
// batch gears {1, 2, 4}; w (64 bytes) at weights offset 0, b (16 bytes) at 64.
ModelFile SmallModel() {
  ModelFile m;
  m.name = "small";
  m.soc_version = "Ascend910B2";
  m.tensors = {Tensor("x", DataType::kFloat, {-1, 4}),  Tensor("w", DataType::kFloat, {4, 4}),
               Tensor("b", DataType::kFloat, {4}),      Tensor("t0", DataType::kFloat, {-1, 4}),
               Tensor("t1", DataType::kFloat, {-1, 4}), Tensor("y", DataType::kFloat, {-1, 4})};
  m.tensors[0].desc.shape_range = {{1, 4}, {4, 4}};
  m.tensors[1].constant = WeightRange{0, 64};
  m.tensors[2].constant = WeightRange{64, 16};
  m.weights.resize(80);
  for (size_t i = 0; i < m.weights.size(); ++i) m.weights[i] = static_cast<uint8_t>(i * 7);
  ModelNode mm{"MatMulV2", "matmul", {}, {0, 1, -1}, {3}};
  mm.attrs["transpose_x1"] = false;
  mm.attrs["transpose_x2"] = true;
  mm.attrs["offset_x"] = int64_t{0};
  ModelNode add{"Add", "add", {}, {3, 2}, {4}};
  ModelNode relu{"Relu", "relu", {}, {4}, {5}};
  relu.attrs["alpha"] = 0.25f;
  relu.attrs["note"] = std::string("hi");
  relu.attrs["shapes"] = std::vector<std::vector<int64_t>>{{1, 2}, {}};
  m.nodes = {mm, add, relu};
  m.inputs = {{"x", 0}};
  m.outputs = {{"y", 5}};
  m.gears.kind = GearKind::kBatch;
  m.gears.inputs = {0};
  m.gears.gears = {{1}, {2}, {4}};
  return m;
}

void ExpectSameModel(const ModelFile& a, const ModelFile& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.soc_version, b.soc_version);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].desc, b.tensors[i].desc) << i;
    ASSERT_EQ(a.tensors[i].constant.has_value(), b.tensors[i].constant.has_value()) << i;
    if (a.tensors[i].constant) {
      EXPECT_EQ(a.tensors[i].constant->offset, b.tensors[i].constant->offset) << i;
      EXPECT_EQ(a.tensors[i].constant->size, b.tensors[i].constant->size) << i;
    }
  }
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].type, b.nodes[i].type);
    EXPECT_EQ(a.nodes[i].name, b.nodes[i].name);
    EXPECT_EQ(a.nodes[i].attrs, b.nodes[i].attrs);
    EXPECT_EQ(a.nodes[i].inputs, b.nodes[i].inputs);
    EXPECT_EQ(a.nodes[i].outputs, b.nodes[i].outputs);
  }
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
    EXPECT_EQ(a.inputs[i].tensor, b.inputs[i].tensor);
  }
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].name, b.outputs[i].name);
    EXPECT_EQ(a.outputs[i].tensor, b.outputs[i].tensor);
  }
  EXPECT_EQ(a.gears.kind, b.gears.kind);
  EXPECT_EQ(a.gears.inputs, b.gears.inputs);
  EXPECT_EQ(a.gears.gears, b.gears.gears);
  EXPECT_EQ(a.weights, b.weights);
}

// Rewrites the header's payload size and CRC so a payload edit reaches the field parser.
void Reseal(std::vector<uint8_t>* bytes) {
  const uint64_t size = bytes->size() - kOmHeaderBytes;
  std::memcpy(bytes->data() + 16, &size, 8);
  const uint32_t crc = Crc32(bytes->data() + kOmHeaderBytes, size);
  std::memcpy(bytes->data() + 24, &crc, 4);
}

bool Has(const Status& s, const std::string& words) {
  return s.message().find(words) != std::string::npos;
}

// The rule holds both in ValidateModel and in ParseModel of the serialised model.
void ExpectInvalid(const ModelFile& m, const std::string& words) {
  const Status st = ValidateModel(m, "v.om");
  EXPECT_EQ(st.code(), StatusCode::kParseModel) << words;
  EXPECT_TRUE(Has(st, words)) << st.message();
  EXPECT_TRUE(Has(st, "model v.om: ")) << st.message();
  const auto bytes = SerializeModel(m);
  auto parsed = ParseModel(bytes.data(), bytes.size(), "p.om");
  ASSERT_FALSE(parsed.ok()) << words;
  EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel) << words;
  EXPECT_TRUE(Has(parsed.status(), "model p.om: ")) << parsed.status().message();
  EXPECT_TRUE(Has(parsed.status(), words)) << parsed.status().message();
}

TEST(ModelFileTest, RoundTripKeepsEveryField) {
  const ModelFile m = SmallModel();
  ASSERT_TRUE(ValidateModel(m, "small.om").ok()) << ValidateModel(m, "small.om").message();
  const auto bytes = SerializeModel(m);
  auto parsed = ParseModel(bytes.data(), bytes.size(), "small.om");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ExpectSameModel(m, *parsed);
  EXPECT_EQ(SerializeModel(*parsed), bytes);
}

TEST(ModelFileTest, HeaderIsTheSharedOneWithKindTwo) {
  const auto bytes = SerializeModel(SmallModel());
  ASSERT_GE(bytes.size(), kOmHeaderBytes);
  EXPECT_EQ(std::memcmp(bytes.data(), "ACLSIMOP", 8), 0);
  uint32_t version = 0;
  uint32_t kind = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&kind, bytes.data() + 12, 4);
  EXPECT_EQ(version, 1u);
  EXPECT_EQ(kind, 2u);
}

TEST(ModelFileTest, EveryTruncationIsAReadFailure) {
  const auto bytes = SerializeModel(SmallModel());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto parsed = ParseModel(bytes.data(), n, "cut.om");
    ASSERT_FALSE(parsed.ok()) << n;
    EXPECT_EQ(parsed.status().code(), StatusCode::kReadModelFailure) << n;
    EXPECT_TRUE(Has(parsed.status(), "cut.om")) << parsed.status().message();
  }
  // Truncated payloads under a valid header: the field parser reports a parse error.
  for (size_t n = kOmHeaderBytes; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
    Reseal(&cut);
    auto parsed = ParseModel(cut.data(), cut.size(), "cut.om");
    ASSERT_FALSE(parsed.ok()) << n;
    EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel) << n;
  }
}

TEST(ModelFileTest, EverySingleByteCorruptionFailsTheChecksum) {
  const auto good = SerializeModel(SmallModel());
  for (size_t i = kOmHeaderBytes; i < good.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xFF}) {
      auto bytes = good;
      bytes[i] ^= flip;
      auto parsed = ParseModel(bytes.data(), bytes.size(), "flip.om");
      ASSERT_FALSE(parsed.ok()) << i;
      EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel);
      EXPECT_TRUE(Has(parsed.status(), "checksum")) << parsed.status().message();
    }
  }
}

TEST(ModelFileTest, ResealedRandomCorruptionsParseValidOrFail) {
  std::mt19937 rng(20240611);
  const auto good = SerializeModel(SmallModel());
  const size_t payload = good.size() - kOmHeaderBytes;
  int parsed_ok = 0;
  for (int round = 0; round < 4000; ++round) {
    auto bytes = good;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = kOmHeaderBytes + rng() % payload;
      bytes[at] = (round % 2 == 0) ? static_cast<uint8_t>(rng()) : bytes[at] ^ (1u << (rng() % 8));
    }
    if (round % 5 == 0) bytes.resize(kOmHeaderBytes + rng() % payload);
    Reseal(&bytes);
    auto parsed = ParseModel(bytes.data(), bytes.size(), "rnd.om");
    if (parsed.ok()) {
      ++parsed_ok;
      EXPECT_TRUE(ValidateModel(*parsed, "rnd.om").ok());
      const auto again = SerializeModel(*parsed);
      auto reparsed = ParseModel(again.data(), again.size(), "rnd.om");
      ASSERT_TRUE(reparsed.ok()) << reparsed.status().message();
      EXPECT_EQ(SerializeModel(*reparsed), again);
    } else {
      EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel) << parsed.status().message();
      EXPECT_TRUE(Has(parsed.status(), "rnd.om"));
    }
  }
  // Edits of weight bytes, names and attribute values keep the model valid.
  EXPECT_GT(parsed_ok, 0);
}

TEST(ModelFileTest, HeaderDefectsNameTheProblem) {
  const auto good = SerializeModel(SmallModel());
  auto expect = [](std::vector<uint8_t> bytes, StatusCode code, const char* words) {
    auto parsed = ParseModel(bytes.data(), bytes.size(), "h.om");
    ASSERT_FALSE(parsed.ok()) << words;
    EXPECT_EQ(parsed.status().code(), code) << words;
    EXPECT_TRUE(Has(parsed.status(), words)) << parsed.status().message();
    EXPECT_TRUE(Has(parsed.status(), "h.om")) << parsed.status().message();
  };
  auto b = good;
  b[0] = 'X';
  expect(b, StatusCode::kParseModel, "magic");
  b = good;
  b[8] = 2;
  expect(b, StatusCode::kParseModel, "version 2");
  b = good;
  b[12] = 9;
  expect(b, StatusCode::kParseModel, "kind 9");
  b = good;
  b.push_back(0);
  expect(b, StatusCode::kParseModel, "payload bytes");
  b = good;
  b[28] = 1;
  expect(b, StatusCode::kParseModel, "reserved");
  b = good;
  b.push_back(0);
  Reseal(&b);
  expect(b, StatusCode::kParseModel, "unexpected bytes after the weights");
  EXPECT_EQ(ParseModel(nullptr, 100, "x").status().code(), StatusCode::kParseModel);
}

TEST(ModelFileTest, SingleOpModelIsRefusedByKind) {
  OpModel op;
  op.call.type = "Add";
  op.call.outputs.resize(1);
  op.call.outputs[0].dtype = DataType::kFloat;
  const auto bytes = SerializeOpModel(op);
  auto parsed = ParseModel(bytes.data(), bytes.size(), "op.om");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel);
  EXPECT_TRUE(Has(parsed.status(), "single-op model")) << parsed.status().message();
  // And the other way round.
  const auto graph = SerializeModel(SmallModel());
  EXPECT_FALSE(ParseOpModel(graph.data(), graph.size(), "g.om").ok());
}

TEST(ModelFileTest, CannOfflineModelIsRecognisedAndRefused) {
  // A CANN (GE) offline model starts with a little-endian u32 magic 0x444F4D49 ("IMOD") and
  // a 256-byte header.
  std::vector<uint8_t> cann(1024, 0);
  const uint32_t magic = 0x444F4D49u;
  const uint32_t head = 256;
  std::memcpy(cann.data(), &magic, 4);
  std::memcpy(cann.data() + 4, &head, 4);
  EXPECT_EQ(std::memcmp(cann.data(), "IMOD", 4), 0);
  EXPECT_TRUE(LooksLikeCannModel(cann.data(), cann.size()));
  for (size_t size : {size_t{4}, size_t{100}, cann.size()}) {
    auto parsed = ParseModel(cann.data(), size, "resnet50.om");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel);
    const Status& st = parsed.status();
    EXPECT_TRUE(Has(st, "resnet50.om")) << st.message();
    EXPECT_TRUE(Has(st, "CANN")) << st.message();
    EXPECT_TRUE(Has(st, "atc --model=")) << st.message();
    EXPECT_TRUE(Has(st, "--framework=5")) << st.message();
  }
  const auto ours = SerializeModel(SmallModel());
  EXPECT_FALSE(LooksLikeCannModel(ours.data(), ours.size()));
}

// --- one test per validation rule -------------------------------------------------------

TEST(ModelFileValidationTest, NodeInputIdOutOfRange) {
  ModelFile m = SmallModel();
  m.nodes[1].inputs[1] = 99;
  ExpectInvalid(m, "node 1 (Add 'add'): input 1 is tensor id 99, out of range");
  m.nodes[1].inputs[1] = -2;
  ExpectInvalid(m, "input 1 is tensor id -2, out of range");
}

TEST(ModelFileValidationTest, NodeOutputIdOutOfRange) {
  ModelFile m = SmallModel();
  m.nodes[2].outputs[0] = -1;
  ExpectInvalid(m, "node 2 (Relu 'relu'): output 0 is tensor id -1, out of range");
}

TEST(ModelFileValidationTest, ModelIoIdOutOfRange) {
  ModelFile m = SmallModel();
  m.outputs[0].tensor = 6;
  ExpectInvalid(m, "model output 0 ('y'): tensor id 6 is out of range");
  m = SmallModel();
  m.inputs[0].tensor = -1;
  ExpectInvalid(m, "model input 0 ('x'): tensor id -1 is out of range");
}

TEST(ModelFileValidationTest, TensorProducedTwice) {
  ModelFile m = SmallModel();
  m.nodes[2].outputs[0] = 4;  // Relu writes Add's output
  ExpectInvalid(m,
                "node 2 (Relu 'relu'): output 0 writes tensor 4 ('t1'), which is produced twice");
  m = SmallModel();
  m.nodes[0].outputs[0] = 0;  // a model input
  ExpectInvalid(m, "produced twice (it is a model input)");
  m = SmallModel();
  m.nodes[0].outputs[0] = 1;  // a constant
  ExpectInvalid(m, "produced twice (it is a constant)");
}

TEST(ModelFileValidationTest, NodesMustBeInExecutionOrder) {
  ModelFile m = SmallModel();
  std::swap(m.nodes[1], m.nodes[2]);  // Relu reads t1 before Add writes it
  ExpectInvalid(m, "node 1 (Relu 'relu'): input 0 reads tensor 4 ('t1'), which is neither");
  m = SmallModel();
  m.nodes[1].inputs[0] = 4;  // Add reads its own output
  ExpectInvalid(m, "execution order");
}

TEST(ModelFileValidationTest, EveryTensorHasASource) {
  ModelFile m = SmallModel();
  m.tensors.push_back(Tensor("orphan", DataType::kFloat, {1}));
  ExpectInvalid(m, "tensor 6 ('orphan') is neither a model input, a constant nor an output");
}

TEST(ModelFileValidationTest, WeightsRangeOutsideTheBlob) {
  ModelFile m = SmallModel();
  m.weights.resize(70);
  ExpectInvalid(m, "tensor 2 ('b'): weights range [64, +16) is outside the 70-byte weights blob");
  m = SmallModel();
  m.tensors[2].constant->offset = UINT64_MAX - 63;  // aligned, and offset + size overflows
  ExpectInvalid(m, "is outside the");
}

TEST(ModelFileValidationTest, WeightsRangeMatchesTheDescriptor) {
  ModelFile m = SmallModel();
  m.tensors[2].constant->size = 12;
  ExpectInvalid(m, "tensor 2 ('b'): weights range has 12 bytes but the descriptor needs 16");
  m = SmallModel();
  m.tensors[1].desc.dims = {4, -1};
  ExpectInvalid(m, "tensor 1 ('w'): a constant needs a known shape");
  m = SmallModel();
  m.tensors[1].desc.dims = {int64_t{1} << 40, int64_t{1} << 40};  // the byte size overflows
  ExpectInvalid(m, "shape [1099511627776, 1099511627776] of FLOAT is too large");
}

TEST(ModelFileValidationTest, ConstantOffsetsAreAligned) {
  ModelFile m = SmallModel();
  m.tensors[2].constant->offset = 32;
  ExpectInvalid(m, "tensor 2 ('b'): weights offset 32 is not a multiple of 64");
}

TEST(ModelFileValidationTest, ConstantValuesLiveInTheWeights) {
  ModelFile m = SmallModel();
  m.tensors[2].desc.value = std::vector<uint8_t>(16, 0);
  ExpectInvalid(m, "tensor 2 ('b'): has an inline value");
}

TEST(ModelFileValidationTest, BadDtypeFormatAndDims) {
  ModelFile m = SmallModel();
  m.tensors[3].desc.dtype = static_cast<DataType>(99);
  ExpectInvalid(m, "dtype 99");
  m = SmallModel();
  m.tensors[3].desc.dtype = DataType::kUndefined;
  ExpectInvalid(m, "tensor 3 ('t0'): dtype -1 is not a data type");
  m = SmallModel();
  m.tensors[3].desc.format = static_cast<Format>(77);
  ExpectInvalid(m, "format 77");
  m = SmallModel();
  m.tensors[3].desc.dims = {3, -5};
  ExpectInvalid(m, "tensor 3");
  ExpectInvalid(m, "invalid");
  m = SmallModel();
  m.tensors[0].desc.shape_range = {{1, 4}};
  ExpectInvalid(m, "1 shape ranges for 2 dims");
}

TEST(ModelFileValidationTest, NamesAreNonEmptyAndUnique) {
  ModelFile m = SmallModel();
  m.tensors[4].desc.name = "t0";
  ExpectInvalid(m, "tensor 4 ('t0'): the name is used twice");
  m = SmallModel();
  m.tensors[4].desc.name.clear();
  ExpectInvalid(m, "tensor 4 has no name");
  m = SmallModel();
  m.nodes[2].name = "add";
  ExpectInvalid(m, "node 2 (Relu 'add'): the name is used twice");
  m = SmallModel();
  m.nodes[0].type.clear();
  ExpectInvalid(m, "node 0 has no op type");
  m = SmallModel();
  m.outputs.push_back({"y", 4});
  ExpectInvalid(m, "model output 1 ('y'): the name is used twice");
  m = SmallModel();
  m.outputs.push_back({"y2", 5});
  ExpectInvalid(m, "model output 1 ('y2'): tensor 5 ('y') is listed twice");
}

TEST(ModelFileValidationTest, ModelInputsAndOutputs) {
  ModelFile m = SmallModel();
  m.inputs.push_back({"w", 1});
  ExpectInvalid(m, "model input 1 ('w'): tensor 1 ('w') is a constant");
  m = SmallModel();
  m.outputs.clear();
  ExpectInvalid(m, "the model has no outputs");
  m = SmallModel();
  m.nodes[2].outputs.clear();
  ExpectInvalid(m, "node 2 (Relu 'relu'): has no outputs");
}

TEST(ModelFileValidationTest, BatchGearsFitTheInputs) {
  ModelFile m = SmallModel();
  m.gears.gears[1] = {2, 3};
  ExpectInvalid(m, "gears: gear 1 has 2 values, the inputs need 1");
  m = SmallModel();
  m.gears.gears[2] = {0};
  ExpectInvalid(m, "gears: gear 2 has value 0");
  m = SmallModel();
  m.gears.gears[2] = {1};
  ExpectInvalid(m, "gears: gear 2 appears twice");
  m = SmallModel();
  m.gears.gears.clear();
  ExpectInvalid(m, "gears: 0 gears (1..100)");
  m = SmallModel();
  m.gears.gears.clear();
  for (int64_t b = 1; b <= 101; ++b) m.gears.gears.push_back({b});
  ExpectInvalid(m, "gears: 101 gears");
  m = SmallModel();
  m.gears.inputs.clear();
  ExpectInvalid(m, "gears: model input 0 ('x') has dynamic dims but no gear fills them");
  m = SmallModel();
  m.tensors[0].desc.dims = {-1, -1};
  m.tensors[0].desc.shape_range.clear();
  ExpectInvalid(m, "gears: model input 0 ('x') has 2 -1 dims; batch gears need 1");
  m = SmallModel();
  m.gears.inputs = {1};
  ExpectInvalid(m, "gears: input 0 is 1, not an ascending model input index");
  m = SmallModel();
  m.gears.kind = GearKind::kNone;
  ExpectInvalid(m, "gears: kind none with 1 inputs and 3 gears");
  m = SmallModel();
  m.gears.kind = static_cast<GearKind>(7);
  ExpectInvalid(m, "gears: unknown kind 7");
}

TEST(ModelFileValidationTest, SizesPastTheLimitOfOneTensorAreRefused) {
  // Dims whose element count or byte size wraps 64 bits, or passes 2^48 bytes.
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{int64_t{1} << 32, int64_t{1} << 32},
        std::vector<int64_t>{int64_t{1} << 62, 4}, std::vector<int64_t>{INT64_MAX},
        std::vector<int64_t>{0, INT64_MAX}, std::vector<int64_t>{int64_t{1} << 47, 4}}) {
    ModelFile m = SmallModel();
    m.tensors[3].desc.dims = dims;
    ExpectInvalid(m, "is too large");
    m = SmallModel();
    m.tensors[3].desc.storage_format = Format::kFractalNz;
    m.tensors[3].desc.storage_dims = dims;
    ExpectInvalid(m, "storage shape");
  }
  // A gear that fills an input's -1 with a huge batch.
  ModelFile m = SmallModel();
  m.gears.gears[2] = {int64_t{1} << 62};
  ExpectInvalid(m, "gears: gear 2, model input 0");
  // Tensors that fit one by one but not together (the planner's arena would wrap).
  m = SmallModel();
  for (int i = 0; i < 8200; ++i) {
    m.tensors.push_back(
        Tensor(("e" + std::to_string(i)).c_str(), DataType::kFloat, {int64_t{1} << 45}));
  }
  ExpectInvalid(m, "more than 2^60 bytes together");
}

TEST(ModelFileValidationTest, ImageSizeAndDimsGears) {
  ModelFile m = SmallModel();
  m.tensors[0].desc.dims = {1, 3, -1, -1};
  m.tensors[0].desc.shape_range.clear();
  m.tensors[3].desc.dims = {-2};
  m.tensors[4].desc.dims = {-2};
  m.tensors[5].desc.dims = {-2};
  m.gears.kind = GearKind::kImageSize;
  m.gears.gears = {{224, 224}, {448, 320}};
  EXPECT_TRUE(ValidateModel(m, "img.om").ok()) << ValidateModel(m, "img.om").message();
  EXPECT_EQ(GearInputDims(m, 1), (std::vector<std::vector<int64_t>>{{1, 3, 448, 320}}));
  m.gears.gears[0] = {224};
  ExpectInvalid(m, "gears: gear 0 has 1 values, the inputs need 2");
  m.gears.gears[0] = {224, 224};
  m.tensors[0].desc.dims = {1, 3, -1, 8};
  ExpectInvalid(m, "has 1 -1 dims; image size gears need 2");

  // Dims gears: one value per -1 over the listed inputs, in order.
  m = SmallModel();
  m.tensors[0].desc.dims = {-1, -1};
  m.tensors[0].desc.shape_range.clear();
  m.tensors.push_back(Tensor("z", DataType::kFloat, {2, -1}));
  m.inputs.push_back({"z", 6});
  m.gears.kind = GearKind::kDims;
  m.gears.inputs = {0, 1};
  m.gears.gears = {{1, 4, 8}, {2, 4, 16}};
  EXPECT_TRUE(ValidateModel(m, "dims.om").ok()) << ValidateModel(m, "dims.om").message();
  EXPECT_EQ(GearInputDims(m, 1), (std::vector<std::vector<int64_t>>{{2, 4}, {2, 16}}));
  const auto bytes = SerializeModel(m);
  auto parsed = ParseModel(bytes.data(), bytes.size(), "dims.om");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ExpectSameModel(m, *parsed);
  m.gears.gears[1] = {2, 4};
  ExpectInvalid(m, "gears: gear 1 has 2 values, the inputs need 3");
  m.gears.gears[1] = {2, 4, 16};
  m.tensors[0].desc.dims = {-2};
  ExpectInvalid(m, "gears: model input 0 ('x') has an unknown rank");
}

TEST(ModelFileValidationTest, AbsurdCountsAreRefusedWithoutAllocating) {
  ModelFile m = SmallModel();
  auto bytes = SerializeModel(m);
  // payload: str name (4 + 5), str soc (4 + 11), u32 tensor count.
  const size_t tensors_at = kOmHeaderBytes + 4 + 5 + 4 + 11;
  uint32_t count = 0;
  std::memcpy(&count, bytes.data() + tensors_at, 4);
  ASSERT_EQ(count, 6u);
  std::memset(bytes.data() + tensors_at, 0xFF, 4);
  Reseal(&bytes);
  auto parsed = ParseModel(bytes.data(), bytes.size(), "huge.om");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kParseModel);
  EXPECT_TRUE(Has(parsed.status(), "tensors count 4294967295 is too large"))
      << parsed.status().message();

  // The weights size: the last u64 before the blob.
  bytes = SerializeModel(m);
  const size_t weights_at = bytes.size() - m.weights.size() - 8;
  uint64_t size = 0;
  std::memcpy(&size, bytes.data() + weights_at, 8);
  ASSERT_EQ(size, m.weights.size());
  size = uint64_t{1} << 62;
  std::memcpy(bytes.data() + weights_at, &size, 8);
  Reseal(&bytes);
  parsed = ParseModel(bytes.data(), bytes.size(), "huge.om");
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(Has(parsed.status(), "weights size 4611686018427387904 is larger"))
      << parsed.status().message();
}

TEST(ModelFileTest, TensorLifetimesFollowExecutionOrder) {
  const auto life = TensorLifetimes(SmallModel());
  ASSERT_EQ(life.size(), 6u);
  EXPECT_EQ(life[0].first, -1);  // x: model input, read by node 0
  EXPECT_EQ(life[0].last, 0);
  EXPECT_EQ(life[2].first, -1);  // b: constant, read by node 1
  EXPECT_EQ(life[2].last, 1);
  EXPECT_EQ(life[3].first, 0);  // t0
  EXPECT_EQ(life[3].last, 1);
  EXPECT_EQ(life[5].first, 2);  // y: model output, alive to the end
  EXPECT_EQ(life[5].last, 3);
  EXPECT_EQ(GearInputDims(SmallModel(), 2), (std::vector<std::vector<int64_t>>{{4, 4}}));
}

TEST(ModelFileTest, LoadModelFileReadsAndNamesThePath) {
  const auto missing = LoadModelFile("/nonexistent/dir/model.om");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidFile);
  EXPECT_TRUE(Has(missing.status(), "/nonexistent/dir/model.om")) << missing.status().message();

  const auto dir = std::filesystem::temp_directory_path() /
                   ("aclsim_model_file_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  EXPECT_EQ(LoadModelFile(dir.string()).status().code(), StatusCode::kInvalidFile);
  const auto path = (dir / "small.om").string();
  const auto bytes = SerializeModel(SmallModel());
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  auto loaded = LoadModelFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ExpectSameModel(SmallModel(), *loaded);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), 40);
  }
  loaded = LoadModelFile(path);
  EXPECT_EQ(loaded.status().code(), StatusCode::kReadModelFailure);
  EXPECT_TRUE(Has(loaded.status(), path)) << loaded.status().message();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace aclsim::core
