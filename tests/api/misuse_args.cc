// Objects and parameter parsing for the API misuse suite (see misuse_args.h).
#include "misuse_args.h"

#include <cctype>

namespace misuse {
namespace {

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(' ');
  return text.substr(begin, end - begin + 1);
}

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "const aclTensorDesc* const inputDesc[]" -> {"const aclTensorDesc* const[]", "inputDesc"}.
Param ParseOne(const std::string& text) {
  if (text.find("(*") != std::string::npos) return {"fn", ""};
  if (text == "...") return {"...", ""};
  std::string spelling = text;
  std::string suffix;
  const size_t bracket = spelling.find('[');
  if (bracket != std::string::npos) {
    suffix = spelling.substr(bracket);
    spelling = Trim(spelling.substr(0, bracket));
  }
  size_t name_begin = spelling.size();
  while (name_begin > 0 && IsIdentChar(spelling[name_begin - 1])) --name_begin;
  return {Trim(spelling.substr(0, name_begin)) + suffix, spelling.substr(name_begin)};
}

// The spelling without top-level "const" qualifiers on either side.
std::string Unqualified(std::string spelling) {
  if (spelling.rfind("const ", 0) == 0) spelling = spelling.substr(6);
  const std::string tail = " const";
  if (spelling.size() > tail.size() &&
      spelling.compare(spelling.size() - tail.size(), tail.size(), tail) == 0) {
    spelling.resize(spelling.size() - tail.size());
  }
  return spelling;
}

bool Contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

std::vector<Param> ParseParams(const char* list) {
  std::string text = list;
  text = Trim(text.substr(1, text.size() - 2));  // drop the parentheses
  std::vector<Param> params;
  if (text == "void") return params;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      params.push_back(ParseOne(Trim(current)));
      current.clear();
    } else {
      current += c;
    }
  }
  params.push_back(ParseOne(Trim(current)));
  if (params.back().spelling == "...") params.pop_back();  // aclAppLog: no variadic arguments
  return params;
}

Kind HandleKindOf(const std::string& spelling) {
  const std::string type = Unqualified(spelling);
  if (type == "aclrtStream") return Kind::kStream;
  if (type == "aclrtEvent") return Kind::kEvent;
  if (type == "aclrtContext") return Kind::kContext;
  if (type == "aclDataBuffer*") return Kind::kDataBuffer;
  if (type == "aclTensorDesc*") return Kind::kTensorDesc;
  if (type == "aclopAttr*") return Kind::kOpAttr;
  if (type == "aclrtStreamConfigHandle*") return Kind::kStreamConfig;
  if (type == "aclmdlDataset*") return Kind::kDataset;
  if (type == "aclmdlConfigHandle*") return Kind::kModelConfig;
  if (type == "aclmdlExecConfigHandle*") return Kind::kExecConfig;
  if (type == "aclmdlDesc*") return Kind::kModelDesc;
  if (type == "aclrtMemPool") return Kind::kMemPool;
  if (type == "aclrtDrvMemHandle") return Kind::kPhysicalMem;
  if (type == "aclprofConfig*") return Kind::kProfConfig;
  if (type == "aclrtNotify") return Kind::kNotify;
  if (type == "aclrtCntNotify") return Kind::kCntNotify;
  return Kind::kNone;
}

namespace {

// Creates one object of `kind`; NULL when it cannot be created (runtime down, ...).
void* Create(Kind kind, void* dev) {
  switch (kind) {
    case Kind::kStream: {
      aclrtStream stream = nullptr;
      return aclrtCreateStream(&stream) == ACL_SUCCESS ? stream : nullptr;
    }
    case Kind::kEvent: {
      aclrtEvent event = nullptr;
      return aclrtCreateEvent(&event) == ACL_SUCCESS ? event : nullptr;
    }
    case Kind::kContext: {
      aclrtContext context = nullptr;
      return aclrtGetCurrentContext(&context) == ACL_SUCCESS ? context : nullptr;
    }
    case Kind::kDataBuffer:
      return aclCreateDataBuffer(dev, 64);
    case Kind::kTensorDesc: {
      const int64_t dims[] = {4, 4};
      return aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    }
    case Kind::kOpAttr:
      return aclopCreateAttr();
    case Kind::kStreamConfig:
      return aclrtCreateStreamConfigHandle();
    case Kind::kDataset:
      return aclmdlCreateDataset();
    case Kind::kModelConfig:
      return aclmdlCreateConfigHandle();
    case Kind::kExecConfig:
      return aclmdlCreateExecConfigHandle();
    case Kind::kModelDesc:
      return aclmdlCreateDesc();
    case Kind::kMemPool: {
      aclrtMemPoolProps props = {};
      props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
      props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
      props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      props.location.id = 0;
      aclrtMemPool pool = nullptr;
      return aclrtMemPoolCreate(&pool, &props) == ACL_SUCCESS ? pool : nullptr;
    }
    case Kind::kPhysicalMem: {
      const aclrtPhysicalMemProp prop = acltest::HbmPhysicalProp();
      aclrtDrvMemHandle handle = nullptr;
      return aclrtMallocPhysical(&handle, 2u << 20, &prop, 0) == ACL_SUCCESS ? handle : nullptr;
    }
    case Kind::kProfConfig: {
      uint32_t devices[1] = {0};
      return aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, 0);
    }
    case Kind::kNotify: {
      aclrtNotify notify = nullptr;
      return aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT) == ACL_SUCCESS ? notify : nullptr;
    }
    case Kind::kCntNotify: {
      aclrtCntNotify notify = nullptr;
      return aclrtCntNotifyCreate(&notify, ACL_NOTIFY_DEFAULT) == ACL_SUCCESS ? notify : nullptr;
    }
    case Kind::kNone:
    case Kind::kCount:
      break;
  }
  return nullptr;
}

void Destroy(Kind kind, void* object) {
  if (object == nullptr) return;
  switch (kind) {
    case Kind::kStream:
      (void)aclrtDestroyStreamForce(object);
      break;
    case Kind::kEvent:
      (void)aclrtDestroyEvent(object);
      break;
    case Kind::kContext:  // the device's primary context: reset with the device
      break;
    case Kind::kDataBuffer:
      (void)aclDestroyDataBuffer(static_cast<aclDataBuffer*>(object));
      break;
    case Kind::kTensorDesc:
      aclDestroyTensorDesc(static_cast<aclTensorDesc*>(object));
      break;
    case Kind::kOpAttr:
      aclopDestroyAttr(static_cast<aclopAttr*>(object));
      break;
    case Kind::kStreamConfig:
      (void)aclrtDestroyStreamConfigHandle(static_cast<aclrtStreamConfigHandle*>(object));
      break;
    case Kind::kDataset:
      (void)aclmdlDestroyDataset(static_cast<aclmdlDataset*>(object));
      break;
    case Kind::kModelConfig:
      (void)aclmdlDestroyConfigHandle(static_cast<aclmdlConfigHandle*>(object));
      break;
    case Kind::kExecConfig:
      (void)aclmdlDestroyExecConfigHandle(static_cast<aclmdlExecConfigHandle*>(object));
      break;
    case Kind::kModelDesc:
      (void)aclmdlDestroyDesc(static_cast<aclmdlDesc*>(object));
      break;
    case Kind::kMemPool:
      (void)aclrtMemPoolDestroy(object);
      break;
    case Kind::kPhysicalMem:
      (void)aclrtFreePhysical(object);
      break;
    case Kind::kProfConfig:
      (void)aclprofDestroyConfig(static_cast<aclprofConfig*>(object));
      break;
    case Kind::kNotify:
      (void)aclrtDestroyNotify(object);
      break;
    case Kind::kCntNotify:
      (void)aclrtCntNotifyDestroy(object);
      break;
    case Kind::kNone:
    case Kind::kCount:
      break;
  }
}

}  // namespace

Objects::Objects(bool runtime_up) {
  if (runtime_up) {
    (void)aclrtMalloc(&dev_, kScratchBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    (void)aclrtMallocHost(&host_, kScratchBytes);
  }
  for (int k = 1; k < static_cast<int>(Kind::kCount); ++k) {
    const Kind kind = static_cast<Kind>(k);
    live_[k] = Create(kind, dev_ != nullptr ? dev_ : not_a_handle_);
    if (kind == Kind::kContext) {
      // A destroyed context: create one (it becomes current), destroy it, restore ours.
      aclrtContext stale = nullptr;
      if (runtime_up && aclrtCreateContext(&stale, 0) == ACL_SUCCESS) {
        (void)aclrtDestroyContext(stale);
        (void)aclrtSetCurrentContext(live_[k]);
        stale_[k] = stale;
      }
    } else {
      stale_[k] = Create(kind, dev_ != nullptr ? dev_ : not_a_handle_);
      Destroy(kind, stale_[k]);
    }
    // Without a runtime, kinds that need one point at memory that is no handle.
    if (live_[k] == nullptr) live_[k] = not_a_handle_;
    if (stale_[k] == nullptr) stale_[k] = not_a_handle_;
  }
  for (size_t i = 0; i < 8; ++i) {
    desc_array_[i] = live_[static_cast<int>(Kind::kTensorDesc)];
    buffer_array_[i] = live_[static_cast<int>(Kind::kDataBuffer)];
  }
  if (dev_ == nullptr) dev_ = scratch_[kMaxParams - 1];
  if (host_ == nullptr) host_ = scratch_[kMaxParams - 2];
  (void)aclGetRecentErrMsg();
}

Objects::~Objects() {
  for (int k = 1; k < static_cast<int>(Kind::kCount); ++k) {
    if (live_[k] != not_a_handle_) Destroy(static_cast<Kind>(k), live_[k]);
  }
  (void)aclrtFree(dev_);
  (void)aclrtFreeHost(host_);
  (void)aclGetRecentErrMsg();
}

void* Objects::PointerFor(const Param& param, size_t index, Bad bad) {
  const Kind kind = HandleKindOf(param.spelling);
  if (kind != Kind::kNone) {
    if (bad == Bad::kDestroyed) return stale_[static_cast<int>(kind)];
    if (bad == Bad::kWrongKind) {
      return live_[static_cast<int>(kind == Kind::kStream ? Kind::kEvent : Kind::kStream)];
    }
    return live_[static_cast<int>(kind)];
  }
  const std::string type = Unqualified(param.spelling);
  if (Contains(type, "[]")) {
    if (Contains(type, "aclTensorDesc")) return desc_array_;
    if (Contains(type, "aclDataBuffer")) return buffer_array_;
  }
  if (type == "char*" && Contains(param.spelling, "const")) {
    return const_cast<char*>("misuse");
  }
  if (type == "void*") {
    if (Contains(param.name, "host") || Contains(param.name, "Host")) return host_;
    // Host data by the documentation: callback arguments, option values, model bytes,
    // GEMM scalars. Test-owned, so still readable after aclFinalize.
    static const char* const kHostData[] = {
        "userData", "args",  "attrValue", "pHost", "dataBuffer", "shareableHandle",
        "value",    "model", "alpha",     "beta",  "data",       "fd"};
    for (const char* name : kHostData) {
      if (param.name == name) return host_data_;
    }
    return dev_;
  }
  unsigned char* scratch = scratch_[index < kMaxParams - 2 ? index : 0];
  std::memset(scratch, 0, kScratchBytes);
  return scratch;
}

}  // namespace misuse
