// ONNX model conformance runner (issue 6): every test directory (model.onnx +
// test_data_set_*/{input,output}_N.pb) is converted with `atc --framework=5`, loaded with
// aclmdlLoadFromFile and run with aclmdlExecute; each output is compared with ONNX's
// expected output.
//
// A user program: the public AscendCL headers, libascendcl, libonnx's protobuf messages (to
// read the test data) and the atc command.
//
// Usage: onnx_model_runner --atc ATC --work DIR [--filter S] [--markdown FILE]
//                          [--min-pass-rate PCT] [--every N] [--node] DATA_DIR...
//   --node   DATA_DIRs hold node tests: a test whose model atc refuses for unsupported ops
//            counts as UNSUPPORTED (out of the rate); for model sets every test counts.
//   --every  runs every Nth test of the sorted list only (the sanitizer builds' sample).
// An atc that dies of a signal (a crash, a sanitizer abort) is never a refusal: the run fails.
// Exit: 0 ok (rate >= min, no crash), 1 rate below min, a crash or a setup error, 77 no data
// directory (skip).
#include <acl/acl.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_tensor.h"

namespace {

namespace fs = std::filesystem;
using namespace onnxconf;  // NOLINT(google-build-using-namespace): the runner's vocabulary

enum class Outcome { kPass, kFail, kUnsupported, kRefused, kCrash };

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "PASS";
    case Outcome::kFail:
      return "FAIL";
    case Outcome::kUnsupported:
      return "UNSUPPORTED";
    case Outcome::kRefused:
      return "REFUSED";
    case Outcome::kCrash:
      return "CRASH";
  }
  return "?";
}

struct Result {
  std::string set;
  std::string name;
  Outcome outcome = Outcome::kFail;
  std::string reason;
};

struct Options {
  std::string atc;
  fs::path work;
  bool node = false;
};

std::string FirstLines(const fs::path& path, size_t max_chars) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '|', '/');
  if (text.size() > max_chars) text = text.substr(0, max_chars) + "...";
  return text;
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Converts the model; "" on success, else atc's message (*unsupported when it names
// unsupported ops, *crashed when atc died of a signal).
std::string Convert(const Options& opt, const fs::path& dir, const fs::path& om_base,
                    bool* unsupported, bool* crashed) {
  const fs::path log = om_base.string() + ".atc.log";
  const std::string cmd = Quote(opt.atc) + " --model=" + Quote((dir / "model.onnx").string()) +
                          " --framework=5 --output=" + Quote(om_base.string()) +
                          " --soc_version=Ascend910B2 --log=error > " + Quote(log.string()) +
                          " 2>&1";
  const int rc = std::system(cmd.c_str());
  if (rc == 0) return "";
  const std::string message = FirstLines(log, 300);
  // sh reports a child killed by signal S as exit status 128 + S.
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) >= 128) {
    *crashed = true;
    return "atc crashed (status " + std::to_string(rc) + "): " + message;
  }
  *unsupported = message.find("nsupported") != std::string::npos;
  return "atc: " + message;
}

// A device buffer in a dataset, freed with the dataset.
struct Buffers {
  aclmdlDataset* dataset = aclmdlCreateDataset();
  std::vector<void*> device;
  std::vector<aclDataBuffer*> buffers;
  ~Buffers() {
    for (auto* b : buffers) (void)aclDestroyDataBuffer(b);
    for (void* d : device) (void)aclrtFree(d);
    (void)aclmdlDestroyDataset(dataset);
  }
  bool Add(size_t bytes, std::string* why) {
    void* dev = nullptr;
    const aclError err = aclrtMalloc(&dev, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST);
    if (err != ACL_SUCCESS) {
      *why = AclErr("aclrtMalloc", err);
      return false;
    }
    device.push_back(dev);
    buffers.push_back(aclCreateDataBuffer(dev, bytes));
    return aclmdlAddDatasetBuffer(dataset, buffers.back()) == ACL_SUCCESS;
  }
};

// Converts `t` to the model's input type where the element types differ only in float
// width (an fp16 model fed fp32 test data).
bool ToModelType(aclDataType want, Tensor* t, std::string* why) {
  const int type = OnnxTypeOf(want);
  if (type == t->type) return true;
  if ((want == ACL_BF16 || want == ACL_FLOAT16) && t->type == kOUint16) {
    t->type = type;  // 16-bit float data stored as raw uint16 in the test's TensorProto
    return true;
  }
  if (want == ACL_FLOAT16 && t->type == kOFloat) {
    std::vector<uint16_t> half(static_cast<size_t>(t->numel()));
    for (int64_t i = 0; i < t->numel(); ++i) {
      half[static_cast<size_t>(i)] = aclFloatToFloat16(static_cast<float>(AsDouble(*t, i)));
    }
    *t = MakeTensor(kOFloat16, half, t->dims);
    return true;
  }
  *why = std::string("input of ONNX type ") + OnnxTypeName(t->type) + ", model wants " +
         OnnxTypeName(type);
  return false;
}

// Runs one data set; "" when every output matches.
std::string RunSet(uint32_t id, aclmdlDesc* desc, const fs::path& set) {
  const size_t inputs = aclmdlGetNumInputs(desc);
  const size_t outputs = aclmdlGetNumOutputs(desc);
  Buffers in;
  Buffers out;
  std::string why;
  for (size_t i = 0; i < inputs; ++i) {
    Tensor t;
    if (!LoadTensor(set / ("input_" + std::to_string(i) + ".pb"), &t, &why)) return why;
    if (!ToModelType(aclmdlGetInputDataType(desc, i), &t, &why)) return why;
    const size_t need = aclmdlGetInputSizeByIndex(desc, i);
    if (t.data.size() != need) {
      return "input " + std::to_string(i) + " holds " + std::to_string(t.data.size()) +
             " bytes, the model wants " + std::to_string(need);
    }
    if (!in.Add(need, &why)) return why;
    if (need > 0) {
      const aclError err =
          aclrtMemcpy(in.device.back(), need, t.data.data(), need, ACL_MEMCPY_HOST_TO_DEVICE);
      if (err != ACL_SUCCESS) return AclErr("aclrtMemcpy", err);
    }
  }
  for (size_t o = 0; o < outputs; ++o) {
    // A model whose output shapes depend on input values reports size 0: the program sizes
    // such buffers itself (here: from the expected output).
    size_t bytes = aclmdlGetOutputSizeByIndex(desc, o);
    if (bytes == 0) {
      Tensor want;
      if (!LoadTensor(set / ("output_" + std::to_string(o) + ".pb"), &want, &why)) return why;
      bytes = static_cast<size_t>(want.numel()) * 8;
    }
    if (!out.Add(bytes, &why)) return why;
  }
  const aclError err = aclmdlExecute(id, in.dataset, out.dataset);
  if (err != ACL_SUCCESS) return AclErr("aclmdlExecute", err);
  for (size_t o = 0; o < outputs; ++o) {
    Tensor want;
    if (!LoadTensor(set / ("output_" + std::to_string(o) + ".pb"), &want, &why)) return why;
    aclmdlIODims dims = {};
    const aclError got_dims = aclmdlGetCurOutputDims(desc, o, &dims);
    if (got_dims != ACL_SUCCESS) return AclErr("aclmdlGetCurOutputDims", got_dims);
    Tensor got;
    got.type = OnnxTypeOf(aclmdlGetOutputDataType(desc, o));
    got.dims.assign(dims.dims, dims.dims + dims.dimCount);
    got.data.resize(static_cast<size_t>(got.numel()) * ElemSize(got.type));
    if (!got.data.empty()) {
      const aclError copied = aclrtMemcpy(got.data.data(), got.data.size(), out.device[o],
                                          got.data.size(), ACL_MEMCPY_DEVICE_TO_HOST);
      if (copied != ACL_SUCCESS) return AclErr("aclrtMemcpy", copied);
    }
    if (want.type == kOUint16 && (got.type == kOBfloat16 || got.type == kOFloat16)) {
      want.type = got.type;  // 16-bit float data stored as raw uint16 in the test's TensorProto
    }
    const std::string diff = Compare(want, got, /*values_only=*/false);
    if (!diff.empty()) return "output " + std::to_string(o) + ": " + diff;
  }
  return "";
}

Result RunTest(const Options& opt, const std::string& set_name, const fs::path& dir) {
  Result r;
  r.set = set_name;
  r.name = dir.filename().string();
  const fs::path om_base = opt.work / (set_name + "." + r.name);
  bool unsupported = false;
  bool crashed = false;
  r.reason = Convert(opt, dir, om_base, &unsupported, &crashed);
  if (!r.reason.empty()) {
    r.outcome = crashed ? Outcome::kCrash : unsupported ? Outcome::kUnsupported : Outcome::kRefused;
    return r;
  }
  uint32_t id = 0;
  aclError err = aclmdlLoadFromFile((om_base.string() + ".om").c_str(), &id);
  if (err != ACL_SUCCESS) {
    r.reason = AclErr("aclmdlLoadFromFile", err);
    return r;
  }
  aclmdlDesc* desc = aclmdlCreateDesc();
  err = aclmdlGetDesc(desc, id);
  if (err != ACL_SUCCESS) r.reason = AclErr("aclmdlGetDesc", err);
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(e.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  for (const fs::path& set : sets) {
    if (!r.reason.empty()) break;
    const std::string fail = RunSet(id, desc, set);
    if (!fail.empty()) r.reason = (sets.size() > 1 ? set.filename().string() + ": " : "") + fail;
  }
  (void)aclmdlDestroyDesc(desc);
  (void)aclmdlUnload(id);
  r.outcome = r.reason.empty() ? Outcome::kPass : Outcome::kFail;
  return r;
}

// Pass rate: PASS over the tests that count (node sets leave UNSUPPORTED out).
double Rate(const std::vector<Result>& results, bool node, size_t* counted, size_t* passed) {
  *counted = 0;
  *passed = 0;
  for (const Result& r : results) {
    if (node && r.outcome == Outcome::kUnsupported) continue;
    ++*counted;
    if (r.outcome == Outcome::kPass) ++*passed;
  }
  return *counted != 0 ? 100.0 * static_cast<double>(*passed) / static_cast<double>(*counted)
                       : 100.0;
}

void WriteMarkdown(const std::string& path, const std::vector<Result>& results, bool node) {
  const std::string marker = "<!-- BEGIN GENERATED by onnx_model_runner --markdown -->";
  std::string head;
  {
    std::ifstream old(path);
    std::stringstream ss;
    ss << old.rdbuf();
    const std::string text = ss.str();
    const size_t at = text.find(marker);
    if (at != std::string::npos) head = text.substr(0, at);
  }
  std::ofstream md(path);
  md << head << marker << "\n\n";
  std::map<std::string, std::vector<const Result*>> per_set;
  for (const Result& r : results) per_set[r.set].push_back(&r);
  md << "| Set | Tests | PASS | FAIL | REFUSED | UNSUPPORTED |\n|---|---|---|---|---|---|\n";
  for (const auto& [set, list] : per_set) {
    std::map<Outcome, int> count;
    for (const Result* r : list) ++count[r->outcome];
    md << "| " << set << " | " << list.size() << " | " << count[Outcome::kPass] << " | "
       << count[Outcome::kFail] << " | " << count[Outcome::kRefused] << " | "
       << count[Outcome::kUnsupported] << " |\n";
  }
  size_t counted = 0;
  size_t passed = 0;
  const double rate = Rate(results, node, &counted, &passed);
  char line[200];
  std::snprintf(line, sizeof(line), "\n**Pass rate: %zu of %zu (%.1f%%).**\n\n", passed, counted,
                rate);
  md << line << "| Set | Test | Result | Detail |\n|---|---|---|---|\n";
  for (const Result& r : results) {
    md << "| " << r.set << " | " << r.name << " | " << OutcomeName(r.outcome) << " | " << r.reason
       << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  std::string filter;
  std::string markdown;
  double min_rate = -1;
  size_t every = 1;
  std::vector<fs::path> data_dirs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--atc" && i + 1 < argc) {
      opt.atc = argv[++i];
    } else if (a == "--work" && i + 1 < argc) {
      opt.work = argv[++i];
    } else if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--markdown" && i + 1 < argc) {
      markdown = argv[++i];
    } else if (a == "--min-pass-rate" && i + 1 < argc) {
      min_rate = std::stod(argv[++i]);
    } else if (a == "--every" && i + 1 < argc) {
      every = std::max<size_t>(1, std::stoul(argv[++i]));
    } else if (a == "--node") {
      opt.node = true;
    } else {
      data_dirs.emplace_back(a);
    }
  }
  if (opt.atc.empty() || opt.work.empty() || data_dirs.empty()) {
    std::fprintf(stderr,
                 "usage: %s --atc ATC --work DIR [--filter S] [--markdown FILE] "
                 "[--min-pass-rate PCT] [--every N] [--node] DATA_DIR...\n",
                 argv[0]);
    return 1;
  }
  std::vector<std::pair<std::string, fs::path>> tests;
  for (const fs::path& data : data_dirs) {
    if (!fs::is_directory(data)) continue;
    for (const auto& e : fs::directory_iterator(data)) {
      const std::string name = e.path().filename().string();
      if (e.is_directory() && fs::exists(e.path() / "model.onnx") &&
          (filter.empty() || name.find(filter) != std::string::npos)) {
        tests.emplace_back(data.filename().string(), e.path());
      }
    }
  }
  if (tests.empty()) {
    std::printf("SKIP: no ONNX test data found (install libonnx-testdata)\n");
    return 77;
  }
  std::sort(tests.begin(), tests.end());
  if (every > 1) {
    std::vector<std::pair<std::string, fs::path>> sample;
    for (size_t i = 0; i < tests.size(); i += every) sample.push_back(tests[i]);
    tests.swap(sample);
  }
  fs::create_directories(opt.work);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclInit/aclrtSetDevice failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  std::vector<Result> results;
  for (const auto& [set, dir] : tests) {
    results.push_back(RunTest(opt, set, dir));
    const Result& r = results.back();
    std::printf("%-18s %-55s %-11s %s\n", r.set.c_str(), r.name.c_str(), OutcomeName(r.outcome),
                r.reason.c_str());
    std::fflush(stdout);
  }
  (void)aclrtResetDevice(0);
  (void)aclFinalize();

  size_t counted = 0;
  size_t passed = 0;
  const double rate = Rate(results, opt.node, &counted, &passed);
  std::printf("\nSummary: %zu tests, %zu counted, %zu passed; pass rate %.1f%%\n", results.size(),
              counted, passed, rate);
  if (!markdown.empty()) WriteMarkdown(markdown, results, opt.node);
  const auto crashes = std::count_if(results.begin(), results.end(),
                                     [](const Result& r) { return r.outcome == Outcome::kCrash; });
  if (crashes > 0) {
    std::printf("FAIL: atc crashed on %ld test(s) (CRASH above)\n", static_cast<long>(crashes));
    return 1;
  }
  if (min_rate >= 0 && rate < min_rate) {
    std::printf("FAIL: pass rate %.1f%% is below the required %.1f%%\n", rate, min_rate);
    return 1;
  }
  return 0;
}
