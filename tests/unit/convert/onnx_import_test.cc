// ImportOnnx on small models built in the test: mapping, folding, gears, precision modes,
// errors.
#include "convert/onnx_import.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/model_file.h"
#include "ops/op_library.h"
#include "tests/unit/convert/onnx_model_builder.h"

namespace aclsim::convert {
namespace {

using ops::DataType;
using testing::OnnxModelBuilder;

Result<core::ModelFile> Import(const OnnxModelBuilder& b, const OnnxImportOptions& options = {}) {
  const std::string bytes = b.Bytes();
  return ImportOnnx(bytes.data(), bytes.size(), "t.onnx", options, ops::OpLibrary::Builtin());
}

// Imports, validates, and checks the model survives serialisation.
core::ModelFile ImportValid(const OnnxModelBuilder& b, const OnnxImportOptions& options = {}) {
  auto m = Import(b, options);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok()) return {};
  Status valid = core::ValidateModel(m.value(), "t.om");
  EXPECT_TRUE(valid.ok()) << valid.message();
  const auto bytes = core::SerializeModel(m.value());
  auto parsed = core::ParseModel(bytes.data(), bytes.size(), "t.om");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return m.value();
}

const core::ModelTensor& OutputTensor(const core::ModelFile& m, size_t i) {
  return m.tensors[static_cast<size_t>(m.outputs[i].tensor)];
}

std::vector<int64_t> ConstInts(const core::ModelFile& m, int32_t tensor) {
  const auto& t = m.tensors[static_cast<size_t>(tensor)];
  EXPECT_TRUE(t.constant.has_value());
  std::vector<int64_t> v(t.constant->size / 8);
  std::memcpy(v.data(), m.weights.data() + t.constant->offset, t.constant->size);
  return v;
}

TEST(OnnxImportTest, AddBecomesOneAddNodeWithNamedIo) {
  const auto m = ImportValid(testing::AddModel());
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(m.nodes[0].type, "Add");
  EXPECT_EQ(m.nodes[0].name, "add");
  ASSERT_EQ(m.inputs.size(), 2u);
  EXPECT_EQ(m.inputs[0].name, "x");
  EXPECT_EQ(m.inputs[1].name, "y");
  ASSERT_EQ(m.outputs.size(), 1u);
  EXPECT_EQ(m.outputs[0].name, "z");
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kFloat);
  EXPECT_EQ(m.name, "test");
}

TEST(OnnxImportTest, ConvReluMapsAttributesAndStoresAlignedWeights) {
  OnnxImportOptions options;
  options.soc_version = "Ascend910B2";
  const auto m = ImportValid(testing::ConvReluModel(), options);
  EXPECT_EQ(m.soc_version, "Ascend910B2");
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes[0].type, "Conv2D");
  EXPECT_EQ(m.nodes[1].type, "Relu");
  const auto& attrs = m.nodes[0].attrs;
  EXPECT_EQ(std::get<std::vector<int64_t>>(attrs.at("pads")), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(std::get<std::vector<int64_t>>(attrs.at("strides")),
            (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{1, 4, 8, 8}));
  size_t constants = 0;
  for (const auto& t : m.tensors) {
    if (!t.constant) continue;
    ++constants;
    EXPECT_EQ(t.constant->offset % core::kModelWeightAlign, 0u);
  }
  EXPECT_EQ(constants, 2u);
  EXPECT_EQ(m.tensors[static_cast<size_t>(m.nodes[0].inputs[1])].desc.format, ops::Format::kNchw);
}

TEST(OnnxImportTest, MatMulAddKeepsFloat32ByDefault) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {2, 4});
  b.InitFloat("w", {4, 3}, std::vector<float>(12, 1.0f));
  b.InitFloat("bias", {3}, {1, 2, 3});
  b.Node("MatMul", {"x", "w"}, {"mm"}, "matmul");
  b.Node("Add", {"mm", "bias"}, {"y"}, "add");
  b.Output("y");
  const auto m = ImportValid(b);
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes[0].type, "BatchMatMulV2");
  EXPECT_EQ(m.nodes[1].type, "Add");
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kFloat);
}

TEST(OnnxImportTest, ShapeGatherConcatChainFoldsIntoAConstantShape) {
  const auto m = ImportValid(testing::ReshapeChainModel(2));
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(m.nodes[0].type, "Reshape");
  EXPECT_EQ(ConstInts(m, m.nodes[0].inputs[1]), (std::vector<int64_t>{2, -1}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{2, 12}));
  // Only the Reshape's inputs are stored: the folded chain's constants are gone.
  size_t constants = 0;
  for (const auto& t : m.tensors) constants += t.constant ? 1 : 0;
  EXPECT_EQ(constants, 1u);
}

TEST(OnnxImportTest, DynamicBatchGivesBatchGearsAndDynamicDims) {
  OnnxImportOptions options;
  options.input_shapes = {{"x", {-1, 3, 4}}};
  options.dynamic_batch_size = {1, 2, 4};
  const auto m = ImportValid(testing::ReshapeChainModel(5), options);
  EXPECT_EQ(m.gears.kind, core::GearKind::kBatch);
  EXPECT_EQ(m.gears.inputs, (std::vector<int32_t>{0}));
  EXPECT_EQ(m.gears.gears.size(), 3u);
  EXPECT_EQ(m.tensors[static_cast<size_t>(m.inputs[0].tensor)].desc.dims,
            (std::vector<int64_t>{-1, 3, 4}));
  // The shape chain cannot fold: the batch is only known per gear.
  EXPECT_GT(m.nodes.size(), 1u);
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kFloat);
  EXPECT_EQ(core::GearInputDims(m, 2)[0], (std::vector<int64_t>{4, 3, 4}));
}

TEST(OnnxImportTest, DynamicImageSizeAndDimsGears) {
  OnnxImportOptions options;
  options.input_shapes = {{"x", {1, 3, -1, -1}}};
  options.dynamic_image_size = {{8, 8}, {16, 12}};
  const auto m = ImportValid(testing::ConvReluModel(), options);
  EXPECT_EQ(m.gears.kind, core::GearKind::kImageSize);
  EXPECT_EQ(core::GearInputDims(m, 1)[0], (std::vector<int64_t>{1, 3, 16, 12}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims.size(), 4u);

  OnnxImportOptions dims;
  dims.input_shapes = {{"x", {-1, 3}}, {"y", {2, -1}}};
  dims.dynamic_dims = {{2, 3}, {4, 3}};
  const auto d = ImportValid(testing::AddModel(), dims);
  EXPECT_EQ(d.gears.kind, core::GearKind::kDims);
  EXPECT_EQ(d.gears.inputs, (std::vector<int32_t>{0, 1}));
  dims.dynamic_dims = {{2, 3, 4}};
  auto bad = Import(testing::AddModel(), dims);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidParam);
  EXPECT_NE(bad.status().message().find("has 3 values"), std::string::npos)
      << bad.status().message();
}

TEST(OnnxImportTest, InputFormatTagsFourDimensionalInputs) {
  OnnxImportOptions options;
  options.input_format = ops::Format::kNhwc;
  const auto m = ImportValid(testing::AddModel(), options);  // 2-D inputs stay ND
  EXPECT_EQ(m.tensors[static_cast<size_t>(m.inputs[0].tensor)].desc.format, ops::Format::kNd);
  const auto c = ImportValid(testing::ConvReluModel());
  EXPECT_EQ(c.tensors[static_cast<size_t>(c.inputs[0].tensor)].desc.format, ops::Format::kNchw);
}

TEST(OnnxImportTest, GearsWithoutDynamicDimsAreRefused) {
  OnnxImportOptions options;
  options.dynamic_batch_size = {1, 2};
  auto m = Import(testing::AddModel(), options);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidParam);
  EXPECT_NE(m.status().message().find("-1"), std::string::npos) << m.status().message();
}

TEST(OnnxImportTest, InputShapeOfAnUnknownInputIsRefused) {
  OnnxImportOptions options;
  options.input_shapes = {{"nope", {1}}};
  auto m = Import(testing::AddModel(), options);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidParam);
  EXPECT_NE(m.status().message().find("'nope'"), std::string::npos);
}

TEST(OnnxImportTest, OneErrorListsEveryUnsupportedOpWithItsNodes) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {2, 3});
  b.Node("Relu", {"x"}, {"r"}, "relu");
  b.Node("FancyOp", {"r"}, {"f1"}, "fancy_1");
  b.Node("FancyOp", {"f1"}, {"f2"}, "fancy_2");
  b.Node("OtherOp", {"r"}, {"o"}, "other");
  b.Node("Add", {"f2", "o"}, {"y"}, "add");
  b.Output("y");
  auto m = Import(b);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kOpTypeNotMatch);
  const std::string& msg = m.status().message();
  for (const char* word : {"t.onnx", "E16002", "FancyOp", "'fancy_1'", "OtherOp", "'other'"}) {
    EXPECT_NE(msg.find(word), std::string::npos) << word << " in " << msg;
  }
  // fancy_2 reads fancy_1's output: it is not reported separately.
  EXPECT_EQ(msg.find("fancy_2"), std::string::npos) << msg;
}

TEST(OnnxImportTest, UnsupportedFormsAreListedWithTheReason) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 2, 4, 4});
  auto* pool = b.Node("MaxPool", {"x"}, {"y", "indices"}, "pool");
  OnnxModelBuilder::Ints(pool, "kernel_shape", {2, 2});
  b.Output("y");
  b.Output("indices", onnx::TensorProto::INT64);
  auto m = Import(b);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("node 'pool' (MaxPool): MaxPool Indices output"),
            std::string::npos)
      << m.status().message();
}

std::vector<std::string> NodeTypes(const core::ModelFile& m) {
  std::vector<std::string> types;
  for (const auto& n : m.nodes) types.push_back(n.type);
  return types;
}

const std::vector<int64_t>& IntsAttr(const core::ModelNode& n, const std::string& name) {
  return std::get<std::vector<int64_t>>(n.attrs.at(name));
}

TEST(OnnxImportTest, ThreeDimensionalConvAndPoolingBecomeConv3DAndPool3D) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 2, 4, 4, 4});
  b.InitFloat("w", {2, 2, 1, 1, 1}, std::vector<float>(4, 1.0f));
  auto* conv = b.Node("Conv", {"x", "w"}, {"c"}, "conv3d");
  OnnxModelBuilder::Ints(conv, "pads", {1, 0, 0, 0, 1, 0});  // [d, h, w] begins, then ends
  OnnxModelBuilder::Ints(conv, "strides", {1, 1, 2});
  auto* pool = b.Node("AveragePool", {"c"}, {"y"}, "pool3d");
  OnnxModelBuilder::Ints(pool, "kernel_shape", {2, 2, 2});
  OnnxModelBuilder::Ints(pool, "strides", {2, 2, 2});
  OnnxModelBuilder::Int(pool, "count_include_pad", 1);
  b.Output("y");
  const auto m = ImportValid(b);
  ASSERT_EQ(NodeTypes(m), (std::vector<std::string>{"Conv3D", "AvgPool3D"}));
  EXPECT_EQ(IntsAttr(m.nodes[0], "pads"), (std::vector<int64_t>{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(IntsAttr(m.nodes[0], "strides"), (std::vector<int64_t>{1, 1, 1, 1, 2}));
  EXPECT_EQ(std::get<std::string>(m.nodes[0].attrs.at("data_format")), "NCDHW");
  EXPECT_EQ(IntsAttr(m.nodes[1], "ksize"), (std::vector<int64_t>{1, 1, 2, 2, 2}));
  EXPECT_TRUE(std::get<bool>(m.nodes[1].attrs.at("count_include_pad")));
  // Conv: [1, 2, 5, 5, 2]; pooling by 2: [1, 2, 2, 2, 1].
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{1, 2, 2, 2, 1}));
}

TEST(OnnxImportTest, DilatedMaxPoolRunsAsMaxPool3DOnAUnitDepth) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 1, 8, 8});
  auto* pool = b.Node("MaxPool", {"x"}, {"y"}, "pool");
  OnnxModelBuilder::Ints(pool, "kernel_shape", {2, 2});
  OnnxModelBuilder::Ints(pool, "dilations", {2, 3});
  b.Output("y");
  const auto m = ImportValid(b);
  ASSERT_EQ(NodeTypes(m), (std::vector<std::string>{"Unsqueeze", "MaxPool3D", "Squeeze"}));
  EXPECT_EQ(IntsAttr(m.nodes[1], "dilation"), (std::vector<int64_t>{1, 1, 1, 2, 3}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{1, 1, 6, 5}));
}

TEST(OnnxImportTest, OneDimensionalConvTransposeRunsAsConv2DTranspose) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 1, 3});
  b.InitFloat("w", {1, 2, 3}, std::vector<float>(6, 1.0f));
  b.Node("ConvTranspose", {"x", "w"}, {"y"}, "deconv");
  b.Output("y");
  const auto m = ImportValid(b);
  ASSERT_EQ(NodeTypes(m), (std::vector<std::string>{"Unsqueeze", "Conv2DTranspose", "Squeeze"}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{1, 2, 5}));
}

TEST(OnnxImportTest, ArgMaxSelectLastIndexSearchesTheReversedAxis) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {2, 5});
  auto* arg = b.Node("ArgMax", {"x"}, {"y"}, "argmax");
  OnnxModelBuilder::Int(arg, "axis", 1);
  OnnxModelBuilder::Int(arg, "select_last_index", 1);
  b.Output("y", onnx::TensorProto::INT64);
  const auto m = ImportValid(b);
  ASSERT_EQ(NodeTypes(m), (std::vector<std::string>{"GatherV2", "ArgMaxV2", "Sub", "ExpandDims"}));
  EXPECT_EQ(ConstInts(m, m.nodes[0].inputs[1]), (std::vector<int64_t>{4, 3, 2, 1, 0}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dims, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kInt64);
}

TEST(OnnxImportTest, SmallIntegerMaxRunsOnInt64AndIsCastBack) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::UINT8, {3});
  b.Input("y", onnx::TensorProto::UINT8, {3});
  b.Node("Max", {"x", "y"}, {"z"}, "max");
  b.Output("z", onnx::TensorProto::UINT8);
  const auto m = ImportValid(b);
  ASSERT_EQ(NodeTypes(m), (std::vector<std::string>{"Cast", "Cast", "Maximum", "Cast"}));
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kUint8);
}

TEST(OnnxImportTest, HostileWindowAttributesAreRefusedWithoutCrashing) {
  const int64_t huge = int64_t{1} << 62;
  for (const char* attr : {"strides", "dilations", "pads"}) {
    OnnxModelBuilder b;
    b.Input("x", onnx::TensorProto::FLOAT, {1, 1, 4, 4, 4});
    b.InitFloat("w", {1, 1, 2, 2, 2}, std::vector<float>(8, 1.0f));
    auto* conv = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
    OnnxModelBuilder::Ints(conv, attr,
                           std::string(attr) == "pads" ? std::vector<int64_t>(6, huge)
                                                       : std::vector<int64_t>{huge, 1, 1});
    b.Output("y");
    EXPECT_FALSE(Import(b).ok()) << attr;
  }
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {1, 1, 4, 4, 4});
  b.InitFloat("w", {1, 1, 2, 2, 2}, std::vector<float>(8, 1.0f));
  auto* deconv = b.Node("ConvTranspose", {"x", "w"}, {"y"}, "deconv");
  OnnxModelBuilder::Ints(deconv, "output_shape", {huge, huge, huge});
  b.Output("y");
  EXPECT_FALSE(Import(b).ok());
}

TEST(OnnxImportTest, ShapesPastTheLimitOfOneTensorAreRefused) {
  // Graph inputs, initializers and shapes produced by ops (Reshape to a huge constant shape).
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{int64_t{1} << 32, int64_t{1} << 32},
        std::vector<int64_t>{int64_t{1} << 62, 4}, std::vector<int64_t>{INT64_MAX}}) {
    OnnxModelBuilder input;
    input.Input("x", onnx::TensorProto::FLOAT, dims);
    input.Node("Relu", {"x"}, {"y"}, "relu");
    input.Output("y");
    EXPECT_FALSE(Import(input).ok());
    OnnxModelBuilder init;
    init.Input("x", onnx::TensorProto::FLOAT, {2});
    init.InitFloat("w", dims, {});
    init.Node("Add", {"x", "w"}, {"y"}, "add");
    init.Output("y");
    EXPECT_FALSE(Import(init).ok());
    OnnxModelBuilder reshape;
    reshape.Input("x", onnx::TensorProto::FLOAT, {2, 2});
    reshape.InitInt64("shape", {static_cast<int64_t>(dims.size())}, dims);
    reshape.Node("Expand", {"x", "shape"}, {"y"}, "expand");
    reshape.Output("y");
    EXPECT_FALSE(Import(reshape).ok());
  }
}

TEST(OnnxImportTest, ForceFp16CastsAroundCubeOpsAndFoldsWeights) {
  OnnxImportOptions options;
  options.precision_mode = PrecisionMode::kForceFp16;
  const auto m = ImportValid(testing::ConvReluModel(), options);
  std::vector<std::string> types;
  const core::ModelNode* conv = nullptr;
  for (const auto& n : m.nodes) {
    types.push_back(n.type);
    if (n.type == "Conv2D") conv = &n;
  }
  EXPECT_EQ(types, (std::vector<std::string>{"Cast", "Conv2D", "Cast", "Relu"}));
  ASSERT_NE(conv, nullptr);
  for (int32_t in : conv->inputs) {
    const auto& t = m.tensors[static_cast<size_t>(in)];
    EXPECT_EQ(t.desc.dtype, DataType::kFloat16) << t.desc.name;
  }
  EXPECT_EQ(OutputTensor(m, 0).desc.dtype, DataType::kFloat);
}

TEST(OnnxImportTest, OutNodesSelectOutputsAndPruneTheRest) {
  OnnxImportOptions options;
  options.out_nodes = {{"conv", 0}};
  const auto m = ImportValid(testing::ConvReluModel(), options);
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(m.nodes[0].type, "Conv2D");
  ASSERT_EQ(m.outputs.size(), 1u);
  EXPECT_EQ(m.outputs[0].name, "c");
  options.out_nodes = {{"nothing", 0}};
  auto bad = Import(testing::ConvReluModel(), options);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidParam);
}

TEST(OnnxImportTest, JunkAndTruncatedBytesAreRefusedWithoutCrashing) {
  const std::string good = testing::ConvReluModel().Bytes();
  const auto& ops = ops::OpLibrary::Builtin();
  for (size_t n = 0; n < good.size(); n += 7) {
    auto m = ImportOnnx(good.data(), n, "cut.onnx", {}, ops);
    if (!m.ok()) {
      EXPECT_NE(m.status().message().find("cut.onnx"), std::string::npos);
    }
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string junk = good;
    for (int k = 0; k < 4; ++k) junk[rng() % junk.size()] = static_cast<char>(rng());
    auto m = ImportOnnx(junk.data(), junk.size(), "junk.onnx", {}, ops);
    if (m.ok()) {
      EXPECT_TRUE(core::ValidateModel(m.value(), "junk.om").ok());
    }
  }
  const char text[] = "definitely not protobuf \xff\xff\xff";
  auto m = ImportOnnx(text, sizeof(text), "text.onnx", {}, ops);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kParseModel);
}

TEST(OnnxImportTest, ProgressReportsEveryNodeAndEndsAtTheTotal) {
  OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {4});
  std::string prev = "x";
  for (int i = 0; i < 250; ++i) {
    const std::string out = i == 249 ? "y" : "r" + std::to_string(i);
    b.Node("Relu", {prev}, {out}, "relu" + std::to_string(i));
    prev = out;
  }
  b.Output("y");
  OnnxImportOptions options;
  size_t calls = 0;
  size_t last_done = 0;
  size_t last_total = 0;
  options.progress = [&](size_t done, size_t total) {
    ++calls;
    EXPECT_GT(done, last_done);
    last_done = done;
    last_total = total;
  };
  const auto m = ImportValid(b, options);
  EXPECT_EQ(m.nodes.size(), 250u);
  EXPECT_EQ(calls, 250u);
  EXPECT_EQ(last_done, 250u);
  EXPECT_EQ(last_total, 250u);
}

TEST(OnnxImportTest, LayerNormInvStdDevIsRsqrtOfVariancePlusEpsilon) {
  OnnxModelBuilder b(17);
  b.Input("x", onnx::TensorProto::FLOAT, {2, 3});
  b.InitFloat("g", {3}, {1, 1, 1});
  b.Node("LayerNormalization", {"x", "g"}, {"y", "mean", "inv"}, "ln");
  b.Output("y");
  b.Output("mean");
  b.Output("inv");
  const auto m = ImportValid(b);
  std::vector<std::string> types;
  for (const auto& n : m.nodes) types.push_back(n.type);
  EXPECT_EQ(types, (std::vector<std::string>{"LayerNorm", "Adds", "Rsqrt"}));
  ASSERT_EQ(m.outputs.size(), 3u);
  EXPECT_EQ(m.outputs[2].name, "inv");
}

TEST(OnnxImportTest, MissingFileIsInvalidFile) {
  auto m = ImportOnnxFile("/nonexistent/model.onnx", {}, ops::OpLibrary::Builtin());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidFile);
  EXPECT_NE(m.status().message().find("/nonexistent/model.onnx"), std::string::npos);
}

TEST(OnnxImportTest, PrecisionModeNamesParse) {
  EXPECT_EQ(ParsePrecisionMode("force_fp32").value(), PrecisionMode::kForceFp32);
  EXPECT_EQ(ParsePrecisionMode("allow_mix_precision").value(), PrecisionMode::kAllowMixPrecision);
  EXPECT_EQ(ParsePrecisionMode("fp64").status().code(), StatusCode::kInvalidParam);
}

}  // namespace
}  // namespace aclsim::convert
