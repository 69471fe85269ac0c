// atc: the offline model compiler.
//
//   atc --singleop=ops.json --output=DIR --soc_version=SOC [--log=error|warning|info|debug|null]
//   atc --model=M.onnx --framework=5 --output=NAME --soc_version=SOC [--input_shape=...]
//       [--input_format=...] [--dynamic_batch_size=... | --dynamic_image_size=... |
//        --dynamic_dims=...] [--out_nodes=...] [--precision_mode=...] [--log=...]
//
// --singleop reads CANN's single-op description JSON (tools/atc/singleop_json.h), checks each
// op against the simulator's op library and writes one single-op model per op into DIR
// (created if missing), named as CANN names them (docs/om-format.md).
// --model converts an ONNX model (src/convert/onnx_import.h) into the graph model NAME.om
// (docs/atc.md). Options take CANN's --key=value form. Exit status: 0 on success, 1 on a
// usage error, 2 on an invalid op or model or a write failure.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/guarded_main.h"
#include "common/read_file.h"
#include "core/model_file.h"
#include "core/op_model.h"
#include "ops/op_library.h"
#include "ops/soc_targets.h"
#include "tools/atc/model_options.h"
#include "tools/atc/singleop_json.h"

namespace {

constexpr const char* kUsage =
    "usage: atc --singleop=<ops.json> --output=<dir> --soc_version=<SoC> [--log=<level>]\n"
    "       atc --model=<M.onnx> --framework=5 --output=<name> --soc_version=<SoC> [options]\n"
    "  --singleop     CANN single-op description file (JSON array of ops)\n"
    "  --model        ONNX model to convert (--framework=5); writes <name>.om\n"
    "  --output       --singleop: directory for the .om files (created if missing);\n"
    "                 --model: the output path without .om\n"
    "  --soc_version  target SoC (see npu-smi; e.g. Ascend910B2)\n"
    "  --input_shape  \"x:1,3,224,224;y:-1,10\" (-1 = dynamic)\n"
    "  --input_format NCHW (default), NHWC, NCDHW or ND\n"
    "  --dynamic_batch_size \"1,2,4\" | --dynamic_image_size \"224,224;448,448\" |\n"
    "  --dynamic_dims \"1,2;4,8\"   gears of the -1 dims of --input_shape\n"
    "  --out_nodes    \"node:0;node2:1\" model outputs instead of the graph's\n"
    "  --precision_mode must_keep_origin_dtype (default here), force_fp32, force_fp16,\n"
    "                 allow_fp32_to_fp16, allow_mix_precision (docs/atc.md)\n"
    "  --log          error (default), warning, info, debug or null\n";

enum Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };
int g_level = kError;

void Log(int level, const std::string& text) {
  static const char* kNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  if (level < g_level) return;
  std::fprintf(stderr, "atc [%s] %s\n", kNames[level], text.c_str());
}

int Usage(const std::string& problem) {
  if (!problem.empty()) std::fprintf(stderr, "atc: %s\n", problem.c_str());
  std::fputs(kUsage, problem.empty() ? stdout : stderr);
  return problem.empty() ? 0 : 1;
}

// CANN options that do not change a single-op model here: accepted with a warning.
const std::set<std::string>& IgnoredOptions() {
  static const std::set<std::string> options = {
      "precision_mode", "precision_mode_v2",   "op_select_implmode", "optypelist_for_implmode",
      "host_env_os",    "host_env_cpu",        "core_type",          "aicore_num",
      "op_debug_level", "enable_small_channel"};
  return options;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") return Usage("");
    if (arg.rfind("--", 0) != 0) return Usage("unexpected argument '" + arg + "'");
    const size_t eq = arg.find('=');
    std::string key = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (eq == std::string::npos && i + 1 < argc && argv[i + 1][0] != '-') value = argv[++i];
    options[key] = value;
  }
  for (const char* key : {"weight", "om", "json"}) {
    if (options.count(key) != 0) {
      return Usage(std::string("--") + key +
                   " is not supported (only --singleop and ONNX --model)");
    }
  }
  if (options.count("mode") != 0 && options["mode"] != "0") {
    return Usage("--mode=" + options["mode"] + " is not supported (only 0, model conversion)");
  }
  if (options.count("log") != 0) {
    static const std::map<std::string, int> kLevels = {{"debug", kDebug},
                                                       {"info", kInfo},
                                                       {"warning", kWarning},
                                                       {"error", kError},
                                                       {"null", kNull}};
    auto it = kLevels.find(options["log"]);
    if (it == kLevels.end()) return Usage("--log=" + options["log"] + " is not a log level");
    g_level = it->second;
  }
  if (options.count("model") != 0 || options.count("framework") != 0) {
    if (options.count("singleop") != 0) return Usage("--model and --singleop exclude each other");
    return aclsim::atc::RunModelConversion(
        options, [](int level, const std::string& text) { Log(level, text); }, g_level <= kInfo);
  }
  for (const auto& [key, value] : options) {
    static const std::set<std::string> kKnown = {"singleop", "output", "soc_version", "log",
                                                 "mode"};
    if (kKnown.count(key) != 0) continue;
    if (IgnoredOptions().count(key) != 0) {
      Log(kWarning, "--" + key + " has no effect on single-op models here; ignored");
      continue;
    }
    return Usage("unknown option --" + key);
  }
  for (const char* key : {"singleop", "output", "soc_version"}) {
    if (options[key].empty()) return Usage(std::string("--") + key + " is required");
  }
  const std::string soc = options["soc_version"];
  if (!aclsim::ops::IsSocTarget(soc)) {
    return Usage("--soc_version=" + soc + " is not a known SoC (" + aclsim::ops::SocTargetList() +
                 ")");
  }

  auto text = aclsim::ReadRegularFile(options["singleop"], 64 << 20, "--singleop file");
  if (!text.ok()) {
    Log(kError, text.status().message());
    return 2;
  }
  auto ops = aclsim::atc::ParseSingleOpJson(text.value());
  if (!ops.ok()) {
    Log(kError, options["singleop"] + ": " + ops.status().message());
    return 2;
  }
  std::vector<std::string> warnings;
  const auto& library = aclsim::ops::OpLibrary::Builtin();
  aclsim::Status checked = aclsim::atc::CheckSingleOps(library, ops.value(), &warnings);
  for (const auto& w : warnings) Log(kWarning, w);
  if (!checked.ok()) {
    Log(kError, options["singleop"] + ": " + checked.message());
    return 2;
  }

  namespace fs = std::filesystem;
  const fs::path dir = options["output"];
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    Log(kError, "cannot create --output directory " + dir.string());
    return 2;
  }
  for (const auto& op : ops.value()) {
    aclsim::core::OpModel model;
    model.call = op.call;
    model.soc_version = soc;
    const auto bytes = aclsim::core::SerializeOpModel(model);
    const fs::path path = dir / aclsim::atc::SingleOpFileName(op);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      Log(kError, "cannot write " + path.string());
      return 2;
    }
    Log(kInfo,
        "op " + std::to_string(op.index) + " (" + op.call.type + "): wrote " + path.string());
  }
  std::printf("ATC run success: %zu single-op model(s) written to %s\n", ops.value().size(),
              dir.string().c_str());
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("atc", 2, [&] { return RunTool(argc, argv); });
}
