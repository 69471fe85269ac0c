// The profiling outputs (dfx/prof_export.h) on a crafted two-stream pipeline trace.
#include "dfx/prof_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dfx/prof_format.h"
#include "prof_test_trace.h"

namespace aclsim::dfx::prof {

// Field-by-field equality for the round-trip test.
auto Fields(const RunInfo& r) {
  return std::tie(r.soc_version, r.pid, r.command, r.start_time, r.aic_metrics, r.data_types);
}
auto Fields(const TaskRecord& r) {
  return std::tie(r.device_id, r.stream_id, r.task_id, r.kind, r.engine, r.op_type, r.op_name,
                  r.model_id, r.ready_ns, r.start_ns, r.end_ns, r.blocks, r.bytes, r.flops,
                  r.cube_ns, r.vector_ns, r.event_id, r.correlation_id, r.failed);
}
auto Fields(const ApiRecord& r) {
  return std::tie(r.id, r.name, r.thread_id, r.start_ns, r.end_ns);
}
auto Fields(const MarkRecord& r) {
  return std::tie(r.message, r.thread_id, r.start_ns, r.end_ns, r.range, r.stream_id, r.device_id);
}
auto Fields(const MemoryRecord& r) {
  return std::tie(r.device_id, r.ns, r.bytes_in_use, r.bytes_reserved, r.bytes_free,
                  r.largest_free);
}
bool operator==(const RunInfo& a, const RunInfo& b) { return Fields(a) == Fields(b); }
bool operator==(const TaskRecord& a, const TaskRecord& b) { return Fields(a) == Fields(b); }
bool operator==(const ApiRecord& a, const ApiRecord& b) { return Fields(a) == Fields(b); }
bool operator==(const MarkRecord& a, const MarkRecord& b) { return Fields(a) == Fields(b); }
bool operator==(const MemoryRecord& a, const MemoryRecord& b) { return Fields(a) == Fields(b); }

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::PipelineTrace;

class ProfExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aclsim_prof_export_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Exports the pipeline trace into a fresh run directory; returns the output folder.
  fs::path Export(std::string* ts = nullptr) {
    auto run = NewRunDir(dir_.string());
    EXPECT_TRUE(run.ok()) << run.status().message();
    EXPECT_TRUE(SaveRun(PipelineTrace(), *run).ok());
    if (ts != nullptr) *ts = fs::path(*run).filename().string().substr(12, 14);
    return fs::path(*run) / "mindstudio_profiler_output";
  }
  std::string OutputFile(const std::string& prefix, const std::string& ext) {
    std::string ts;
    const fs::path out = Export(&ts);
    return Read(out / (prefix + "_" + ts + "." + ext));
  }

  fs::path dir_;
};

// RFC 4180 records (quoted fields may hold commas and doubled quotes).
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

size_t Column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST_F(ProfExportTest, RawDataRoundTripsExactly) {
  Trace trace = PipelineTrace();
  trace.tasks[0].failed = true;
  trace.tasks[1].correlation_id = UINT64_MAX;
  trace.marks[0].message = "quote \" comma , newline \n tab \t";
  const std::string path = (dir_ / "raw.jsonl").string();
  ASSERT_TRUE(WriteRaw(trace, path).ok());
  auto read = ReadRaw(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(read->info == trace.info);
  EXPECT_EQ(read->tasks, trace.tasks);
  EXPECT_EQ(read->apis, trace.apis);
  EXPECT_EQ(read->marks, trace.marks);
  EXPECT_EQ(read->memory, trace.memory);
  // One object per line, info first.
  const std::string text = Read(path);
  EXPECT_EQ(text.rfind("{\"", 0), 0U);
  EXPECT_EQ(json::parse(text.substr(0, text.find('\n')))["type"], "info");
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')),
            1 + trace.tasks.size() + trace.apis.size() + trace.marks.size() + trace.memory.size());
}

TEST_F(ProfExportTest, ReadRawRefusesAMalformedLineNamingIt) {
  const std::string path = (dir_ / "bad.jsonl").string();
  ASSERT_TRUE(WriteRaw(PipelineTrace(), path).ok());
  std::string text = Read(path);
  const size_t second = text.find('\n') + 1;
  const size_t third = text.find('\n', second) + 1;
  const std::string broken =
      text.substr(0, third) + "{\"type\":\"task\", oops\n" + text.substr(third);
  std::ofstream(path, std::ios::trunc) << broken;
  auto read = ReadRaw(path);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kInvalidFile);
  EXPECT_NE(read.status().message().find("bad.jsonl:3: not a JSON object"), std::string::npos)
      << read.status().message();

  std::ofstream(path, std::ios::trunc)
      << text.substr(0, second) << "{\"type\":\"api\",\"id\":1,\"name\":\"x\"}\n";
  read = ReadRaw(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find(":2: missing field 'thread_id'"), std::string::npos)
      << read.status().message();

  std::ofstream(path, std::ios::trunc) << text.substr(0, second)
                                       << "{\"type\":\"memory\",\"device_id\":-1,\"ns\":0,"
                                          "\"bytes_in_use\":0}\n";
  read = ReadRaw(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find(":2: field 'device_id'"), std::string::npos)
      << read.status().message();

  std::ofstream(path, std::ios::trunc) << text.substr(second);  // no info line
  EXPECT_FALSE(ReadRaw(path).ok());
  EXPECT_EQ(ReadRaw((dir_ / "missing.jsonl").string()).status().code(), StatusCode::kInvalidFile);
}

TEST_F(ProfExportTest, ReadRawReadsVersionOneMemoryRecords) {
  // Version 1 (before the heap figures): memory records have no reserved/free bytes.
  const std::string path = (dir_ / "v1.jsonl").string();
  ASSERT_TRUE(WriteRaw(PipelineTrace(), path).ok());
  std::string text = Read(path);
  const std::string info = text.substr(0, text.find('\n') + 1);
  json object = json::parse(info);
  object["version"] = 1;
  std::ofstream(path, std::ios::trunc)
      << object.dump() << "\n{\"type\":\"memory\",\"device_id\":0,\"ns\":7,\"bytes_in_use\":512}\n";
  auto read = ReadRaw(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->memory.size(), 1u);
  EXPECT_EQ(read->memory[0].bytes_in_use, 512u);
  EXPECT_EQ(read->memory[0].bytes_free, 0u);
  EXPECT_EQ(read->memory[0].fragmentation(), 0.0);

  object["version"] = 3;
  std::ofstream(path, std::ios::trunc) << object.dump() << "\n";
  read = ReadRaw(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("versions 1 to 2"), std::string::npos)
      << read.status().message();
}

TEST_F(ProfExportTest, TimelineHasMemoryAndFragmentationCounters) {
  const json trace = json::parse(OutputFile("msprof", "json"));
  std::vector<double> fragmentation;
  size_t memory = 0;
  for (const json& event : trace["traceEvents"]) {
    if (event.value("ph", "") != "C") continue;
    if (event["name"] == "Device memory") {
      ++memory;
      EXPECT_EQ(event["args"]["bytes reserved"], 2 << 20);
    } else if (event["name"] == "Device memory fragmentation (%)") {
      fragmentation.push_back(event["args"]["fragmentation"].get<double>());
    }
  }
  EXPECT_EQ(memory, 3u);
  ASSERT_EQ(fragmentation.size(), 3u);
  EXPECT_DOUBLE_EQ(fragmentation[0], 0.0);  // one free block
  EXPECT_NEAR(fragmentation[2], 100.0 * (1.0 - (1 << 20) / double((2 << 20) - 4096)), 1e-9);
}

bool IsRunDirName(const std::string& name, const std::string& sequence) {
  if (name.size() != 5 + 6 + 1 + 17 + 1 + 16 || name.rfind("PROF_" + sequence + "_", 0) != 0) {
    return false;
  }
  for (size_t i = 12; i < 29; ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  if (name[29] != '_') return false;
  for (size_t i = 30; i < name.size(); ++i) {
    if (name[i] < 'A' || name[i] > 'Z') return false;
  }
  return true;
}

TEST_F(ProfExportTest, NewRunDirIsNamedLikeMsprofAndTakesTheNextSequence) {
  const fs::path out = dir_ / "a" / "b";  // created with its parents
  auto first = NewRunDir(out.string());
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_TRUE(fs::is_directory(*first));
  EXPECT_TRUE(IsRunDirName(fs::path(*first).filename().string(), "000001")) << *first;
  auto second = NewRunDir(out.string());
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(IsRunDirName(fs::path(*second).filename().string(), "000002")) << *second;
  fs::create_directory(out / "PROF_000041_20260101000000000_AAAAAAAAAAAAAAAA");
  auto third = NewRunDir(out.string());
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE(IsRunDirName(fs::path(*third).filename().string(), "000042")) << *third;
}

TEST_F(ProfExportTest, SaveRunWritesRawDataAndEveryOutput) {
  std::string ts;
  const fs::path out = Export(&ts);
  EXPECT_TRUE(fs::is_regular_file(out.parent_path() / "host" / "data" / "aclsim_trace.jsonl"));
  for (const char* name :
       {"msprof_{}.json", "op_summary_{}.csv", "task_time_{}.csv", "op_statistic_{}.csv",
        "api_statistic_{}.csv", "timeline_{}.svg", "summary_{}.txt"}) {
    std::string file = name;
    file.replace(file.find("{}"), 2, ts);
    EXPECT_TRUE(fs::is_regular_file(out / file)) << file;
    EXPECT_GT(fs::file_size(out / file), 0U) << file;
  }
  // Re-export from the raw data writes the same files.
  const std::string before = Read(out / ("msprof_" + ts + ".json"));
  auto raw = ReadRaw(RawPathOf(out.parent_path().string()));
  ASSERT_TRUE(raw.ok());
  fs::remove_all(out);
  ASSERT_TRUE(ExportRun(*raw, out.parent_path().string()).ok());
  EXPECT_EQ(Read(out / ("msprof_" + ts + ".json")), before);
}

TEST_F(ProfExportTest, ExportRunIntoADirectoryNotNamedLikeARunUsesTimestampZero) {
  ASSERT_TRUE(ExportRun(PipelineTrace(), (dir_ / "plain").string()).ok());
  EXPECT_TRUE(fs::is_regular_file(dir_ / "plain" / "mindstudio_profiler_output" / "msprof_0.json"));
  EXPECT_EQ(ExportRun(PipelineTrace(), "/proc/no/such/dir").code(), StatusCode::kWriteFile);
}

json Timeline(const std::string& text) {
  json timeline = json::parse(text, nullptr, false);
  EXPECT_FALSE(timeline.is_discarded());
  return timeline;
}

TEST_F(ProfExportTest, TimelineFollowsTheTraceEventFormat) {
  const json timeline = Timeline(OutputFile("msprof", "json"));
  ASSERT_TRUE(timeline.is_object());
  EXPECT_EQ(timeline["displayTimeUnit"], "ns");
  ASSERT_TRUE(timeline["traceEvents"].is_array());
  std::set<std::string> phases;
  for (const json& event : timeline["traceEvents"]) {
    SCOPED_TRACE(event.dump());
    ASSERT_TRUE(event.contains("ph") && event["ph"].is_string());
    const std::string ph = event["ph"];
    phases.insert(ph);
    EXPECT_TRUE(event.contains("name") && event["name"].is_string());
    EXPECT_TRUE(event.contains("ts") && event["ts"].is_number());
    EXPECT_TRUE(event.contains("pid") && event["pid"].is_number_integer());
    EXPECT_TRUE(event.contains("tid") && event["tid"].is_number_integer());
    EXPECT_TRUE(ph == "X" || ph == "i" || ph == "s" || ph == "f" || ph == "C" || ph == "M");
    if (ph == "X") {
      EXPECT_TRUE(event.contains("dur") && event["dur"].is_number() &&
                  event["dur"].get<double>() >= 0);
    }
    if (ph == "s" || ph == "f") {
      EXPECT_TRUE(event.contains("id") && event["cat"] == "flow");
    }
    if (ph == "f") {
      EXPECT_EQ(event["bp"], "e");
    }
    if (ph == "C" || ph == "M") {
      EXPECT_TRUE(event.contains("args") && event["args"].is_object());
    }
    if (ph == "i") {
      EXPECT_EQ(event["s"], "t");
    }
  }
  EXPECT_EQ(phases, (std::set<std::string>{"X", "i", "s", "f", "C", "M"}));
}

// (pid, tid) -> thread_name.
std::map<std::pair<int64_t, int64_t>, std::string> TrackNames(const json& timeline) {
  std::map<std::pair<int64_t, int64_t>, std::string> names;
  for (const json& event : timeline["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") {
      names[{event["pid"], event["tid"]}] = event["args"]["name"];
    }
  }
  return names;
}

TEST_F(ProfExportTest, EveryTaskIsOnceOnItsStreamTrackWithItsTimes) {
  const Trace trace = PipelineTrace();
  const json timeline = Timeline(OutputFile("msprof", "json"));
  const auto tracks = TrackNames(timeline);
  std::map<uint64_t, int> on_stream;
  std::map<uint64_t, std::set<std::string>> on_engine;
  int waits = 0;
  for (const json& event : timeline["traceEvents"]) {
    if (event["ph"] == "X" && event["name"] == "wait") ++waits;
    if (!event.contains("cat") || (event["cat"] != "task" && event["cat"] != "engine")) continue;
    const uint64_t id = event["args"]["task id"];
    const TaskRecord* task = nullptr;
    for (const TaskRecord& t : trace.tasks) {
      if (t.task_id == id) task = &t;
    }
    ASSERT_NE(task, nullptr) << event.dump();
    EXPECT_EQ(event["pid"], 1000 + task->device_id);
    const std::string track = tracks.at({event["pid"], event["tid"]});
    EXPECT_EQ(event["ts"].get<double>(), static_cast<double>(task->start_ns) / 1000.0);
    if (event["cat"] == "engine") {
      on_engine[id].insert(track);
      continue;
    }
    ++on_stream[id];
    EXPECT_EQ(track, "Stream " + std::to_string(task->stream_id));
    if (task->kind.rfind("EVENT_", 0) == 0) {
      EXPECT_EQ(event["ph"], "i");
    } else {
      EXPECT_EQ(event["ph"], "X");
      EXPECT_EQ(event["name"], task->op_type);
      EXPECT_EQ(event["dur"].get<double>(),
                static_cast<double>(task->end_ns - task->start_ns) / 1000.0);
    }
  }
  for (const TaskRecord& task : trace.tasks) {
    EXPECT_EQ(on_stream[task.task_id], 1) << "task " << task.task_id;
    const bool engine = task.engine != "STREAM" && task.engine != "HOST";
    EXPECT_EQ(on_engine[task.task_id].size(), engine ? 1U : 0U) << "task " << task.task_id;
  }
  EXPECT_EQ(on_engine[2], std::set<std::string>{"AI Core"});
  EXPECT_EQ(on_engine[7], std::set<std::string>{"AI Vector"});
  EXPECT_EQ(on_engine[5], std::set<std::string>{"DMA 2"});  // overlaps task 1 on DMA
  EXPECT_EQ(waits, 2);                                      // tasks 5 and 6 waited
}

TEST_F(ProfExportTest, FlowEventsPairUp) {
  const json timeline = Timeline(OutputFile("msprof", "json"));
  std::map<uint64_t, std::vector<json>> flows;
  for (const json& event : timeline["traceEvents"]) {
    if (event["ph"] == "s" || event["ph"] == "f") flows[event["id"]].push_back(event);
  }
  int launches = 0;
  int event_arrows = 0;
  for (const auto& [id, pair] : flows) {
    ASSERT_EQ(pair.size(), 2U) << "flow " << id;
    const json& s = pair[0]["ph"] == "s" ? pair[0] : pair[1];
    const json& f = pair[0]["ph"] == "s" ? pair[1] : pair[0];
    EXPECT_EQ(s["ph"], "s");
    EXPECT_EQ(f["ph"], "f");
    EXPECT_LE(s["ts"].get<double>(), f["ts"].get<double>() + 1e9);
    if (s["name"] == "launch") {
      ++launches;
      EXPECT_EQ(s["pid"], 4242);  // the host process
      EXPECT_EQ(f["pid"], 1000);
    } else {
      ++event_arrows;
      // Record of event 7 on stream 1 (3000 ns) releases the wait on stream 2.
      EXPECT_EQ(s["tid"], 1);
      EXPECT_EQ(f["tid"], 2);
      EXPECT_EQ(f["ts"].get<double>(), 3.0);
    }
  }
  EXPECT_EQ(launches, 9);  // every task; API 8 launched two
  EXPECT_EQ(event_arrows, 1);
  EXPECT_EQ(flows.count(1), 1U);  // an API call's correlation id is its arrow's id
}

TEST_F(ProfExportTest, OpSummaryHasOneRowPerKernelSortedByStart) {
  const auto rows = ParseCsv(OutputFile("op_summary", "csv"));
  ASSERT_EQ(rows.size(), 1U + 3U);
  const auto& header = rows[0];
  const size_t dur = Column(header, "Task Duration(us)");
  const size_t start = Column(header, "Task Start Time(us)");
  double total = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size());
    total += std::stod(rows[i][dur]);
    if (i > 1) {
      EXPECT_LE(std::stod(rows[i - 1][start]), std::stod(rows[i][start]));
    }
  }
  EXPECT_NEAR(total, 3.5, 1e-9);
  EXPECT_EQ(rows[1][Column(header, "Op Name")], "layer1/matmul,0");  // quoted in the file
  EXPECT_EQ(rows[1][Column(header, "Task Type")], "AI_CORE");
  EXPECT_EQ(rows[1][Column(header, "Cube Utilization(%)")], "75.000");
  EXPECT_EQ(rows[2][Column(header, "Task Type")], "AI_VECTOR_CORE");
  EXPECT_EQ(rows[1][Column(header, "Bytes Moved")], "12288");
}

TEST_F(ProfExportTest, TaskTimeListsEveryTaskWithItsWait) {
  const auto rows = ParseCsv(OutputFile("task_time", "csv"));
  ASSERT_EQ(rows.size(), 1U + PipelineTrace().tasks.size());
  const size_t id = Column(rows[0], "Task ID");
  const size_t wait = Column(rows[0], "Task Wait Time(us)");
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i][id] == "6") {
      EXPECT_EQ(rows[i][wait], "1.500");
    }
    if (rows[i][id] == "5") {
      EXPECT_EQ(rows[i][wait], "0.400");
    }
  }
}

TEST_F(ProfExportTest, OpStatisticRatiosSumToOneHundred) {
  const auto rows = ParseCsv(OutputFile("op_statistic", "csv"));
  ASSERT_EQ(rows.size(), 1U + 2U);  // MatMul on AI Core, Add on AI Vector
  const size_t ratio = Column(rows[0], "Ratio(%)");
  double sum = 0;
  for (size_t i = 1; i < rows.size(); ++i) sum += std::stod(rows[i][ratio]);
  EXPECT_NEAR(sum, 100.0, 0.1);
  EXPECT_EQ(rows[1][Column(rows[0], "OP Type")], "MatMul");  // largest total first
  EXPECT_EQ(rows[1][Column(rows[0], "Count")], "2");
  EXPECT_EQ(rows[1][Column(rows[0], "Total Time(us)")], "3.000");
  EXPECT_EQ(rows[1][Column(rows[0], "Avg Time(us)")], "1.500");
}

TEST_F(ProfExportTest, ApiStatisticCountsCallsPerName) {
  const auto rows = ParseCsv(OutputFile("api_statistic", "csv"));
  ASSERT_EQ(rows.size(), 1U + 6U);
  EXPECT_EQ(rows[1][Column(rows[0], "API Name")], "aclrtSynchronizeStream");
  for (const auto& row : rows) {
    if (row[0] == "aclrtMemcpyAsync") {
      EXPECT_EQ(row[Column(rows[0], "Count")], "3");
    }
  }
}

// Checks that every tag is closed in order (no DTD, comments or CDATA are used).
bool TagsBalance(const std::string& svg, std::string* error) {
  std::vector<std::string> open;
  for (size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    const size_t end = svg.find('>', i);
    if (end == std::string::npos) return *error = "unterminated tag", false;
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '?') continue;
    const std::string name =
        tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" />", 1) - (tag[0] == '/' ? 1 : 0));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) return *error = "unexpected </" + name + ">", false;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
  }
  if (!open.empty()) return *error = "unclosed <" + open.back() + ">", false;
  return true;
}

TEST_F(ProfExportTest, TimelineSvgIsWellFormedWithARectPerTask) {
  Trace trace = PipelineTrace();
  trace.tasks[1].op_type = "Mat<Mul>&\"x\"";  // must be escaped
  ASSERT_TRUE(ExportRun(trace, dir_.string()).ok());
  const std::string svg = Read(dir_ / "mindstudio_profiler_output" / "timeline_0.svg");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0U);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  std::string error;
  EXPECT_TRUE(TagsBalance(svg, &error)) << error;
  size_t task_rects = 0;
  for (size_t at = svg.find("class=\"task\""); at != std::string::npos;
       at = svg.find("class=\"task\"", at + 1)) {
    ++task_rects;
  }
  EXPECT_EQ(task_rects, trace.tasks.size());
  EXPECT_EQ(svg.find("Mat<Mul>"), std::string::npos);
  EXPECT_NE(svg.find("Mat&lt;Mul&gt;&amp;&quot;x&quot;"), std::string::npos);
  for (const char* lane : {">Stream 1<", ">Stream 2<", ">AI Core<", ">DMA 2<", " us<"}) {
    EXPECT_NE(svg.find(lane), std::string::npos) << lane;
  }
}

TEST_F(ProfExportTest, SummaryNamesTheStreamThatWaitedMostAndTheEvent) {
  const std::string summary = SummaryText(PipelineTrace());
  EXPECT_NE(summary.find("The stream that waited most: Stream 2, 1.900 us, mostly on event 7 "
                         "recorded on stream 1"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("Device time span: 5.000 us"), std::string::npos) << summary;
  EXPECT_NE(summary.find("MatMul"), std::string::npos);
  EXPECT_EQ(OutputFile("summary", "txt"), summary);
}

TEST_F(ProfExportTest, SummaryOfAStreamWaitingForAnEngineNamesTheEngine) {
  Trace trace = PipelineTrace();
  trace.tasks[5].ready_ns = 3000;  // the event wait no longer waits
  const std::string summary = SummaryText(trace);
  EXPECT_NE(summary.find("Stream 2, 0.400 us, mostly on a busy DMA"), std::string::npos) << summary;
}

TEST(ProfFormatTest, CsvFieldsWithCommasAndQuotesAreQuoted) {
  EXPECT_EQ(detail::CsvRow({"a", "b,c", "say \"hi\""}), "a,\"b,c\",\"say \"\"hi\"\"\"\n");
  EXPECT_EQ(detail::Us(1234567), "1234.567");
  EXPECT_EQ(detail::Us(5), "0.005");
}

}  // namespace
}  // namespace aclsim::dfx::prof
