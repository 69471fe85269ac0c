// API misuse suite (issue 8): every function of the manifest (src/api/manifest/acl_api.def),
// called with one bad argument at a time, before aclInit and after aclFinalize. Each call
// must return an error (an aclError other than ACL_SUCCESS, or the function's fail value)
// and leave a recent-error message naming the function; none may crash or block. STUB
// functions must answer ACL_ERROR_API_NOT_SUPPORT (or their fail value) whatever the
// arguments.
//
// The calls of one function form one test (MisuseTest.Calls/<function>), so ctest runs each
// function in its own process and a crash in one hides nothing else. Arguments come from
// misuse_args.h. Legal uses of NULL and functions that work without aclInit are listed
// explicitly below, each with its reason; see docs/errors.md ("The misuse suite").
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "acl/acl_ext.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/ops/acl_cblas.h"
#include "api_test.h"
#include "misuse_args.h"

namespace {

using misuse::Bad;
using misuse::Objects;
using misuse::Outcome;
using misuse::Param;
using misuse::ParamTraits;

using CallFn = Outcome (*)(Objects&, const std::vector<Param>&, int, Bad);

struct Entry {
  const char* name;
  bool implemented;
  const char* params;
  std::vector<ParamTraits> (*traits)();
  CallFn call;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define VOID_RET
// ret (*) params names the C function where C++ overloads (acl_rt_api.h) share its name.
#define ACL_FN(status, header, lib, ret, name, params, fail)                                  \
  {#name, std::strcmp(#status, "IMPL") == 0, #params, &misuse::Caller<ret(*) params>::Traits, \
   [](Objects& objects, const std::vector<Param>& args, int bad_index, Bad bad) {             \
     return misuse::Caller<ret(*) params>::Call(                                              \
         static_cast<ret(*) params>(&name), []() -> ret { return fail; }, objects, args,      \
         bad_index, bad);                                                                     \
   }},
const Entry kManifest[] = {
#include "api/manifest/acl_api.def"
};
#undef ACL_FN
#undef VOID_RET
#pragma GCC diagnostic pop

constexpr size_t kManifestSize = sizeof(kManifest) / sizeof(kManifest[0]);

// ---- Allow-lists -------------------------------------------------------------------------

// (function, parameter index) where NULL is a documented, legal argument: the call may
// succeed. Every other NULL pointer must be rejected with a message.
struct NullAccepted {
  const char* function;
  int param;
  const char* reason;
};
const NullAccepted kNullAccepted[] = {
    {"aclInit", 0, "NULL configPath: initialise with the default configuration"},
    {"aclFinalizeReference", 0, "refCount is an optional output"},
    {"aclDestroyTensorDesc", 0, "destroying NULL does nothing (void, as free(NULL))"},
    {"aclopDestroyAttr", 0, "destroying NULL does nothing (void, as free(NULL))"},
    {"aclopDestroyHandle", 0, "destroying NULL does nothing (void, as free(NULL))"},
    {"aclSetTensorDescName", 1, "a NULL name clears the name"},
    {"aclCreateTensorDesc", 2, "dims may be NULL when numDims is 0 (a scalar)"},
    {"aclSetTensorShape", 2, "dims may be NULL when numDims is 0 (a scalar)"},
    {"aclSetTensorOriginShape", 2, "dims may be NULL when numDims is 0 (a scalar)"},
    {"aclSetTensorStorageShape", 2, "dims may be NULL when numDims is 0 (a scalar)"},
    {"aclopSetAttrListBool", 3, "values may be NULL when numValues is 0 (an empty list)"},
    {"aclopSetAttrListInt", 3, "values may be NULL when numValues is 0 (an empty list)"},
    {"aclopSetAttrListFloat", 3, "values may be NULL when numValues is 0 (an empty list)"},
    {"aclopSetAttrListString", 3, "values may be NULL when numValues is 0 (an empty list)"},
    {"aclopSetAttrListDataType", 3, "values may be NULL when numValues is 0 (an empty list)"},
    {"aclopSetAttrListListInt", 3, "numValues may be NULL when numLists is 0 (an empty list)"},
    {"aclopSetAttrListListInt", 4, "values may be NULL when numLists is 0 (an empty list)"},
    {"aclrtLaunchHostFunc", 2, "args is the user's opaque argument, NULL allowed"},
    {"aclprofCreateConfig", 3, "aicoreEvents is reserved: NULL"},
    {"aclrtSetExceptionInfoCallback", 0, "NULL unregisters the callback"},
    {"aclrtMallocWithCfg", 3, "cfg NULL: the default configuration"},
    {"aclrtMallocHostWithCfg", 2, "cfg NULL: the default configuration"},
    {"aclrtMallocForTaskScheduler", 3, "cfg NULL: the default configuration"},
    {"aclrtMemGetAddressRange", 1, "pbase is an optional output"},
    {"aclrtMemGetAddressRange", 2, "psize is an optional output"},
    {"aclAppLog", 1, "logging never fails: a NULL function name is logged as such"},
    {"aclAppLog", 2, "logging never fails: a NULL file name is logged as such"},
    {"aclAppLog", 4, "logging never fails: a NULL format logs an empty message"},
};

// (function, parameter index) of an enum where an unknown value is accepted.
struct EnumAccepted {
  const char* function;
  int param;
  const char* reason;
};
const EnumAccepted kEnumAccepted[] = {
    {"aclAppLog", 0, "logging never fails: an unknown level is logged at the nearest one"},
};

// (function, parameter index) of a size_t the library cannot bound: SIZE_MAX is accepted.
struct SizeAccepted {
  const char* function;
  int param;
  const char* reason;
};
const SizeAccepted kSizeAccepted[] = {
    {"aclCreateDataBuffer", 1, "describes the caller's memory; the size is not checked"},
    {"aclUpdateDataBuffer", 2, "describes the caller's memory; the size is not checked"},
    {"aclGetCompileopt", 2, "length is the caller's buffer size; only the value is written"},
    {"aclrtGetMemUsageInfo", 2,
     "inputNum is the caller's array length; only entries that "
     "exist are written"},
    {"aclrtMemPoolTrimTo", 1, "keeping more than the pool holds trims nothing"},
    {"aclrtMemset", 1, "maxCount only bounds count; the range checked is count"},
    {"aclrtMemsetAsync", 1, "maxCount only bounds count; the range checked is count"},
    {"aclrtMemsetD32", 1, "memSize only bounds count; the range checked is count"},
    {"aclrtMemsetD32Async", 1, "memSize only bounds count; the range checked is count"},
    {"acldumpGetExceptionInfoPath", 1,
     "pathLen is the caller's buffer size; only the path (and its NUL) is written"},
};

// Value-returning functions whose failure value differs from the manifest's default.
struct FailValue {
  const char* function;
  int64_t value;
};
const FailValue kFailValueOverrides[] = {
    {"aclGetTensorDescDim", -1},
    {"aclrtGetTaskIdFromExceptionInfo", 0xffffffff},
    {"aclrtGetStreamIdFromExceptionInfo", 0xffffffff},
    {"aclrtGetThreadIdFromExceptionInfo", 0xffffffff},
    {"aclrtGetDeviceIdFromExceptionInfo", 0xffffffff},
    {"aclrtGetErrorCodeFromExceptionInfo", 0xffffffff},
};

// A NULL aclrtStream is the default stream of the current context wherever a stream is taken
// (CANN: "stream: NULL means the default stream"); such calls may succeed. Functions that
// need a real stream (destroy, ...) are listed here and must reject NULL like any pointer.
const std::set<std::string> kStreamMustNotBeNull = {
    "aclrtDestroyStream",
    "aclrtDestroyStreamForce",
};

// Functions documented to work without aclInit (and after aclFinalize): their plausible call
// before aclInit may succeed. Bad arguments must still be rejected.
struct NoInitNeeded {
  const char* function;
  const char* reason;
};
const NoInitNeeded kNoInitNeeded[] = {
    {"aclInit", "initialises the runtime"},
    {"aclGetRecentErrMsg", "reads the thread's messages; NULL when there are none"},
    {"aclAppLog", "the log works before aclInit"},
    {"acldumpRegCallback",
     "libascend_dump's registration is a process setting (msprobe registers before aclInit)"},
    {"acldumpUnregCallback", "libascend_dump's registration is a process setting"},
    {"aclrtGetLastError", "reads the thread's last error"},
    {"aclrtPeekAtLastError", "reads the thread's last error"},
    {"aclrtGetVersion", "version query"},
    {"aclsysGetCANNVersion", "version query"},
    {"aclrtGetRunMode", "a property of the installation"},
    {"aclrtDeviceGetBareTgid", "the process id"},
    {"aclFloat16ToFloat", "pure conversion"},
    {"aclFloatToFloat16", "pure conversion"},
    {"aclDataTypeSize", "pure table lookup"},
    {"aclCreateDataBuffer", "data buffers are host objects"},
    {"aclDestroyDataBuffer", "data buffers are host objects"},
    {"aclUpdateDataBuffer", "data buffers are host objects"},
    {"aclGetDataBufferAddr", "data buffers are host objects"},
    {"aclGetDataBufferSize", "data buffers are host objects"},
    {"aclGetDataBufferSizeV2", "data buffers are host objects"},
    {"aclCreateTensorDesc", "tensor descriptors are host objects"},
    {"aclDestroyTensorDesc", "tensor descriptors are host objects"},
    {"aclGetTensorDescAddress", "tensor descriptors are host objects"},
    {"aclGetTensorDescDim", "tensor descriptors are host objects"},
    {"aclGetTensorDescElementCount", "tensor descriptors are host objects"},
    {"aclGetTensorDescFormat", "tensor descriptors are host objects"},
    {"aclGetTensorDescName", "tensor descriptors are host objects"},
    {"aclGetTensorDescNumDims", "tensor descriptors are host objects"},
    {"aclGetTensorDescSize", "tensor descriptors are host objects"},
    {"aclGetTensorDescType", "tensor descriptors are host objects"},
    {"aclSetTensorConst", "tensor descriptors are host objects"},
    {"aclSetTensorDescName", "tensor descriptors are host objects"},
    {"aclSetTensorDynamicInput", "tensor descriptors are host objects"},
    {"aclSetTensorFormat", "tensor descriptors are host objects"},
    {"aclSetTensorOriginFormat", "tensor descriptors are host objects"},
    {"aclSetTensorOriginShape", "tensor descriptors are host objects"},
    {"aclSetTensorPlaceMent", "tensor descriptors are host objects"},
    {"aclSetTensorShape", "tensor descriptors are host objects"},
    {"aclSetTensorShapeRange", "tensor descriptors are host objects"},
    {"aclSetTensorStorageFormat", "tensor descriptors are host objects"},
    {"aclSetTensorStorageShape", "tensor descriptors are host objects"},
    {"aclSetTensorValueRange", "tensor descriptors are host objects"},
    {"aclopCreateAttr", "op attributes are host objects"},
    {"aclopDestroyAttr", "op attributes are host objects"},
    {"aclopSetAttrBool", "op attributes are host objects"},
    {"aclopSetAttrDataType", "op attributes are host objects"},
    {"aclopSetAttrFloat", "op attributes are host objects"},
    {"aclopSetAttrInt", "op attributes are host objects"},
    {"aclopSetAttrString", "op attributes are host objects"},
    {"aclopSetAttrListBool", "op attributes are host objects"},
    {"aclopSetAttrListDataType", "op attributes are host objects"},
    {"aclopSetAttrListFloat", "op attributes are host objects"},
    {"aclopSetAttrListInt", "op attributes are host objects"},
    {"aclopSetAttrListListInt", "op attributes are host objects"},
    {"aclopSetAttrListString", "op attributes are host objects"},
    {"aclSetCompileopt", "compile options are process settings"},
    {"aclGetCompileopt", "compile options are process settings"},
    {"aclGetCompileoptSize", "compile options are process settings"},
    {"aclopSetCompileFlag", "compile options are process settings"},
    {"aclmdlCreateDataset", "datasets are host objects"},
    {"aclmdlDestroyDataset", "datasets are host objects"},
    {"aclmdlCreateDesc", "model descriptors are host objects (filled later)"},
    {"aclprofCreateStamp", "stamps are host objects"},
    {"aclprofCreateStepInfo", "step infos are host objects"},
    {"aclprofGetOpDescSize", "the op info size is a constant"},
    {"aclprofDestroyConfig", "profiling configs are host objects (created with the runtime up)"},
    {"aclprofStr2Id", "a message's id is a hash of it"},
    {"aclmdlDestroyDesc", "model descriptors are host objects"},
    {"aclmdlAddDatasetBuffer", "datasets are host objects"},
    {"aclmdlGetDatasetNumBuffers", "datasets are host objects"},
    {"aclmdlCreateConfigHandle", "configuration handles are host objects"},
    {"aclmdlDestroyConfigHandle", "configuration handles are host objects"},
    {"aclmdlCreateExecConfigHandle", "configuration handles are host objects"},
    {"aclmdlDestroyExecConfigHandle", "configuration handles are host objects"},
    {"aclrtCreateStreamConfigHandle", "configuration handles are host objects"},
    {"aclrtDestroyStreamConfigHandle", "configuration handles are host objects"},
    {"aclrtGetTaskIdFromExceptionInfo", "reads the caller's exception record"},
    {"aclrtGetStreamIdFromExceptionInfo", "reads the caller's exception record"},
    {"aclrtGetThreadIdFromExceptionInfo", "reads the caller's exception record"},
    {"aclrtGetDeviceIdFromExceptionInfo", "reads the caller's exception record"},
    {"aclrtGetErrorCodeFromExceptionInfo", "reads the caller's exception record"},
};

// ---- Plans ---------------------------------------------------------------------------------

enum class Phase { kBeforeInit, kAfterFinalize, kInitialised };

struct Call {
  Phase phase;
  int param;  // -1: every argument plausible
  Bad bad;
};

const char* CategoryName(const Call& call) {
  if (call.phase == Phase::kBeforeInit) return "before-init";
  if (call.phase == Phase::kAfterFinalize) return "after-finalize";
  switch (call.bad) {
    case Bad::kNull:
      return "null-pointer";
    case Bad::kDestroyed:
      return "destroyed-handle";
    case Bad::kWrongKind:
      return "wrong-kind-handle";
    case Bad::kBadEnum:
      return "bad-enum";
    case Bad::kHugeSize:
      return "huge-size";
    case Bad::kNone:
      break;
  }
  return "plausible";
}

std::vector<Call> PlanFor(const Entry& entry) {
  std::vector<Call> calls = {{Phase::kBeforeInit, -1, Bad::kNone},
                             {Phase::kAfterFinalize, -1, Bad::kNone}};
  const std::vector<Param> params = misuse::ParseParams(entry.params);
  const std::vector<ParamTraits> traits = entry.traits();
  bool has_pointer = false;
  for (const ParamTraits& t : traits) has_pointer = has_pointer || t.pointer;
  for (size_t i = 0; i < traits.size(); ++i) {
    const int index = static_cast<int>(i);
    if (traits[i].pointer) {
      calls.push_back({Phase::kInitialised, index, Bad::kNull});
      if (misuse::HandleKindOf(params[i].spelling) != misuse::Kind::kNone) {
        calls.push_back({Phase::kInitialised, index, Bad::kDestroyed});
        calls.push_back({Phase::kInitialised, index, Bad::kWrongKind});
      }
    }
    if (traits[i].enumeration) calls.push_back({Phase::kInitialised, index, Bad::kBadEnum});
    const bool size = params[i].spelling == "size_t" || params[i].spelling == "const size_t";
    if (traits[i].size && size && has_pointer) {
      calls.push_back({Phase::kInitialised, index, Bad::kHugeSize});
    }
  }
  return calls;
}

bool NullIsAccepted(const Entry& entry, const std::vector<Param>& params, int param) {
  for (const NullAccepted& allowed : kNullAccepted) {
    if (std::strcmp(allowed.function, entry.name) == 0 && allowed.param == param) return true;
  }
  return misuse::HandleKindOf(params[static_cast<size_t>(param)].spelling) ==
             misuse::Kind::kStream &&
         kStreamMustNotBeNull.count(entry.name) == 0;
}

bool SizeIsAccepted(const Entry& entry, int param) {
  for (const SizeAccepted& allowed : kSizeAccepted) {
    if (std::strcmp(allowed.function, entry.name) == 0 && allowed.param == param) return true;
  }
  return false;
}

bool EnumIsAccepted(const Entry& entry, int param) {
  for (const EnumAccepted& allowed : kEnumAccepted) {
    if (std::strcmp(allowed.function, entry.name) == 0 && allowed.param == param) return true;
  }
  return false;
}

bool IsFailValue(const Entry& entry, const Outcome& outcome) {
  for (const FailValue& override_value : kFailValueOverrides) {
    if (std::strcmp(override_value.function, entry.name) == 0) {
      return outcome.integral && outcome.value == override_value.value;
    }
  }
  return outcome.failed;
}

bool WorksWithoutInit(const Entry& entry) {
  for (const NoInitNeeded& allowed : kNoInitNeeded) {
    if (std::strcmp(allowed.function, entry.name) == 0) return true;
  }
  return false;
}

// Counts of calls made, per category (printed at the end of a whole-binary run).
std::map<std::string, size_t>& CallsMade() {
  static std::map<std::string, size_t> counts;
  return counts;
}
std::set<std::string>& FunctionsCalled() {
  static std::set<std::string> names;
  return names;
}

// The call in progress, for the watchdog.
std::atomic<const char*> g_current_function{""};
std::atomic<const char*> g_current_category{""};

void OnAlarm(int) {
  char line[256];
  const int n = std::snprintf(line, sizeof(line), "misuse: %s (%s) did not return in time\n",
                              g_current_function.load(), g_current_category.load());
  if (n > 0) (void)!write(STDERR_FILENO, line, static_cast<size_t>(n));
  _exit(3);
}

void StartRuntime() {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  acltest::ClearRecentErrors();
}

class MisuseTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override { signal(SIGALRM, OnAlarm); }
  void TearDown() override { acltest::AclTest::Shutdown(); }

  // Runs one call and checks its outcome.
  void Run(const Entry& entry, const std::vector<Param>& params, const Call& call,
           Objects& objects) {
    const std::string category = CategoryName(call);
    const std::string what =
        std::string(entry.name) + " [" + category +
        (call.param >= 0 ? " param " + std::to_string(call.param) + " (" +
                               params[static_cast<size_t>(call.param)].name + ")"
                         : std::string()) +
        "]";
    if (call.phase == Phase::kInitialised) (void)aclrtSetCurrentContext(objects.context());
    acltest::ClearRecentErrors();
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    g_current_function = entry.name;
    g_current_category = CategoryName(call);
    alarm(10);
    const Outcome outcome = entry.call(objects, params, call.param, call.bad);
    alarm(0);
    ++CallsMade()[category];
    FunctionsCalled().insert(entry.name);

    if (!entry.implemented) {
      if (outcome.is_acl_error) {
        EXPECT_EQ(outcome.code, ACL_ERROR_API_NOT_SUPPORT) << what;
      } else if (outcome.has_result) {
        EXPECT_TRUE(outcome.failed) << what << ": not the fail value";
      }
      EXPECT_TRUE(acltest::RecentErrorNames(entry.name)) << what;
      return;
    }
    bool may_succeed = false;
    if (call.phase != Phase::kInitialised) may_succeed = WorksWithoutInit(entry);
    if (call.bad == Bad::kNull) may_succeed = NullIsAccepted(entry, params, call.param);
    if (call.bad == Bad::kHugeSize) may_succeed = SizeIsAccepted(entry, call.param);
    if (call.bad == Bad::kBadEnum) may_succeed = EnumIsAccepted(entry, call.param);
    if (may_succeed) {
      acltest::ClearRecentErrors();
      return;
    }
    if (outcome.has_result) {
      EXPECT_TRUE(IsFailValue(entry, outcome)) << what << ": succeeded";
    }
    EXPECT_TRUE(acltest::RecentErrorNames(entry.name)) << what;
  }
};

TEST_P(MisuseTest, Calls) {
  const Entry& entry = kManifest[GetParam()];
  const std::vector<Param> params = misuse::ParseParams(entry.params);
  ASSERT_EQ(params.size(), entry.traits().size()) << entry.name << " " << entry.params;
  const std::vector<Call> plan = PlanFor(entry);

  acltest::AclTest::Shutdown();
  {
    Objects objects(/*runtime_up=*/false);
    Run(entry, params, plan[0], objects);
  }
  acltest::AclTest::Shutdown();  // in case the call initialised the runtime

  {
    StartRuntime();
    Objects objects(/*runtime_up=*/true);
    ASSERT_ACL_OK(aclFinalize());
    Run(entry, params, plan[1], objects);
  }
  acltest::AclTest::Shutdown();

  for (size_t i = 2; i < plan.size(); ++i) {
    StartRuntime();
    {
      Objects objects(/*runtime_up=*/true);
      Run(entry, params, plan[i], objects);
    }
    acltest::AclTest::Shutdown();
  }
}

std::string TestName(const ::testing::TestParamInfo<size_t>& info) {
  return kManifest[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(Manifest, MisuseTest, ::testing::Range<size_t>(0, kManifestSize),
                         TestName);

// The plan covers every manifest function; the allow-lists name real functions and
// parameters. Prints the planned counts.
TEST(MisuseSummary, EveryManifestFunctionIsCovered) {
  EXPECT_EQ(kManifestSize, 690u);
  std::map<std::string, size_t> planned;
  size_t calls = 0, implemented = 0;
  std::set<std::string> names;
  for (const Entry& entry : kManifest) {
    const std::vector<Call> plan = PlanFor(entry);
    EXPECT_GE(plan.size(), 2u) << entry.name;
    for (const Call& call : plan) ++planned[CategoryName(call)];
    calls += plan.size();
    implemented += entry.implemented ? 1 : 0;
    names.insert(entry.name);
  }
  for (const NullAccepted& allowed : kNullAccepted) {
    bool found = false;
    for (const Entry& entry : kManifest) {
      if (std::strcmp(entry.name, allowed.function) != 0) continue;
      found = true;
      const std::vector<ParamTraits> traits = entry.traits();
      ASSERT_LT(static_cast<size_t>(allowed.param), traits.size()) << allowed.function;
      EXPECT_TRUE(traits[static_cast<size_t>(allowed.param)].pointer) << allowed.function;
    }
    EXPECT_TRUE(found) << allowed.function << " is not in the manifest";
  }
  for (const EnumAccepted& allowed : kEnumAccepted) {
    EXPECT_EQ(names.count(allowed.function), 1u) << allowed.function << " is not in the manifest";
  }
  for (const EnumAccepted& allowed : kEnumAccepted) {
    EXPECT_EQ(names.count(allowed.function), 1u) << allowed.function << " is not in the manifest";
  }
  for (const SizeAccepted& allowed : kSizeAccepted) {
    EXPECT_EQ(names.count(allowed.function), 1u) << allowed.function << " is not in the manifest";
  }
  for (const FailValue& override_value : kFailValueOverrides) {
    EXPECT_EQ(names.count(override_value.function), 1u) << override_value.function;
  }
  for (const NoInitNeeded& allowed : kNoInitNeeded) {
    EXPECT_EQ(names.count(allowed.function), 1u) << allowed.function << " is not in the manifest";
  }
  for (const std::string& name : kStreamMustNotBeNull) {
    EXPECT_EQ(names.count(name), 1u) << name << " is not in the manifest";
  }
  std::string line = "misuse plan: " + std::to_string(names.size()) + " functions (" +
                     std::to_string(implemented) + " implemented), " + std::to_string(calls) +
                     " calls:";
  for (const auto& [category, count] : planned) {
    line += " " + category + " " + std::to_string(count);
  }
  line += "; allow-lists: NULL accepted " + std::to_string(std::size(kNullAccepted)) +
          " + NULL default stream, SIZE_MAX accepted " + std::to_string(std::size(kSizeAccepted)) +
          ", bad enum accepted " + std::to_string(std::size(kEnumAccepted)) + ", no init needed " +
          std::to_string(std::size(kNoInitNeeded));
  std::printf("%s\n", line.c_str());
  EXPECT_EQ(names.size(), kManifestSize);
}

// After a whole-binary run: one summary line of the calls made; every function was called.
class SummaryPrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    size_t total = 0;
    std::string line;
    for (const auto& [category, count] : CallsMade()) {
      line += " " + category + " " + std::to_string(count);
      total += count;
    }
    std::printf("misuse calls made: %zu functions, %zu calls:%s\n", FunctionsCalled().size(), total,
                line.c_str());
    const bool whole_run =
        ::testing::UnitTest::GetInstance()->test_to_run_count() > static_cast<int>(kManifestSize);
    if (whole_run) {
      EXPECT_EQ(FunctionsCalled().size(), kManifestSize) << "manifest functions not called";
    }
  }
};

[[maybe_unused]] ::testing::Environment* const kSummary =
    ::testing::AddGlobalTestEnvironment(new SummaryPrinter);

}  // namespace
