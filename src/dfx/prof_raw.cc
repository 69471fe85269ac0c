// Raw profiling data: one JSON object per line (prof_export.h). The field lists below are
// the one description of the format: the writer and the reader both walk them.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

#include "dfx/prof_export.h"

namespace aclsim::dfx::prof {
namespace {

using nlohmann::json;

// Version 2 added the heap figures of memory records; version 1 files are still read.
constexpr int kRawVersion = 2;

// Each Visit* calls visit(name, field) for every field of the record, in file order.
template <typename Info, typename V>
void VisitInfo(Info& info, V&& visit) {
  visit("soc_version", info.soc_version);
  visit("pid", info.pid);
  visit("command", info.command);
  visit("start_time", info.start_time);
  visit("aic_metrics", info.aic_metrics);
  visit("data_types", info.data_types);
}

template <typename Task, typename V>
void VisitTask(Task& task, V&& visit) {
  visit("device_id", task.device_id);
  visit("stream_id", task.stream_id);
  visit("task_id", task.task_id);
  visit("kind", task.kind);
  visit("engine", task.engine);
  visit("op_type", task.op_type);
  visit("op_name", task.op_name);
  visit("model_id", task.model_id);
  visit("ready_ns", task.ready_ns);
  visit("start_ns", task.start_ns);
  visit("end_ns", task.end_ns);
  visit("blocks", task.blocks);
  visit("bytes", task.bytes);
  visit("flops", task.flops);
  visit("cube_ns", task.cube_ns);
  visit("vector_ns", task.vector_ns);
  visit("event_id", task.event_id);
  visit("correlation_id", task.correlation_id);
  visit("failed", task.failed);
}

template <typename Api, typename V>
void VisitApi(Api& api, V&& visit) {
  visit("id", api.id);
  visit("name", api.name);
  visit("thread_id", api.thread_id);
  visit("start_ns", api.start_ns);
  visit("end_ns", api.end_ns);
}

template <typename Mark, typename V>
void VisitMark(Mark& mark, V&& visit) {
  visit("message", mark.message);
  visit("thread_id", mark.thread_id);
  visit("start_ns", mark.start_ns);
  visit("end_ns", mark.end_ns);
  visit("range", mark.range);
  visit("stream_id", mark.stream_id);
  visit("device_id", mark.device_id);
}

template <typename Memory, typename V>
void VisitMemoryV1(Memory& sample, V&& visit) {
  visit("device_id", sample.device_id);
  visit("ns", sample.ns);
  visit("bytes_in_use", sample.bytes_in_use);
}

template <typename Memory, typename V>
void VisitMemory(Memory& sample, V&& visit) {
  VisitMemoryV1(sample, visit);
  visit("bytes_reserved", sample.bytes_reserved);
  visit("bytes_free", sample.bytes_free);
  visit("largest_free", sample.largest_free);
}

template <typename Record, typename Visit>
std::string Line(const char* type, const Record& record, Visit visit_fields) {
  json object = json::object();
  object["type"] = type;
  if (std::string(type) == "info") object["version"] = kRawVersion;
  visit_fields(record, [&object](const char* name, const auto& value) { object[name] = value; });
  std::string line = object.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
  return line;
}

// Reads one field into `value`; "" on success, else what is wrong with it.
template <typename T>
std::string ReadField(const json& object, const char* name, T& value) {
  auto it = object.find(name);
  if (it == object.end()) return std::string("missing field '") + name + "'";
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return std::string("field '") + name + "' is not a string";
    value = it->template get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return std::string("field '") + name + "' is not a boolean";
    value = it->template get<bool>();
  } else if constexpr (std::is_signed_v<T>) {
    if (!it->is_number_integer() ||
        (it->is_number_unsigned() &&
         it->template get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<T>::max())) ||
        (!it->is_number_unsigned() &&
         (it->template get<int64_t>() < std::numeric_limits<T>::min() ||
          it->template get<int64_t>() > std::numeric_limits<T>::max()))) {
      return std::string("field '") + name + "' is not an integer in range";
    }
    value = static_cast<T>(it->template get<int64_t>());
  } else {
    if (!it->is_number_unsigned() || it->template get<uint64_t>() > std::numeric_limits<T>::max()) {
      return std::string("field '") + name + "' is not an unsigned integer in range";
    }
    value = static_cast<T>(it->template get<uint64_t>());
  }
  return "";
}

template <typename Record, typename Visit>
std::string ReadRecord(const json& object, Record& record, Visit visit_fields) {
  std::string error;
  visit_fields(record, [&object, &error](const char* name, auto& value) {
    if (error.empty()) error = ReadField(object, name, value);
  });
  return error;
}

}  // namespace

Status WriteRaw(const Trace& trace, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Err(StatusCode::kWriteFile, "cannot write {}: {}", path, std::strerror(errno));
  auto info = [](const RunInfo& r, auto&& v) { VisitInfo(r, v); };
  auto task = [](const TaskRecord& r, auto&& v) { VisitTask(r, v); };
  auto api = [](const ApiRecord& r, auto&& v) { VisitApi(r, v); };
  auto mark = [](const MarkRecord& r, auto&& v) { VisitMark(r, v); };
  auto memory = [](const MemoryRecord& r, auto&& v) { VisitMemory(r, v); };
  out << Line("info", trace.info, info);
  for (const TaskRecord& record : trace.tasks) out << Line("task", record, task);
  for (const ApiRecord& record : trace.apis) out << Line("api", record, api);
  for (const MarkRecord& record : trace.marks) out << Line("mark", record, mark);
  for (const MemoryRecord& record : trace.memory) out << Line("memory", record, memory);
  out.close();
  if (!out) return Err(StatusCode::kWriteFile, "cannot write {}: {}", path, std::strerror(errno));
  return Status::Ok();
}

Result<Trace> ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(StatusCode::kInvalidFile, "cannot read {}: {}", path, std::strerror(errno));
  Trace trace;
  bool have_info = false;
  int64_t raw_version = 0;
  std::string text;
  for (size_t number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
    std::string error;
    auto type = object.is_object() ? object.find("type") : object.end();
    if (object.is_discarded() || !object.is_object()) {
      error = "not a JSON object";
    } else if (type == object.end() || !type->is_string()) {
      error = "no \"type\"";
    } else if (!have_info && *type != "info") {
      error = "the first record is not \"info\"";
    } else if (*type == "info") {
      if (have_info) {
        error = "a second \"info\" record";
      } else if (auto version = object.find("version");
                 version == object.end() || !version->is_number_integer() ||
                 version->get<int64_t>() < 1 || version->get<int64_t>() > kRawVersion) {
        error = fmt::format("unknown raw data version (this reader knows versions 1 to {})",
                            kRawVersion);
      } else {
        raw_version = version->get<int64_t>();
        error = ReadRecord(object, trace.info, [](RunInfo& r, auto&& v) { VisitInfo(r, v); });
      }
      have_info = true;
    } else if (*type == "task") {
      error = ReadRecord(object, trace.tasks.emplace_back(),
                         [](TaskRecord& r, auto&& v) { VisitTask(r, v); });
    } else if (*type == "api") {
      error = ReadRecord(object, trace.apis.emplace_back(),
                         [](ApiRecord& r, auto&& v) { VisitApi(r, v); });
    } else if (*type == "mark") {
      error = ReadRecord(object, trace.marks.emplace_back(),
                         [](MarkRecord& r, auto&& v) { VisitMark(r, v); });
    } else if (*type == "memory" && raw_version == 1) {
      error = ReadRecord(object, trace.memory.emplace_back(),
                         [](MemoryRecord& r, auto&& v) { VisitMemoryV1(r, v); });
    } else if (*type == "memory") {
      error = ReadRecord(object, trace.memory.emplace_back(),
                         [](MemoryRecord& r, auto&& v) { VisitMemory(r, v); });
    } else {
      error = "unknown type \"" + type->get<std::string>() + "\"";
    }
    if (!error.empty()) return Err(StatusCode::kInvalidFile, "{}:{}: {}", path, number, error);
  }
  if (in.bad())
    return Err(StatusCode::kInvalidFile, "cannot read {}: {}", path, std::strerror(errno));
  if (!have_info) return Err(StatusCode::kInvalidFile, "{}: no \"info\" record (empty file)", path);
  return trace;
}

}  // namespace aclsim::dfx::prof
