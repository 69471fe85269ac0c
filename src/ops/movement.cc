// The gather kernel of planned data movement (ops/movement.h).
#include "ops/movement.h"

#include <algorithm>
#include <cstring>

namespace aclsim::ops::movement {

std::vector<int64_t> AxisTable(int64_t count, int64_t start, int64_t step, int64_t stride) {
  std::vector<int64_t> table(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) table[i] = (start + i * step) * stride;
  return table;
}

namespace {

template <size_t kSize>
void GatherTyped(const uint8_t* src, uint8_t* dst, const GatherPlan& plan, const uint8_t* fill) {
  const auto& dims = plan.out_dims;
  const int64_t total = Product(dims);
  if (total == 0) return;
  auto move = [&](uint8_t* to, int64_t from) {
    if (from == kFill) {
      std::memcpy(to, fill, kSize);
    } else {
      std::memcpy(to, src + from * static_cast<int64_t>(kSize), kSize);
    }
  };
  const size_t rank = dims.size();
  if (rank == 0) {
    move(dst, plan.base);
    return;
  }
  const auto& inner = plan.tables[rank - 1];
  const int64_t n = dims[rank - 1];
  bool contiguous = true;
  for (int64_t j = 0; j < n; ++j) contiguous &= inner[j] != kFill && inner[j] == inner[0] + j;
  std::vector<int64_t> index(rank, 0);
  for (int64_t o = 0; o < total; o += n) {
    int64_t row = plan.base;
    bool fill_row = false;
    for (size_t d = 0; d + 1 < rank; ++d) {
      const int64_t t = plan.tables[d][index[d]];
      if (t == kFill) {
        fill_row = true;
      } else {
        row += t;
      }
    }
    uint8_t* out = dst + o * static_cast<int64_t>(kSize);
    if (fill_row) {
      for (int64_t j = 0; j < n; ++j) move(out + j * kSize, kFill);
    } else if (contiguous) {
      std::memcpy(out, src + (row + inner[0]) * static_cast<int64_t>(kSize), n * kSize);
    } else {
      for (int64_t j = 0; j < n; ++j)
        move(out + j * kSize, inner[j] == kFill ? kFill : row + inner[j]);
    }
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

// y = gather(x) by `plan`; `fill` holds one element of y's dtype (padding value) or is null.
Status Gather(const Tensor& x, const Tensor& y, const GatherPlan& plan, const uint8_t* fill) {
  const size_t size = DataTypeSize(y.dtype);
  const uint8_t zero[16] = {};
  if (fill == nullptr) fill = zero;
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  switch (size) {
    case 1:
      GatherTyped<1>(src, dst, plan, fill);
      return Status::Ok();
    case 2:
      GatherTyped<2>(src, dst, plan, fill);
      return Status::Ok();
    case 4:
      GatherTyped<4>(src, dst, plan, fill);
      return Status::Ok();
    case 8:
      GatherTyped<8>(src, dst, plan, fill);
      return Status::Ok();
    case 16:
      GatherTyped<16>(src, dst, plan, fill);
      return Status::Ok();
    default:
      return Status(StatusCode::kUnsupportedDataType,
                    "data type " + DataTypeName(y.dtype) + " has no kernel");
  }
}

}  // namespace aclsim::ops::movement
