// atc --singleop: the JSON reader (errors name the op and the field) and the command itself.
#include "tools/atc/singleop_json.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include "core/model_file.h"
#include "core/op_model.h"
#include "ops/op_library.h"
#include "tools/atc/model_options.h"

namespace aclsim::atc {
namespace {

using ops::DataType;
using ops::Format;

std::string Error(std::string_view text) {
  auto ops = ParseSingleOpJson(text);
  EXPECT_FALSE(ops.ok()) << text;
  return ops.ok() ? std::string() : ops.status().message();
}

constexpr const char* kAdd = R"([{"op": "Add",
  "input_desc": [{"format": "ND", "shape": [3, 3], "type": "int32"},
                 {"format": "ND", "shape": [3, 3], "type": "int32"}],
  "output_desc": [{"format": "ND", "shape": [3, 3], "type": "int32"}]}])";

TEST(SingleOpJsonTest, ReadsTheCannSample) {
  auto ops = ParseSingleOpJson(kAdd);
  ASSERT_TRUE(ops.ok()) << ops.status().message();
  ASSERT_EQ(ops->size(), 1u);
  const auto& call = ops->at(0).call;
  EXPECT_EQ(call.type, "Add");
  ASSERT_EQ(call.inputs.size(), 2u);
  EXPECT_EQ(call.inputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(call.inputs[0].format, Format::kNd);
  EXPECT_EQ(call.inputs[0].dims, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(SingleOpFileName(ops->at(0)), "0_Add_3_2_3_3_3_2_3_3_3_2_3_3.om");  // as CANN
}

TEST(SingleOpJsonTest, ReadsEveryFieldKind) {
  auto ops = ParseSingleOpJson(R"({"op": "Conv2D", "name": "conv", "compile_flag": 0,
    "input_desc": [
      {"format": "NC1HWC0", "origin_format": "NCHW", "origin_shape": [1, 3, 4, 4],
       "shape": [1, 1, 4, 4, 16], "type": "FP16", "name": "x"},
      {"format": "nchw", "shape": [-1, 3, 3, 3], "shape_range": [[1, 8], [3, 3], [3, 3], [3, 3]],
       "type": "DT_FLOAT16"},
      {"format": "RESERVED", "type": "UNDEFINED"},
      {"format": "ND", "shape": [2, 2], "type": "bfloat16", "is_const": true,
       "const_value": [[1, 2], [3, 4]]}],
    "output_desc": [{"format": "NCHW", "shape": [-2], "type": "float16"}],
    "attr": [{"name": "b", "type": "bool", "value": true},
             {"name": "i", "type": "int", "value": -3},
             {"name": "f", "type": "float", "value": 0.25},
             {"name": "s", "type": "string", "value": "NCHW"},
             {"name": "t", "type": "data_type", "value": "int8"},
             {"name": "lb", "type": "list_bool", "value": [true, false]},
             {"name": "li", "type": "list_int", "value": [1, 1, 1, 1]},
             {"name": "lf", "type": "list_float", "value": [1, 2.5]},
             {"name": "ls", "type": "list_string", "value": ["a", "b"]},
             {"name": "lt", "type": "list_type", "value": ["float", 1]},
             {"name": "lli", "type": "list_list_int", "value": [[1], [2, 3]]}]})");
  ASSERT_TRUE(ops.ok()) << ops.status().message();
  const auto& op = ops->at(0);
  EXPECT_EQ(op.name, "conv");
  EXPECT_EQ(SingleOpFileName(op), "conv.om");
  const auto& x = op.call.inputs[0];
  EXPECT_EQ(x.format, Format::kNchw);
  EXPECT_EQ(x.dims, (std::vector<int64_t>{1, 3, 4, 4}));
  EXPECT_EQ(x.storage_format, Format::kNc1hwc0);
  EXPECT_EQ(x.storage_dims, (std::vector<int64_t>{1, 1, 4, 4, 16}));
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(op.call.inputs[1].shape_range.size(), 4u);
  EXPECT_TRUE(op.call.inputs[2].absent());
  ASSERT_TRUE(op.call.inputs[3].value.has_value());
  EXPECT_EQ(*op.call.inputs[3].value,
            (std::vector<uint8_t>{0x80, 0x3f, 0x00, 0x40, 0x40, 0x40, 0x80, 0x40}));
  EXPECT_EQ(op.call.outputs[0].dims, (std::vector<int64_t>{-2}));
  EXPECT_EQ(std::get<bool>(op.call.attrs.at("b")), true);
  EXPECT_EQ(std::get<int64_t>(op.call.attrs.at("i")), -3);
  EXPECT_EQ(std::get<float>(op.call.attrs.at("f")), 0.25f);
  EXPECT_EQ(std::get<DataType>(op.call.attrs.at("t")), DataType::kInt8);
  EXPECT_EQ(std::get<std::vector<DataType>>(op.call.attrs.at("lt")),
            (std::vector<DataType>{DataType::kFloat, DataType::kFloat16}));
  EXPECT_EQ(std::get<std::vector<std::vector<int64_t>>>(op.call.attrs.at("lli")).size(), 2u);
}

TEST(SingleOpJsonTest, ErrorsNameTheOpAndTheField) {
  EXPECT_NE(Error("[1, 2").find("not valid JSON"), std::string::npos);
  EXPECT_NE(Error("[]").find("empty"), std::string::npos);
  EXPECT_NE(Error(R"([{"input_desc": []}])").find("op 0 (?): op: is missing"), std::string::npos);
  const std::string ok_add = R"({"op": "Add", "input_desc": [{"format": "ND", "shape": [1],
     "type": "int32"}], "output_desc": [{"format": "ND", "shape": [1], "type": "int32"}]})";
  auto second = [&](const std::string& op) { return Error("[" + ok_add + ", " + op + "]"); };
  std::string e = second(R"({"op": "Add", "input_desc": [{"format": "ND", "shape": [1],
      "type": "floot16"}], "output_desc": []})");
  EXPECT_NE(e.find("op 1 (Add): input_desc[0].type: 'floot16' is not a data type"),
            std::string::npos)
      << e;
  e = second(R"({"op": "Add", "input_desc": [{"format": "XY", "shape": [1], "type": "int32"}],
      "output_desc": []})");
  EXPECT_NE(e.find("op 1 (Add): input_desc[0].format: 'XY'"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [{"format": "ND", "shape": [1, -4], "type": "int32"}],
      "output_desc": []})");
  EXPECT_NE(e.find("input_desc[0].shape: dim -4"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [{"format": "ND", "shape": [-1],
      "shape_range": [[5, 2]], "type": "int32"}], "output_desc": []})");
  EXPECT_NE(e.find("input_desc[0].shape_range[0]"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [], "output_desc": [{"format": "ND",
      "shape": [2], "type": "int32"}], "attr": [{"name": "a", "type": "bool", "value": 3}]})");
  EXPECT_NE(e.find("op 1 (Add): attr[0] 'a'.value: must be true or false"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [], "output_desc": [{"format": "ND",
      "shape": [2], "type": "int32"}], "attr": [{"name": "a", "type": "tensor", "value": 3}]})");
  EXPECT_NE(e.find("attribute type 'tensor'"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "int32",
      "is_const": true, "const_value": [1, 2, 3]}], "output_desc": []})");
  EXPECT_NE(e.find("input_desc[0].const_value: has 3 values"), std::string::npos) << e;
  e = second(R"({"op": "Add", "inputs": []})");
  EXPECT_NE(e.find("op 1 (Add): inputs: unknown key"), std::string::npos) << e;
  e = second(R"({"op": "Add", "input_desc": [], "output_desc": [{"format": "ND",
      "shape": [2], "type": "UNDEFINED"}]})");
  EXPECT_NE(e.find("output_desc[0].type: an output cannot be omitted"), std::string::npos) << e;
  e = Error(R"([{"op": "Add", "name": "x", "input_desc": [], "output_desc": [{"format": "ND",
      "shape": [2], "type": "int32"}]}, {"op": "Sub", "name": "x", "input_desc": [],
      "output_desc": [{"format": "ND", "shape": [2], "type": "int32"}]}])");
  EXPECT_NE(e.find("op 1 (Sub): name: 'x' is already the name of op 0"), std::string::npos) << e;
}

TEST(SingleOpJsonTest, ShapesPastTheLimitOfOneTensorAreRefused) {
  for (const char* shape :
       {"[4294967296, 4294967296]", "[9223372036854775807]", "[4611686018427387904, 4]",
        "[0, 9223372036854775807]", "[1099511627776, 1099511627776]"}) {
    for (const char* extra : {"", R"(, "is_const": true, "const_value": [])"}) {
      const std::string e = Error(fmt::format(
          R"([{{"op": "Add", "input_desc": [{{"format": "ND", "shape": {}, "type": "int32"{}}}],
              "output_desc": []}}])",
          shape, extra));
      EXPECT_NE(e.find("op 0 (Add): input_desc[0].shape: "), std::string::npos) << e;
      EXPECT_NE(e.find("too large"), std::string::npos) << e;
    }
  }
  // Numbers that are no int64 at all.
  for (const char* shape : {"[18446744073709551615]", "[1e30]", "[2.5]", "[true]", "[\"4\"]"}) {
    const std::string e = Error(fmt::format(
        R"([{{"op": "Add", "input_desc": [{{"format": "ND", "shape": {}, "type": "int32"}}],
            "output_desc": []}}])",
        shape));
    EXPECT_NE(e.find("input_desc[0].shape"), std::string::npos) << shape << ": " << e;
  }
}

TEST(SingleOpJsonTest, CheckAgainstTheOpLibraryNamesTheOp) {
  const auto& library = ops::OpLibrary::Builtin();
  auto ops = ParseSingleOpJson(std::string("[") + R"({"op": "Add",
    "input_desc": [{"format": "ND", "shape": [3], "type": "int32"},
                   {"format": "ND", "shape": [3], "type": "int32"}],
    "output_desc": [{"format": "ND", "shape": [3], "type": "int32"}]},
    {"op": "NoSuchOp", "input_desc": [], "output_desc": [{"format": "ND", "shape": [3],
     "type": "int32"}]}])");
  ASSERT_TRUE(ops.ok()) << ops.status().message();
  Status status = CheckSingleOps(library, ops.value(), nullptr);
  EXPECT_EQ(status.code(), StatusCode::kOpTypeNotMatch);
  EXPECT_NE(status.message().find("op 1 (NoSuchOp)"), std::string::npos) << status.message();
  auto bad = ParseSingleOpJson(R"([{"op": "Add",
    "input_desc": [{"format": "ND", "shape": [3], "type": "int32"},
                   {"format": "ND", "shape": [4], "type": "int32"}],
    "output_desc": [{"format": "ND", "shape": [3], "type": "int32"}]}])");
  ASSERT_TRUE(bad.ok());
  status = CheckSingleOps(library, bad.value(), nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("op 0 (Add): ", 0), 0u) << status.message();
}

TEST(SingleOpJsonTest, MutatedFilesNeverCrash) {
  std::ifstream in(std::string(ACLSIM_ATC_DATA) + "/ops.json");
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(ParseSingleOpJson(good).ok());
  std::mt19937 rng(42);
  const char kBytes[] = "[]{}\",:-0123456789eE.aZ \n";
  for (int round = 0; round < 3000; ++round) {
    std::string text = good;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = kBytes[rng() % (sizeof(kBytes) - 1)];
          break;
        case 1:
          text.erase(at, 1 + rng() % 8);
          break;
        default:
          text.insert(at, 1, kBytes[rng() % (sizeof(kBytes) - 1)]);
      }
    }
    auto ops = ParseSingleOpJson(text);
    if (ops.ok()) {
      for (const auto& op : ops.value()) EXPECT_FALSE(SingleOpFileName(op).empty());
    } else {
      EXPECT_FALSE(ops.status().message().empty());
    }
  }
}

// --- the command ----------------------------------------------------------------------------

class AtcCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = std::filesystem::temp_directory_path() /
           ("aclsim_atc_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(out_);
  }
  void TearDown() override { std::filesystem::remove_all(out_); }
  int Run(const std::string& args) {
    const std::string cmd =
        std::string(ACLSIM_ATC_PATH) + " " + args + " 2>" + (out_.string() + ".err");
    const int rc = std::system(cmd.c_str());
    std::ifstream err(out_.string() + ".err");
    stderr_.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
    std::filesystem::remove(out_.string() + ".err");
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  std::filesystem::path out_;
  std::string stderr_;
};

TEST_F(AtcCommandTest, WritesOneModelPerOp) {
  ASSERT_EQ(Run(std::string("--singleop=") + ACLSIM_ATC_DATA +
                "/ops.json --output=" + out_.string() + " --soc_version=Ascend910B2 --log=error"),
            0)
      << stderr_;
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(out_)) {
    names.insert(entry.path().filename().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    auto model = core::ParseOpModel(bytes.data(), bytes.size(), entry.path().string());
    ASSERT_TRUE(model.ok()) << model.status().message();
    EXPECT_EQ(model->soc_version, "Ascend910B2");
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"0_GEMM_1_2_16_16_1_2_16_16_1_2_16_16_1_2_1_2_1_2_16_16.om",
                                   "add_int32.om", "2_Add_0_2_-1_4_0_2_4_0_2_-1_4.om"}));
}

TEST_F(AtcCommandTest, HostileInputPathsFailFastWithAMessage) {
  // A directory, a device that never ends and a FIFO nobody writes: refused before reading,
  // with a message and a non-zero status, never an abort or a hang.
  const std::string fifo = out_.string() + ".fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string dir = std::filesystem::temp_directory_path().string();
  for (const std::string& input : {dir, std::string("/dev/zero"), fifo}) {
    for (const char* option : {"--singleop=", "--model="}) {
      std::string args =
          option + input + " --output=" + out_.string() + " --soc_version=Ascend910B2 --log=error";
      if (std::string(option) == "--model=") args += " --framework=5";
      const int rc = Run(args);
      EXPECT_NE(rc, 0) << args;
      EXPECT_NE(rc, -1) << args << ": killed by a signal";
      EXPECT_FALSE(stderr_.empty()) << args;
      EXPECT_EQ(stderr_.find("terminate called"), std::string::npos) << stderr_;
    }
  }
  std::filesystem::remove(fifo);
}

TEST_F(AtcCommandTest, InferenceSocVersionsOfTheSampleReadmesCompile) {
  // Most Ascend sample READMEs pass --soc_version=Ascend310 (first generation) or an Ascend310B.
  for (const char* soc : {"Ascend310", "Ascend310B1", "Ascend310B4", "Ascend310P3"}) {
    ASSERT_EQ(Run(std::string("--singleop=") + ACLSIM_ATC_DATA +
                  "/ops.json --output=" + out_.string() + " --soc_version=" + soc + " --log=error"),
              0)
        << soc << ": " << stderr_;
    size_t models = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out_)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
      auto model = core::ParseOpModel(bytes.data(), bytes.size(), entry.path().string());
      ASSERT_TRUE(model.ok()) << model.status().message();
      EXPECT_EQ(model->soc_version, soc);
      ++models;
    }
    EXPECT_EQ(models, 3u) << soc;
    std::filesystem::remove_all(out_);
  }
}

TEST_F(AtcCommandTest, InvalidOpFailsNamingOpAndField) {
  const auto json = out_.string() + ".json";
  std::ofstream(json) << R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [2],
      "type": "int32"}, {"format": "ND", "shape": [2], "type": "int32"}],
      "output_desc": [{"format": "ND", "shape": [2], "type": "int32"}]},
      {"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "typ": "int32"}],
      "output_desc": []}])";
  EXPECT_EQ(Run("--singleop=" + json + " --output=" + out_.string() + " --soc_version=Ascend910B2"),
            2);
  std::filesystem::remove(json);
  EXPECT_NE(stderr_.find("op 1 (Add): input_desc[0].type: is missing"), std::string::npos)
      << stderr_;
  EXPECT_FALSE(std::filesystem::exists(out_));  // nothing written
}

TEST_F(AtcCommandTest, UsageErrors) {
  const std::string json = std::string("--singleop=") + ACLSIM_ATC_DATA + "/ops.json";
  EXPECT_EQ(Run(json + " --output=" + out_.string() + " --soc_version=Ascend999"), 1);
  EXPECT_NE(stderr_.find("not a known SoC"), std::string::npos) << stderr_;
  EXPECT_NE(stderr_.find("Ascend310, Ascend310B1"), std::string::npos) << stderr_;  // the list
  EXPECT_EQ(Run(json + " --output=" + out_.string()), 1);
  EXPECT_NE(stderr_.find("--soc_version is required"), std::string::npos) << stderr_;
  EXPECT_EQ(Run("--framework=3 --model=m.pb --output=x --soc_version=Ascend910B2"), 1);
  EXPECT_NE(stderr_.find("only ONNX (--framework=5) is supported"), std::string::npos) << stderr_;
  EXPECT_EQ(Run(json + " --mode=1 --output=x --soc_version=Ascend910B2"), 1);
  EXPECT_NE(stderr_.find("--mode=1 is not supported"), std::string::npos) << stderr_;
  EXPECT_EQ(Run(json + " --bogus=1 --output=x --soc_version=Ascend910B2"), 1);
  EXPECT_NE(stderr_.find("unknown option --bogus"), std::string::npos) << stderr_;
  EXPECT_EQ(Run("--singleop=/nonexistent.json --output=x --soc_version=Ascend910B2"), 2);
}

// --- atc --model --------------------------------------------------------------------------------

TEST(AtcModelOptionsTest, ParsesCannOptionStrings) {
  auto shapes = ParseInputShape("a:1,3,224,224;b:-1,10;c:");
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  ASSERT_EQ(shapes.value().size(), 3u);
  EXPECT_EQ(shapes.value()[1].first, "b");
  EXPECT_EQ(shapes.value()[1].second, (std::vector<int64_t>{-1, 10}));
  EXPECT_TRUE(shapes.value()[2].second.empty());
  EXPECT_FALSE(ParseInputShape("a1,2").ok());
  EXPECT_FALSE(ParseInputShape("a:1,-3").ok());
  EXPECT_EQ(ParseDynamicImage("224,224;448,448").value().size(), 2u);
  EXPECT_FALSE(ParseDynamicImage("224").ok());
  EXPECT_EQ(ParseDynamicDims("1,2;4,8").value()[1], (std::vector<int64_t>{4, 8}));
  auto nodes = ParseOutNodes("conv:0;fc/add:1");
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes.value()[1], (std::pair<std::string, int>{"fc/add", 1}));
  EXPECT_FALSE(ParseOutNodes("conv").ok());
  EXPECT_EQ(ParseInputFormat("NHWC").value(), ops::Format::kNhwc);
  EXPECT_FALSE(ParseInputFormat("HWCN").ok());
  auto options = ModelOptions({{"precision_mode", "force_fp16"}, {"dynamic_batch_size", "1,2"}});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options.value().precision_mode, convert::PrecisionMode::kForceFp16);
  EXPECT_EQ(options.value().dynamic_batch_size, (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(ModelOptions({{"precision_mode", "fp8"}}).ok());
}

#ifdef ACLSIM_HAVE_ONNX
TEST_F(AtcCommandTest, ModelWritesAGraphModelNamedLikeCann) {
  ASSERT_EQ(Run(std::string("--model=") + ACLSIM_ATC_DATA + "/conv_relu.onnx --framework=5 " +
                "--output=" + (out_ / "sub" / "net").string() +
                " --soc_version=Ascend910B2 --input_shape=x:-1,3,8,8 --dynamic_batch_size=1,8"),
            0)
      << stderr_;
  auto model = core::LoadModelFile((out_ / "sub" / "net.om").string());
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->soc_version, "Ascend910B2");
  EXPECT_EQ(model->gears.kind, core::GearKind::kBatch);
  ASSERT_EQ(model->inputs.size(), 1u);
  EXPECT_EQ(model->inputs[0].name, "x");
}

TEST_F(AtcCommandTest, ModelConversionFailuresExitTwo) {
  EXPECT_EQ(Run(std::string("--model=") + ACLSIM_ATC_DATA + "/unsupported.onnx --framework=5 " +
                "--output=" + (out_ / "u").string() + " --soc_version=Ascend910B2"),
            2);
  EXPECT_NE(stderr_.find("FancyOp"), std::string::npos) << stderr_;
  EXPECT_EQ(Run("--model=x.onnx --framework=5 --output=x --soc_version=Ascend999"), 1);
}
#endif

}  // namespace
}  // namespace aclsim::atc
