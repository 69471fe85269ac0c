// Argument generation for the API misuse suite (misuse_test.cc).
//
// The suite calls every manifest function through Caller<decltype(&fn)>, which builds each
// argument from its C++ type and its spelling in the manifest (aclrtStream, aclrtEvent and
// aclrtContext are all void*, so the spelling tells which live handle to pass). One
// argument at a time is made bad (Bad); the others stay plausible:
//   - handles: a live object of the right kind (Objects);
//   - void* / const void*: 4 KiB of device memory, or of host memory for parameters that
//     take host data (by name: hostPtr, userData, attrValue, model, alpha, ...);
//   - const char*: a short string; arrays of descriptors or buffers: live ones;
//   - callbacks: a function that does nothing; other pointers: zeroed 4 KiB of scratch;
//   - enums 0, size_t 64, other scalars 0, structs passed by value zero-initialised.
// Plausible arguments never enqueue work, so no call of the suite can block on a stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_memory_soma.h"

namespace misuse {

// What is wrong with the one bad argument of a call (kNone: every argument is plausible).
enum class Bad { kNone, kNull, kDestroyed, kWrongKind, kBadEnum, kHugeSize };

// One parameter of a manifest entry: its type as spelled there ("const aclTensorDesc*",
// "aclrtStream", "int64_t[][2]", "fn" for a function pointer) and its name.
struct Param {
  std::string spelling;
  std::string name;
};

// The parameters of a manifest parameter list, e.g. "(void* devPtr, size_t size)".
std::vector<Param> ParseParams(const char* list);

// Kinds of handles the suite can create; kNone for a spelling that is not a handle.
enum class Kind {
  kNone,
  kStream,
  kEvent,
  kContext,
  kDataBuffer,
  kTensorDesc,
  kOpAttr,
  kStreamConfig,
  kDataset,
  kModelConfig,
  kExecConfig,
  kModelDesc,
  kMemPool,
  kPhysicalMem,
  kProfConfig,
  kNotify,
  kCntNotify,
  kCount,
};

Kind HandleKindOf(const std::string& spelling);

// The objects one call's plausible arguments point at. Created with the runtime up (every
// kind) or down (only the kinds that exist without aclInit; the rest point at zeroed memory
// that is no handle). Each kind also has a destroyed ("stale") handle.
class Objects {
 public:
  static constexpr size_t kScratchBytes = 4096;
  static constexpr size_t kMaxParams = 24;

  explicit Objects(bool runtime_up);
  ~Objects();
  Objects(const Objects&) = delete;
  Objects& operator=(const Objects&) = delete;

  // The pointer argument for `param` (index `index`) when `bad` applies to it.
  void* PointerFor(const Param& param, size_t index, Bad bad);
  aclrtContext context() const { return live_[static_cast<int>(Kind::kContext)]; }

 private:
  void* live_[static_cast<int>(Kind::kCount)] = {};
  void* stale_[static_cast<int>(Kind::kCount)] = {};
  void* dev_ = nullptr;
  void* host_ = nullptr;
  void* desc_array_[8] = {};
  void* buffer_array_[8] = {};
  alignas(64) unsigned char not_a_handle_[kScratchBytes] = {};
  alignas(64) unsigned char host_data_[kScratchBytes] = {};
  alignas(64) unsigned char scratch_[kMaxParams][kScratchBytes] = {};
};

// A callback that does nothing (and returns zero).
template <typename F>
struct Noop;
template <typename R, typename... A>
struct Noop<R (*)(A...)> {
  static R Fn(A...) {
    if constexpr (!std::is_void_v<R>) return R{};
  }
};

// How a parameter can be made bad.
struct ParamTraits {
  bool pointer = false;
  bool enumeration = false;
  bool size = false;  // a size_t
};

template <typename T>
ParamTraits TraitsOf() {
  return {std::is_pointer_v<T>, std::is_enum_v<T>, std::is_same_v<T, size_t>};
}

// The type an argument is passed as: enums as int. Loading an enum object whose value lies
// outside its enumerators' range is undefined (UBSan -fsanitize=enum), so out-of-range enum
// values are passed as the int they are on the ABI, through a function pointer whose enum
// parameters are int (the same calling convention: the enums are int-sized).
template <typename T>
using WireT = std::conditional_t<std::is_enum_v<T>, int, T>;

template <typename R, typename... A>
auto WireOf(R (*)(A...)) -> R (*)(WireT<A>...);
template <typename R, typename... A>
auto WireOf(R (*)(A..., ...)) -> R (*)(WireT<A>..., ...);

// The argument for parameter `index` of type T.
template <typename T>
WireT<T> MakeArg(Objects& objects, const Param& param, size_t index, Bad bad) {
  if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
    if (bad == Bad::kNull) return nullptr;
    if constexpr (std::is_function_v<Pointee>) {
      return &Noop<T>::Fn;
    } else {
      return reinterpret_cast<T>(objects.PointerFor(param, index, bad));
    }
  } else if constexpr (std::is_enum_v<T>) {
    static_assert(sizeof(T) == sizeof(int), "an int-sized C enum");
    return bad == Bad::kBadEnum ? 0x7fff : 0;
  } else if constexpr (std::is_same_v<T, size_t>) {
    return bad == Bad::kHugeSize ? SIZE_MAX : 64;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return T(0);
  } else {
    return T{};
  }
}

// What a call returned.
struct Outcome {
  bool has_result = false;  // false for void functions
  bool failed = false;      // an aclError other than ACL_SUCCESS, or the fail value
  bool is_acl_error = false;
  aclError code = ACL_SUCCESS;
  bool integral = false;  // an integer or enum result, in `value`
  int64_t value = 0;
};

// Calls a manifest function with generated arguments; `fail` returns its fail value.
template <typename F>
struct Caller;

template <typename R, typename... A>
struct Caller<R (*)(A...)> {
  static std::vector<ParamTraits> Traits() { return {TraitsOf<A>()...}; }

  // `fn` is R (*)(A...) or, for the variadic function, R (*)(A..., ...).
  template <typename Fn, typename Fail>
  static Outcome Call(Fn fn, Fail fail, Objects& objects, const std::vector<Param>& params,
                      int bad_index, Bad bad) {
    return CallImpl(fn, fail, objects, params, bad_index, bad, std::index_sequence_for<A...>{});
  }

 private:
  template <typename Fn, typename Fail, size_t... I>
  static Outcome CallImpl(Fn fn, Fail fail, Objects& objects, const std::vector<Param>& params,
                          int bad_index, Bad bad, std::index_sequence<I...>) {
    Outcome outcome;
    using Wire = decltype(WireOf(fn));
    const auto wire = reinterpret_cast<Wire>(reinterpret_cast<void (*)()>(fn));
    if constexpr (std::is_void_v<R>) {
      (void)fail;
      wire(MakeArg<A>(objects, params[I], I,
                      static_cast<int>(I) == bad_index ? bad : Bad::kNone)...);
    } else {
      const R result = wire(MakeArg<A>(objects, params[I], I,
                                       static_cast<int>(I) == bad_index ? bad : Bad::kNone)...);
      outcome.has_result = true;
      if constexpr (std::is_same_v<R, aclError>) {  // every int-returning function
        outcome.is_acl_error = true;
        outcome.code = result;
        outcome.failed = result != ACL_SUCCESS;
      } else {
        outcome.failed = result == fail();
        if constexpr (std::is_integral_v<R> || std::is_enum_v<R>) {
          outcome.integral = true;
          outcome.value = static_cast<int64_t>(result);
        }
      }
    }
    return outcome;
  }
};

// aclAppLog: the only variadic function; called with no variadic arguments.
template <typename R, typename... A>
struct Caller<R (*)(A..., ...)> {
  static std::vector<ParamTraits> Traits() { return {TraitsOf<A>()...}; }

  template <typename Fail>
  static Outcome Call(R (*fn)(A..., ...), Fail fail, Objects& objects,
                      const std::vector<Param>& params, int bad_index, Bad bad) {
    return Caller<R (*)(A...)>::Call(fn, fail, objects, params, bad_index, bad);
  }
};

}  // namespace misuse
