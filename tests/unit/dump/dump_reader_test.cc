// aclsim-dump-reader (tools/dump_reader) on files written with the format library: text,
// --json, --npy, and the refusals.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "dfx/dump_file.h"

namespace {

namespace dump = aclsim::dfx::dump;
namespace fs = std::filesystem;

class DumpReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aclsim_dump_reader_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A file holding Relu's input and output, as a model dump writes it.
  std::string WriteSample(bool with_stats = false) {
    dump::DumpRecord record;
    record.op_type = "Relu";
    record.op_name = "relu";
    record.model_name = "add_relu";
    record.model_id = 2;
    record.step = 1;
    record.task_id = 9;
    record.stream_id = 4;
    const float in[4] = {-1.5F, 2, -3, 4};
    const float out[4] = {0, 2, 0, 4};
    for (int k = 0; k < 2; ++k) {
      dump::DumpTensor tensor;
      tensor.kind = k == 0 ? dump::TensorKind::kInput : dump::TensorKind::kOutput;
      tensor.dtype = 0;
      tensor.dims = {2, 2};
      const auto* bytes = reinterpret_cast<const uint8_t*>(k == 0 ? in : out);
      tensor.data.assign(bytes, bytes + 16);
      tensor.bytes = 16;
      record.tensors.push_back(tensor);
    }
    if (with_stats) {
      dump::DumpTensor stats;
      stats.kind = dump::TensorKind::kOutput;
      stats.index = 1;
      stats.payload = dump::Payload::kStats;
      stats.bytes = 64;
      stats.stats = {-1, 1, 0, 16, 0};
      record.tensors.push_back(stats);
    }
    const std::string path = (dir_ / "Relu.relu.9.4.1764640000000000").string();
    EXPECT_TRUE(dump::WriteFile(path, record).ok());
    return path;
  }

  // Runs the reader with `args`; returns its exit status, stdout+stderr in *output.
  int Reader(const std::string& args, std::string* output) {
    const fs::path log = dir_ / "reader.log";
    const std::string command =
        std::string(DUMP_READER_PATH) + " " + args + " > " + log.string() + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    *output = text.str();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
};

TEST_F(DumpReaderTest, PrintsTheHeaderAndEveryTensorWithItsStatistics) {
  const std::string path = WriteSample();
  std::string output;
  ASSERT_EQ(Reader(path, &output), 0) << output;
  EXPECT_NE(output.find("relu (type Relu)"), std::string::npos) << output;
  EXPECT_NE(output.find("add_relu (id 2), step 1"), std::string::npos) << output;
  EXPECT_NE(output.find("task 9"), std::string::npos) << output;
  EXPECT_NE(output.find("input 0: float32 ND [2, 2], 16 bytes, min -3 max 4 mean 0.375"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("output 0: float32 ND [2, 2], 16 bytes, min 0 max 4 mean 1.5"),
            std::string::npos)
      << output;
}

TEST_F(DumpReaderTest, JsonListsTheSameFields) {
  const std::string path = WriteSample(/*with_stats=*/true);
  std::string output;
  ASSERT_EQ(Reader(path + " --json", &output), 0) << output;
  const auto json = nlohmann::json::parse(output, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << output;
  EXPECT_EQ(json["op_type"], "Relu");
  EXPECT_EQ(json["model_id"], 2);
  ASSERT_EQ(json["tensors"].size(), 3u);
  EXPECT_EQ(json["tensors"][0]["kind"], "input");
  EXPECT_EQ(json["tensors"][0]["dims"], nlohmann::json::array({2, 2}));
  EXPECT_EQ(json["tensors"][1]["max"], 4.0);
  EXPECT_EQ(json["tensors"][2]["payload"], "stats");
  EXPECT_EQ(json["tensors"][2]["count"], 16);
}

TEST_F(DumpReaderTest, NpyWritesOneFilePerTensor) {
  const std::string path = WriteSample();
  std::string output;
  const fs::path npy = dir_ / "npy";
  ASSERT_EQ(Reader(path + " --npy " + npy.string(), &output), 0) << output;
  const fs::path input = npy / "Relu.relu.9.4.1764640000000000.input.0.npy";
  const fs::path result = npy / "Relu.relu.9.4.1764640000000000.output.0.npy";
  ASSERT_TRUE(fs::exists(input)) << output;
  ASSERT_TRUE(fs::exists(result));
  EXPECT_EQ(fs::file_size(input) % 16, 0u);  // a 64-byte-aligned header + 16 bytes
  std::ifstream in(result, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  float values[4];
  std::memcpy(values, bytes.data() + bytes.size() - 16, 16);
  EXPECT_EQ(values[1], 2.0F);
  EXPECT_EQ(values[3], 4.0F);
}

TEST_F(DumpReaderTest, StatisticsOnlyTensorsCannotBecomeNpy) {
  const std::string path = WriteSample(/*with_stats=*/true);
  std::string output;
  EXPECT_EQ(Reader(path + " --npy " + (dir_ / "npy").string(), &output), 2) << output;
  EXPECT_NE(output.find("statistics only"), std::string::npos) << output;
}

TEST_F(DumpReaderTest, RefusesMissingAndMalformedFiles) {
  std::string output;
  EXPECT_EQ(Reader((dir_ / "missing").string(), &output), 1);
  EXPECT_NE(output.find("cannot open"), std::string::npos) << output;
  const fs::path junk = dir_ / "junk";
  std::ofstream(junk) << "this is not a dump file";
  EXPECT_EQ(Reader(junk.string(), &output), 1);
  EXPECT_NE(output.find("bad magic"), std::string::npos) << output;
  EXPECT_NE(Reader("", &output), 0);  // FILE is required
}

}  // namespace
