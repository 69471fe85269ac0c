// aclsim-dump-reader: prints a data-dump file (docs/dump.md) and converts its tensors.
//
//   aclsim-dump-reader FILE [--json] [--npy DIR]
//
// Prints the header (op, model, step, device / stream / task, timestamp) and one line per
// tensor: input/output and index, dtype, format, dims, bytes, and min / max / mean for
// numeric dtypes. --json prints the same as one JSON object instead. --npy DIR also writes
// every tensor as DIR/<file name>.<input|output>.<index>.npy (NumPy format 1.0; bfloat16 as
// float32). Exit status: 0 on success, 1 on a usage error or a file that cannot be read or
// parsed (the message says where), 2 if a tensor could not be converted or written.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/guarded_main.h"
#include "dfx/dump_file.h"

namespace {

namespace dump = aclsim::dfx::dump;

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "aclsim-dump-reader: %s\n", message.c_str());
  return code;
}

const char* KindName(dump::TensorKind kind) {
  switch (kind) {
    case dump::TensorKind::kInput:
      return "input";
    case dump::TensorKind::kOutput:
      return "output";
    case dump::TensorKind::kWorkspace:
      return "workspace";
  }
  return "output";
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

// The stats of a tensor: stored ones, or computed from its data (nullopt if not numeric).
std::optional<dump::TensorStats> StatsOf(const dump::DumpTensor& tensor) {
  if (tensor.payload == dump::Payload::kStats) return tensor.stats;
  return dump::ComputeStats(tensor.dtype, tensor.data.data(), tensor.data.size());
}

nlohmann::ordered_json ToJson(const dump::DumpRecord& record, const std::string& path) {
  nlohmann::ordered_json out = {{"file", path},
                                {"exception", (record.flags & dump::kFlagException) != 0},
                                {"op_type", record.op_type},
                                {"op_name", record.op_name},
                                {"model_name", record.model_name},
                                {"model_id", record.model_id},
                                {"step", record.step},
                                {"device_id", record.device_id},
                                {"stream_id", record.stream_id},
                                {"task_id", record.task_id},
                                {"timestamp_us", record.timestamp_us}};
  out["tensors"] = nlohmann::ordered_json::array();
  for (const auto& tensor : record.tensors) {
    nlohmann::ordered_json item = {
        {"kind", KindName(tensor.kind)},
        {"index", tensor.index},
        {"dtype", dump::DtypeName(tensor.dtype)},
        {"format", dump::FormatName(tensor.format)},
        {"dims", tensor.dims},
        {"bytes", tensor.bytes},
        {"address", tensor.address},
        {"payload", tensor.payload == dump::Payload::kData ? "data" : "stats"}};
    if (auto stats = StatsOf(tensor)) {
      item["min"] = stats->min;
      item["max"] = stats->max;
      item["mean"] = stats->mean;
      item["count"] = stats->count;
      item["nan_count"] = stats->nan_count;
    }
    out["tensors"].push_back(std::move(item));
  }
  return out;
}

void PrintText(const dump::DumpRecord& record, const std::string& path) {
  std::printf("file:      %s\n", path.c_str());
  if ((record.flags & dump::kFlagException) != 0) {
    std::printf("kind:      exception dump (the kernel failed)\n");
  }
  std::printf("op:        %s (type %s)\n", record.op_name.c_str(), record.op_type.c_str());
  if (record.model_name.empty()) {
    std::printf("model:     - (single op)\n");
  } else {
    std::printf("model:     %s (id %u), step %llu\n", record.model_name.c_str(), record.model_id,
                static_cast<unsigned long long>(record.step));
  }
  std::printf("device %u, stream %u, task %llu, timestamp %llu us\n", record.device_id,
              record.stream_id, static_cast<unsigned long long>(record.task_id),
              static_cast<unsigned long long>(record.timestamp_us));
  std::printf("tensors:   %zu\n", record.tensors.size());
  for (const auto& tensor : record.tensors) {
    std::string line = fmt::format("{} {}: {} {} {}, {} bytes", KindName(tensor.kind), tensor.index,
                                   dump::DtypeName(tensor.dtype), dump::FormatName(tensor.format),
                                   DimsText(tensor.dims), tensor.bytes);
    if (auto stats = StatsOf(tensor)) {
      char numbers[160];
      std::snprintf(numbers, sizeof(numbers), ", min %.6g max %.6g mean %.6g", stats->min,
                    stats->max, stats->mean);
      line += numbers;
      if (stats->nan_count > 0) line += fmt::format(", {} NaN", stats->nan_count);
    }
    if (tensor.payload == dump::Payload::kStats) line += " (statistics only)";
    std::printf("  %s\n", line.c_str());
  }
}

// Writes every tensor of `record` as .npy into `dir`; false if any could not be written.
bool WriteNpy(const dump::DumpRecord& record, const std::string& path, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const std::string stem = std::filesystem::path(path).filename().string();
  bool all = true;
  for (const auto& tensor : record.tensors) {
    const std::string name =
        fmt::format("{}/{}.{}.{}.npy", dir, stem, KindName(tensor.kind), tensor.index);
    auto bytes = dump::ToNpy(tensor);
    if (!bytes.ok()) {
      Fail(2, fmt::format("{}: not written: {}", name, bytes.status().message()));
      all = false;
      continue;
    }
    std::ofstream out(name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes->data()),
              static_cast<std::streamsize>(bytes->size()));
    if (!out) {
      Fail(2, name + ": cannot write");
      all = false;
    }
  }
  return all;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  CLI::App app{"Prints an aclsim data-dump file and converts its tensors to .npy."};
  std::string path;
  std::string npy_dir;
  bool json = false;
  app.add_option("file", path, "a dump file written by aclsim (docs/dump.md)")->required();
  app.add_flag("--json", json, "print one JSON object instead of text");
  app.add_option("--npy", npy_dir, "write every tensor as a .npy file into this directory");
  CLI11_PARSE(app, argc, argv);

  auto record = dump::ReadFile(path);
  if (!record.ok()) return Fail(1, record.status().message());
  if (json) {
    std::cout << ToJson(*record, path).dump(2) << '\n';
  } else {
    PrintText(*record, path);
  }
  if (!npy_dir.empty() && !WriteNpy(*record, path, npy_dir)) return 2;
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("aclsim-dump-reader", 1, [&] { return RunTool(argc, argv); });
}
