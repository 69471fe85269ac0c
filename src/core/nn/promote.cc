#include "core/nn/promote.h"

#include <algorithm>

namespace aclsim::core::nn {
namespace {

using DT = ops::DataType;

// Rank of a dtype in the promotion lattice: bool, then integers by width, then floats.
int Category(DT t) {
  switch (t) {
    case DT::kBool:
      return 0;
    case DT::kInt8:
    case DT::kUint8:
    case DT::kInt16:
    case DT::kInt32:
    case DT::kInt64:
      return 1;
    case DT::kFloat16:
    case DT::kBf16:
    case DT::kFloat:
    case DT::kDouble:
      return 2;
    default:
      return -1;
  }
}

int IntWidth(DT t) {
  switch (t) {
    case DT::kInt8:
    case DT::kUint8:
      return 1;
    case DT::kInt16:
      return 2;
    case DT::kInt32:
      return 4;
    default:
      return 8;
  }
}

DT PromoteInts(DT a, DT b) {
  if (a == b) return a;
  // int8 with uint8 needs int16; otherwise the wider signed type.
  if ((a == DT::kInt8 && b == DT::kUint8) || (a == DT::kUint8 && b == DT::kInt8)) {
    return DT::kInt16;
  }
  const DT wider = IntWidth(a) >= IntWidth(b) ? a : b;
  return wider == DT::kUint8 ? DT::kInt16 : wider;
}

DT PromoteFloats(DT a, DT b) {
  if (a == b) return a;
  if (a == DT::kDouble || b == DT::kDouble) return DT::kDouble;
  return DT::kFloat;  // f16 with bf16, or either with f32
}

}  // namespace

bool IsFloating(DT dtype) { return Category(dtype) == 2; }
bool IsIntegral(DT dtype) { return Category(dtype) == 1; }

std::optional<DT> Promote(DT a, DT b) {
  if (a == b && (a == DT::kUint16 || a == DT::kUint32 || a == DT::kUint64)) return a;
  const int ca = Category(a);
  const int cb = Category(b);
  if (ca < 0 || cb < 0) return std::nullopt;
  if (ca != cb) return ca > cb ? a : b;  // the higher category wins as it is
  if (ca == 0) return DT::kBool;
  if (ca == 1) return PromoteInts(a, b);
  return PromoteFloats(a, b);
}

std::optional<DT> PromoteWithScalar(DT tensor, DT scalar) {
  const int ct = Category(tensor);
  const int cs = Category(scalar);
  if (ct < 0 || cs < 0) return Promote(tensor, scalar);
  if (cs <= ct) return tensor;
  return cs == 2 ? DT::kFloat : scalar;
}

bool CanCastTo(DT from, DT to) {
  const int cf = Category(from);
  const int ct = Category(to);
  if (cf < 0 || ct < 0) return from == to;
  if (ct == 0) return cf == 0;
  return true;
}

std::optional<std::vector<int64_t>> BroadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    const int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    const int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[k] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace aclsim::core::nn
