#include "tools/atc/model_options.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/model_file.h"
#include "ops/op_library.h"
#include "ops/soc_targets.h"

namespace aclsim::atc {

namespace {

std::vector<std::string> SplitOn(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return parts;
}

Result<int64_t> ParseInt(const std::string& text, const char* option) {
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size()) {
    return Err(StatusCode::kInvalidParam, "--{}: '{}' is not an integer", option, text);
  }
  return v;
}

Result<std::vector<int64_t>> ParseList(const std::string& text, const char* option) {
  std::vector<int64_t> values;
  for (const auto& part : SplitOn(text, ',')) {
    auto v = ParseInt(part, option);
    if (!v.ok()) return v.status();
    values.push_back(v.value());
  }
  return values;
}

}  // namespace

Result<std::vector<std::pair<std::string, std::vector<int64_t>>>> ParseInputShape(
    const std::string& text) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
  for (const auto& item : SplitOn(text, ';')) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return Err(StatusCode::kInvalidParam, "--input_shape: '{}' is not name:dims", item);
    }
    std::vector<int64_t> dims;
    if (colon + 1 < item.size()) {
      auto parsed = ParseList(item.substr(colon + 1), "input_shape");
      if (!parsed.ok()) return parsed.status();
      dims = parsed.value();
    }
    for (int64_t d : dims) {
      if (d < -1) return Err(StatusCode::kInvalidParam, "--input_shape: dim {} of '{}'", d, item);
    }
    shapes.emplace_back(item.substr(0, colon), dims);
  }
  return shapes;
}

Result<std::vector<int64_t>> ParseDynamicBatch(const std::string& text) {
  return ParseList(text, "dynamic_batch_size");
}

Result<std::vector<std::pair<int64_t, int64_t>>> ParseDynamicImage(const std::string& text) {
  std::vector<std::pair<int64_t, int64_t>> gears;
  for (const auto& item : SplitOn(text, ';')) {
    auto v = ParseList(item, "dynamic_image_size");
    if (!v.ok()) return v.status();
    if (v.value().size() != 2) {
      return Err(StatusCode::kInvalidParam, "--dynamic_image_size: '{}' is not height,width", item);
    }
    gears.emplace_back(v.value()[0], v.value()[1]);
  }
  return gears;
}

Result<std::vector<std::vector<int64_t>>> ParseDynamicDims(const std::string& text) {
  std::vector<std::vector<int64_t>> gears;
  for (const auto& item : SplitOn(text, ';')) {
    auto v = ParseList(item, "dynamic_dims");
    if (!v.ok()) return v.status();
    gears.push_back(v.value());
  }
  return gears;
}

Result<std::vector<std::pair<std::string, int>>> ParseOutNodes(const std::string& text) {
  std::vector<std::pair<std::string, int>> nodes;
  for (const auto& item : SplitOn(text, ';')) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return Err(StatusCode::kInvalidParam, "--out_nodes: '{}' is not node:index", item);
    }
    auto index = ParseInt(item.substr(colon + 1), "out_nodes");
    if (!index.ok()) return index.status();
    if (index.value() < 0 || index.value() > 4096) {
      return Err(StatusCode::kInvalidParam, "--out_nodes: index of '{}' out of range", item);
    }
    nodes.emplace_back(item.substr(0, colon), static_cast<int>(index.value()));
  }
  return nodes;
}

Result<ops::Format> ParseInputFormat(const std::string& text) {
  if (text == "NCHW") return ops::Format::kNchw;
  if (text == "NHWC") return ops::Format::kNhwc;
  if (text == "ND") return ops::Format::kNd;
  if (text == "NCDHW") return ops::Format::kNcdhw;
  return Err(StatusCode::kInvalidParam, "--input_format={} is not NCHW, NHWC, ND or NCDHW", text);
}

Result<convert::OnnxImportOptions> ModelOptions(const std::map<std::string, std::string>& options) {
  convert::OnnxImportOptions out;
  auto get = [&](const char* key) -> const std::string* {
    auto it = options.find(key);
    return it == options.end() ? nullptr : &it->second;
  };
  if (const auto* v = get("soc_version")) out.soc_version = *v;
  if (const auto* v = get("input_shape")) {
    auto parsed = ParseInputShape(*v);
    if (!parsed.ok()) return parsed.status();
    out.input_shapes = parsed.value();
  }
  if (const auto* v = get("input_format")) {
    auto parsed = ParseInputFormat(*v);
    if (!parsed.ok()) return parsed.status();
    out.input_format = parsed.value();
  }
  if (const auto* v = get("dynamic_batch_size")) {
    auto parsed = ParseDynamicBatch(*v);
    if (!parsed.ok()) return parsed.status();
    out.dynamic_batch_size = parsed.value();
  }
  if (const auto* v = get("dynamic_image_size")) {
    auto parsed = ParseDynamicImage(*v);
    if (!parsed.ok()) return parsed.status();
    out.dynamic_image_size = parsed.value();
  }
  if (const auto* v = get("dynamic_dims")) {
    auto parsed = ParseDynamicDims(*v);
    if (!parsed.ok()) return parsed.status();
    out.dynamic_dims = parsed.value();
  }
  if (const auto* v = get("out_nodes")) {
    auto parsed = ParseOutNodes(*v);
    if (!parsed.ok()) return parsed.status();
    out.out_nodes = parsed.value();
  }
  if (const auto* v = get("precision_mode")) {
    auto parsed = convert::ParsePrecisionMode(*v);
    if (!parsed.ok()) return parsed.status();
    out.precision_mode = parsed.value();
  }
  return out;
}

int RunModelConversion(const std::map<std::string, std::string>& options,
                       const std::function<void(int, const std::string&)>& log, bool verbose) {
  constexpr int kWarning = 2;
  constexpr int kError = 3;
  auto usage = [&](const std::string& problem) {
    std::fprintf(stderr, "atc: %s (atc --help for the options)\n", problem.c_str());
    return 1;
  };
  auto framework = options.find("framework");
  if (framework == options.end()) return usage("--model needs --framework=5 (ONNX)");
  if (framework->second != "5") {
    return usage("--framework=" + framework->second + ": only ONNX (--framework=5) is supported");
  }
  static const std::set<std::string> kKnown = {
      "model",        "framework", "output",        "soc_version",        "input_shape",
      "input_format", "log",       "mode",          "dynamic_batch_size", "dynamic_image_size",
      "dynamic_dims", "out_nodes", "precision_mode"};
  static const std::set<std::string> kIgnored = {
      "precision_mode_v2",  "op_select_implmode", "optypelist_for_implmode",
      "host_env_os",        "host_env_cpu",       "core_type",
      "aicore_num",         "op_debug_level",     "enable_small_channel",
      "fusion_switch_file", "keep_dtype",         "buffer_optimize"};
  for (const auto& [key, value] : options) {
    if (kKnown.count(key) != 0) continue;
    if (kIgnored.count(key) != 0) {
      log(kWarning, "--" + key + " has no effect in aclsim's atc; ignored");
      continue;
    }
    return usage("unknown option --" + key);
  }
  for (const char* key : {"model", "output", "soc_version"}) {
    auto it = options.find(key);
    if (it == options.end() || it->second.empty())
      return usage(std::string("--") + key + " is required");
  }
  const std::string soc = options.at("soc_version");
  if (!ops::IsSocTarget(soc)) {
    return usage("--soc_version=" + soc + " is not a known SoC (" + ops::SocTargetList() + ")");
  }
  auto import_options = ModelOptions(options);
  if (!import_options.ok()) return usage(import_options.status().message());
  import_options.value().warning = [&](const std::string& text) { log(kWarning, text); };
  size_t last_tenth = 0;
  import_options.value().progress = [&](size_t done, size_t total) {
    if (!verbose || total <= 200) return;
    const size_t tenth = done * 10 / total;
    if (tenth == last_tenth) return;
    last_tenth = tenth;
    std::printf("atc: converted %zu of %zu nodes (%zu%%)\n", done, total, tenth * 10);
    std::fflush(stdout);
  };
#ifdef ACLSIM_HAVE_ONNX
  const std::string& path = options.at("model");
  auto model = convert::ImportOnnxFile(path, import_options.value(), ops::OpLibrary::Builtin());
  if (!model.ok()) {
    log(kError, model.status().message());
    return 2;
  }
  Status valid = core::ValidateModel(model.value(), path);
  if (!valid.ok()) {
    log(kError, "internal error, the converted model is invalid: " + valid.message());
    return 2;
  }
  const auto bytes = core::SerializeModel(model.value());
  const std::filesystem::path out = options.at("output") + ".om";
  std::error_code ec;
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path(), ec);
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    log(kError, "cannot write " + out.string());
    return 2;
  }
  std::printf("ATC run success: %s -> %s (%zu nodes, %zu constants' bytes, %zu gear(s))\n",
              path.c_str(), out.string().c_str(), model.value().nodes.size(),
              model.value().weights.size(), model.value().gears.gears.size());
  return 0;
#else
  log(kError, "this atc was built without libonnx-dev / libprotobuf-dev; --model is unavailable");
  return 2;
#endif
}

}  // namespace aclsim::atc
