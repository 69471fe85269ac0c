// The "dump" key of a configuration file (core/data_dump.h, docs/dump.md).
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/data_dump.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

using nlohmann::json;

Status Invalid(const std::string& origin, const std::string& what) {
  return Status(StatusCode::kInvalidDumpConfig, fmt::format("dump config '{}': {}", origin, what));
}

// A key whose value must be one of `allowed` strings; *value receives it.
Status OneOf(const json& dump, const char* key, std::initializer_list<const char*> allowed,
             const std::string& origin, std::string* value) {
  auto it = dump.find(key);
  if (it == dump.end()) return Status::Ok();
  std::string names;
  for (const char* name : allowed) {
    names += names.empty() ? "" : ", ";
    names += fmt::format("\"{}\"", name);
    if (it->is_string() && it->get_ref<const std::string&>() == name) {
      *value = name;
      return Status::Ok();
    }
  }
  return Invalid(origin, fmt::format("\"{}\" must be one of {}, got {}", key, names, it->dump()));
}

Status ParseList(const json& list, const std::string& origin, DumpConfig* config) {
  if (!list.is_array()) {
    return Invalid(origin, fmt::format("\"dump_list\" must be an array, got {}", list.dump()));
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    if (!item.is_object()) {
      return Invalid(origin,
                     fmt::format("dump_list[{}] must be an object, got {}", i, item.dump()));
    }
    DumpModelEntry entry;
    for (const auto& member : item.items()) {
      const std::string& key = member.key();
      const json& value = member.value();
      if (key == "model_name") {
        if (!value.is_string()) {
          return Invalid(origin, fmt::format("dump_list[{}].model_name must be a string", i));
        }
        entry.model_name = value.get<std::string>();
      } else if (key == "layer") {
        if (!value.is_array()) {
          return Invalid(origin, fmt::format("dump_list[{}].layer must be an array of node "
                                             "names",
                                             i));
        }
        for (const json& layer : value) {
          if (!layer.is_string()) {
            return Invalid(origin, fmt::format("dump_list[{}].layer holds {}, not a node name", i,
                                               layer.dump()));
          }
          entry.layers.push_back(layer.get<std::string>());
        }
      } else {
        // watcher_nodes, optype_blacklist, opname_blacklist, opname_range: not supported.
        ACLSIM_LOG_WARN(dfx::Module::kAscendCl,
                        "dump config '{}': dump_list[{}].{} is not supported by aclsim and is "
                        "ignored",
                        origin, i, key);
      }
    }
    config->models.push_back(std::move(entry));
  }
  return Status::Ok();
}

Status ParseScene(const std::string& scene, const std::string& origin, DumpConfig* config) {
  if (scene == "aic_err_brief_dump" || scene == "aic_err_norm_dump" ||
      scene == "aic_err_detail_dump" || scene == "lite_exception") {
    config->exception = true;
    return Status::Ok();
  }
  if (scene == "lite_exception:disable") return Status::Ok();
  return Invalid(origin, fmt::format("\"dump_scene\" \"{}\" is not supported (aclsim supports "
                                     "\"aic_err_brief_dump\", \"aic_err_norm_dump\", "
                                     "\"aic_err_detail_dump\", \"lite_exception\" and "
                                     "\"lite_exception:disable\")",
                                     scene));
}

Status ParseDump(const json& dump, const std::string& origin, DumpConfig* config) {
  if (!dump.is_object()) {
    return Invalid(origin, fmt::format("\"dump\" must be an object, got {}", dump.dump()));
  }
  if (auto it = dump.find("dump_path"); it != dump.end()) {
    if (!it->is_string()) return Invalid(origin, "\"dump_path\" must be a string");
    config->path = it->get<std::string>();
  }
  std::string text;
  ACLSIM_RETURN_IF_ERROR(OneOf(dump, "dump_mode", {"output", "input", "all"}, origin, &text));
  config->mode = text == "input" ? DumpMode::kInput
                 : text == "all" ? DumpMode::kAll
                                 : DumpMode::kOutput;
  text.clear();
  ACLSIM_RETURN_IF_ERROR(OneOf(dump, "dump_op_switch", {"on", "off"}, origin, &text));
  config->op_switch = text == "on";
  text.clear();
  ACLSIM_RETURN_IF_ERROR(OneOf(dump, "dump_data", {"tensor", "stats"}, origin, &text));
  config->stats = text == "stats";
  text.clear();
  ACLSIM_RETURN_IF_ERROR(OneOf(dump, "dump_level", {"op", "kernel", "all"}, origin, &text));
  text.clear();
  ACLSIM_RETURN_IF_ERROR(OneOf(dump, "dump_debug", {"on", "off"}, origin, &text));
  if (text == "on") {
    return Invalid(origin, "overflow dump (\"dump_debug\": \"on\") is not supported by aclsim");
  }
  if (auto it = dump.find("dump_step"); it != dump.end()) {
    if (!it->is_string()) return Invalid(origin, "\"dump_step\" must be a string like \"0|2-4\"");
    auto steps = ParseDumpSteps(it->get<std::string>());
    if (!steps.ok()) return Invalid(origin, steps.status().message());
    config->steps = std::move(steps.value());
  }
  bool scene = false;
  if (auto it = dump.find("dump_scene"); it != dump.end()) {
    if (!it->is_string()) return Invalid(origin, "\"dump_scene\" must be a string");
    ACLSIM_RETURN_IF_ERROR(ParseScene(it->get<std::string>(), origin, config));
    scene = true;
  }
  auto list = dump.find("dump_list");
  if (list != dump.end()) ACLSIM_RETURN_IF_ERROR(ParseList(*list, origin, config));
  const bool data = !config->models.empty() || config->op_switch;
  if (config->exception && data) {
    return Invalid(origin,
                   "an exception dump (\"dump_scene\") cannot be combined with model or "
                   "single-op dump (\"dump_list\" entries, \"dump_op_switch\": \"on\")");
  }
  if (!scene && list == dump.end()) {
    return Invalid(origin,
                   "\"dump_list\" is required (an empty list with \"dump_op_switch\": "
                   "\"on\" dumps single ops)");
  }
  if (data && config->path.empty()) {
    return Invalid(origin, "\"dump_path\" is required: the directory the dump files go to");
  }
  for (const char* ignored : {"dump_stats", "dump_kernel_data"}) {
    if (dump.contains(ignored)) {
      ACLSIM_LOG_WARN(dfx::Module::kAscendCl,
                      "dump config '{}': \"{}\" is not supported by aclsim and is ignored", origin,
                      ignored);
    }
  }
  return Status::Ok();
}

bool ParseNumber(const std::string& text, uint64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *value = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

}  // namespace

Result<std::vector<std::pair<uint64_t, uint64_t>>> ParseDumpSteps(const std::string& text) {
  std::vector<std::pair<uint64_t, uint64_t>> steps;
  size_t begin = 0;
  for (;;) {
    const size_t bar = text.find('|', begin);
    const std::string item =
        text.substr(begin, bar == std::string::npos ? std::string::npos : bar - begin);
    const size_t dash = item.find('-');
    uint64_t low = 0;
    uint64_t high = 0;
    const bool ok = dash == std::string::npos
                        ? ParseNumber(item, &low) && ParseNumber(item, &high)
                        : ParseNumber(item.substr(0, dash), &low) &&
                              ParseNumber(item.substr(dash + 1), &high) && low <= high;
    if (!ok) {
      return Err(StatusCode::kInvalidDumpConfig,
                 "\"dump_step\" \"{}\": \"{}\" is not a step or a range a-b with a <= b (write "
                 "steps and ranges separated by '|', e.g. \"0|2-4\")",
                 text, item);
    }
    steps.emplace_back(low, high);
    if (bar == std::string::npos) break;
    begin = bar + 1;
  }
  return steps;
}

Result<std::optional<DumpConfig>> ParseDumpConfig(const std::string& text,
                                                  const std::string& origin) {
  const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Invalid(origin, "not valid JSON");
  if (!root.is_object()) return Invalid(origin, "must be a JSON object");
  auto it = root.find("dump");
  if (it == root.end()) return std::optional<DumpConfig>();
  DumpConfig config;
  ACLSIM_RETURN_IF_ERROR(ParseDump(*it, origin, &config));
  return std::optional<DumpConfig>(std::move(config));
}

}  // namespace aclsim::core
