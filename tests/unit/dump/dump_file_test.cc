// The data-dump file format (src/dfx/dump_file.h): round trips, refusals, statistics, .npy.
#include "dfx/dump_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/float16.h"

namespace {

namespace dump = aclsim::dfx::dump;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

dump::DumpRecord Sample() {
  dump::DumpRecord record;
  record.op_type = "Add";
  record.op_name = "block1/add";
  record.model_name = "net";
  record.model_id = 3;
  record.step = 7;
  record.device_id = 1;
  record.stream_id = 5;
  record.task_id = 42;
  record.timestamp_us = 1764640000000000;
  dump::DumpTensor in;
  in.kind = dump::TensorKind::kInput;
  in.index = 1;
  in.dtype = 0;  // float32
  in.format = 0;
  in.dims = {2, 3};
  in.address = 0x1000;
  in.data = Bytes<float>({1, -2, 3, -4, 5, -6});
  in.bytes = in.data.size();
  dump::DumpTensor out;
  out.kind = dump::TensorKind::kOutput;
  out.index = 0;
  out.dtype = 3;  // int32
  out.dims = {};
  out.payload = dump::Payload::kStats;
  out.bytes = 4;
  out.stats = {-1, 9, 2.5, 4, 1};
  record.tensors = {in, out};
  return record;
}

TEST(DumpFileTest, EncodeDecodeRoundTripsEveryField) {
  const dump::DumpRecord record = Sample();
  const std::vector<uint8_t> bytes = dump::Encode(record);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(std::memcmp(bytes.data(), "ACLSDMP", 8), 0);
  auto decoded = dump::Decode(bytes.data(), bytes.size(), "memory");
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->op_type, "Add");
  EXPECT_EQ(decoded->op_name, "block1/add");
  EXPECT_EQ(decoded->model_name, "net");
  EXPECT_EQ(decoded->model_id, 3u);
  EXPECT_EQ(decoded->step, 7u);
  EXPECT_EQ(decoded->device_id, 1u);
  EXPECT_EQ(decoded->stream_id, 5u);
  EXPECT_EQ(decoded->task_id, 42u);
  EXPECT_EQ(decoded->timestamp_us, 1764640000000000u);
  ASSERT_EQ(decoded->tensors.size(), 2u);
  const auto& in = decoded->tensors[0];
  EXPECT_EQ(in.kind, dump::TensorKind::kInput);
  EXPECT_EQ(in.index, 1u);
  EXPECT_EQ(in.dtype, 0);
  EXPECT_EQ(in.format, 0);
  EXPECT_EQ(in.dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(in.address, 0x1000u);
  EXPECT_EQ(in.bytes, 24u);
  EXPECT_EQ(in.data, record.tensors[0].data);
  const auto& out = decoded->tensors[1];
  EXPECT_EQ(out.kind, dump::TensorKind::kOutput);
  EXPECT_EQ(out.payload, dump::Payload::kStats);
  EXPECT_TRUE(out.dims.empty());
  EXPECT_EQ(out.bytes, 4u);
  EXPECT_EQ(out.stats.min, -1);
  EXPECT_EQ(out.stats.max, 9);
  EXPECT_EQ(out.stats.mean, 2.5);
  EXPECT_EQ(out.stats.count, 4u);
  EXPECT_EQ(out.stats.nan_count, 1u);
  EXPECT_TRUE(out.data.empty());
}

TEST(DumpFileTest, WriteFileAndReadFileRoundTrip) {
  const std::string path = ::testing::TempDir() + "/dump_file_test_roundtrip";
  ASSERT_TRUE(dump::WriteFile(path, Sample()).ok());
  auto read = dump::ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->tensors.size(), 2u);
  std::remove(path.c_str());
  auto missing = dump::ReadFile(path);
  EXPECT_EQ(missing.status().code(), aclsim::StatusCode::kInvalidFile);
  auto unwritable = dump::WriteFile("/nonexistent-dir/x", Sample());
  EXPECT_EQ(unwritable.code(), aclsim::StatusCode::kWriteFile);
}

TEST(DumpFileTest, DecodeRefusesBadMagicVersionTruncationAndTrailingBytes) {
  const std::vector<uint8_t> good = dump::Encode(Sample());
  auto expect_refused = [](const std::vector<uint8_t>& bytes, const char* words) {
    auto decoded = dump::Decode(bytes.data(), bytes.size(), "case");
    ASSERT_FALSE(decoded.ok()) << words;
    EXPECT_EQ(decoded.status().code(), aclsim::StatusCode::kParseFile);
    EXPECT_NE(decoded.status().message().find(words), std::string::npos)
        << decoded.status().message();
    EXPECT_NE(decoded.status().message().find("case"), std::string::npos);
  };
  std::vector<uint8_t> magic = good;
  magic[0] = 'X';
  expect_refused(magic, "bad magic");
  std::vector<uint8_t> version = good;
  version[8] = 9;
  expect_refused(version, "version 9");
  for (size_t cut : {size_t{3}, size_t{20}, good.size() - 1}) {
    expect_refused(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(cut)),
                   "truncated");
  }
  // Cut in the tensor headers: the count no longer fits what is left.
  expect_refused(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(90)),
                 "cannot fit");
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  expect_refused(trailing, "unexpected bytes");
}

TEST(DumpFileTest, DecodeRefusesImpossibleCountsAndRanks) {
  dump::DumpRecord record = Sample();
  record.tensors.resize(1);
  std::vector<uint8_t> bytes = dump::Encode(record);
  // The tensor count follows the fixed header: find it by re-encoding with 0 tensors.
  dump::DumpRecord empty = record;
  empty.tensors.clear();
  const size_t count_at = dump::Encode(empty).size() - 4;
  std::vector<uint8_t> many = bytes;
  const uint32_t huge = 0x7fffffff;
  std::memcpy(many.data() + count_at, &huge, 4);
  auto decoded = dump::Decode(many.data(), many.size(), "many");
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("cannot fit"), std::string::npos);
  std::vector<uint8_t> rank = bytes;
  const uint32_t big_rank = 1000;
  std::memcpy(rank.data() + count_at + 4 + 16, &big_rank, 4);  // after kind..format
  decoded = dump::Decode(rank.data(), rank.size(), "rank");
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("rank 1000"), std::string::npos)
      << decoded.status().message();
}

TEST(DumpFileTest, StatsOfFloatHalfBf16IntAndBoolIgnoreNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto f32 = Bytes<float>({1.5F, nan, -3, 4});
  auto stats = dump::ComputeStats(0, f32.data(), f32.size());
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->min, -3);
  EXPECT_EQ(stats->max, 4);
  EXPECT_DOUBLE_EQ(stats->mean, 2.5 / 3);
  EXPECT_EQ(stats->count, 3u);
  EXPECT_EQ(stats->nan_count, 1u);

  const auto f16 = Bytes<uint16_t>({aclsim::FloatToHalf(0.5F), aclsim::FloatToHalf(-2)});
  stats = dump::ComputeStats(1, f16.data(), f16.size());
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->min, -2);
  EXPECT_EQ(stats->max, 0.5);

  const auto bf16 = Bytes<uint16_t>({0x3f80, 0xc000});  // 1.0, -2.0
  stats = dump::ComputeStats(27, bf16.data(), bf16.size());
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->min, -2);
  EXPECT_EQ(stats->max, 1);

  const auto i64 = Bytes<int64_t>({-5, 10});
  stats = dump::ComputeStats(9, i64.data(), i64.size());
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->mean, 2.5);

  const std::vector<uint8_t> flags = {1, 0, 1, 1};
  stats = dump::ComputeStats(12, flags.data(), flags.size());
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->mean, 0.75);

  EXPECT_FALSE(dump::ComputeStats(13, flags.data(), flags.size()));  // string
  EXPECT_FALSE(dump::ComputeStats(16, f32.data(), f32.size()));      // complex64
  stats = dump::ComputeStats(0, nullptr, 0);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->count, 0u);
}

TEST(DumpFileTest, NpyHasAnAlignedHeaderTheShapeAndTheData) {
  dump::DumpTensor tensor = Sample().tensors[0];
  auto npy = dump::ToNpy(tensor);
  ASSERT_TRUE(npy.ok()) << npy.status().message();
  ASSERT_GT(npy->size(), 10u);
  EXPECT_EQ(std::memcmp(npy->data(), "\x93NUMPY\x01\x00", 8), 0);
  const size_t header = (*npy)[8] | ((*npy)[9] << 8);
  EXPECT_EQ((10 + header) % 64, 0u);
  const std::string text(npy->begin() + 10, npy->begin() + 10 + static_cast<long>(header));
  EXPECT_NE(text.find("'descr': '<f4'"), std::string::npos) << text;
  EXPECT_NE(text.find("'shape': (2, 3)"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(npy->size(), 10 + header + 24);
  EXPECT_EQ(std::memcmp(npy->data() + 10 + header, tensor.data.data(), 24), 0);

  tensor.dims = {6};
  npy = dump::ToNpy(tensor);
  ASSERT_TRUE(npy.ok());
  EXPECT_NE(std::string(npy->begin(), npy->end()).find("(6,)"), std::string::npos);

  dump::DumpTensor bf16;
  bf16.dtype = 27;
  bf16.dims = {2};
  bf16.data = Bytes<uint16_t>({0x3f80, 0xc000});
  npy = dump::ToNpy(bf16);
  ASSERT_TRUE(npy.ok());
  float values[2];
  std::memcpy(values, npy->data() + npy->size() - 8, 8);
  EXPECT_EQ(values[0], 1.0F);
  EXPECT_EQ(values[1], -2.0F);

  dump::DumpTensor wrong = tensor;
  wrong.dims = {5};
  EXPECT_EQ(dump::ToNpy(wrong).status().code(), aclsim::StatusCode::kParseFile);
  dump::DumpTensor text_tensor;
  text_tensor.dtype = 13;
  EXPECT_EQ(dump::ToNpy(text_tensor).status().code(), aclsim::StatusCode::kFeatureUnsupported);
  EXPECT_EQ(dump::ToNpy(Sample().tensors[1]).status().code(),
            aclsim::StatusCode::kFeatureUnsupported);
}

TEST(DumpFileTest, NamesOfDtypesFormatsAndFileNameParts) {
  EXPECT_EQ(dump::DtypeName(1), "float16");
  EXPECT_EQ(dump::DtypeName(99), "dtype(99)");
  EXPECT_EQ(dump::FormatName(29), "FRACTAL_NZ");
  EXPECT_EQ(dump::FormatName(-7), "format(-7)");
  EXPECT_EQ(dump::DtypeBits(9), 64u);
  EXPECT_EQ(dump::ElementCount({2, 3, 4}), 24u);
  EXPECT_EQ(dump::ElementCount({}), 1u);
  EXPECT_EQ(dump::FileNamePart("a.b/c\\d e"), "a_b_c_d_e");
  EXPECT_EQ(dump::FileNamePart(""), "_");
}

}  // namespace
