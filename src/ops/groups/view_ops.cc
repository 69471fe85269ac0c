// View ops: AsStrided (gather a strided view into a contiguous tensor) and ViewCopy (write a
// tensor through a strided view of another), as CANN's operator API uses them to make views
// contiguous and to write results back through output views.
//
// A view is (size, stride, storage_offset) in elements over a 1-D storage buffer: element
// (i0, ..., in) of the view is storage[storage_offset + sum(ik * stride[k])]. Strides may be
// zero (broadcast) and views may overlap; ViewCopy writes elements in row-major order of the
// view, so for overlapping destination elements the last one written wins.
#include <algorithm>
#include <cstring>

#include "ops/op_group.h"

namespace aclsim::ops {
namespace {

struct View {
  std::vector<int64_t> size;
  std::vector<int64_t> stride;
  int64_t offset = 0;
};

// Checks a view against a storage of `storage` elements: non-negative sizes and strides, and
// every element inside the storage (an empty view is always fine).
template <typename Ctx>
Status CheckView(const Ctx& ctx, const View& view, int64_t storage, const char* what) {
  if (view.size.size() != view.stride.size()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{}: {} sizes but {} strides", what,
                    view.size.size(), view.stride.size());
  }
  if (view.offset < 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{}: storage offset {} is negative", what,
                    view.offset);
  }
  int64_t last = view.offset;
  bool empty = false;
  for (size_t k = 0; k < view.size.size(); ++k) {
    if (view.size[k] < 0 || view.stride[k] < 0) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{}: size {} and stride {} of dim {} must not be negative", what,
                      view.size[k], view.stride[k], k);
    }
    empty |= view.size[k] == 0;
    if (view.size[k] > 0) {
      last = SaturatingAdd(last, SaturatingMul(view.size[k] - 1, view.stride[k]));
    }
  }
  if (!empty && last >= storage) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{}: the view reaches element {} of a storage of {} elements", what, last,
                    storage);
  }
  return Status::Ok();
}

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count = SaturatingMul(count, d);
  return count;
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = SaturatingMul(strides[k], dims[k]);
  return strides;
}

// Copies the elements of view `from` over `src` to view `to` over `dst` (same sizes), `esize`
// bytes each, in row-major order of the view. Runs of contiguous innermost elements are
// copied with memcpy.
void StridedCopy(uint8_t* dst, const View& to, const uint8_t* src, const View& from, size_t esize) {
  const size_t rank = to.size.size();
  if (Product(to.size) == 0) return;
  if (rank == 0) {
    std::memcpy(dst + to.offset * esize, src + from.offset * esize, esize);
    return;
  }
  const int64_t inner = to.size[rank - 1];
  const int64_t ts = to.stride[rank - 1];
  const int64_t fs = from.stride[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t t = to.offset;
  int64_t f = from.offset;
  for (;;) {
    if (ts == 1 && fs == 1) {
      std::memcpy(dst + t * esize, src + f * esize, static_cast<size_t>(inner) * esize);
    } else {
      for (int64_t i = 0; i < inner; ++i) {
        std::memcpy(dst + (t + i * ts) * esize, src + (f + i * fs) * esize, esize);
      }
    }
    size_t k = rank - 1;
    for (;;) {
      if (k == 0) return;
      --k;
      ++index[k];
      t += to.stride[k];
      f += from.stride[k];
      if (index[k] < to.size[k]) break;
      t -= to.stride[k] * to.size[k];
      f -= from.stride[k] * from.size[k];
      index[k] = 0;
    }
  }
}

Result<std::vector<int64_t>> IntsOf(const OpContext& ctx, size_t i) { return ctx.InputInts(i); }
Result<std::vector<int64_t>> IntsOf(const RunContext& ctx, size_t i) { return ctx.InputInts(i); }

template <typename Ctx>
Result<View> ReadView(const Ctx& ctx, size_t first) {
  View view;
  ACLSIM_ASSIGN_OR_RETURN(view.size, IntsOf(ctx, first));
  ACLSIM_ASSIGN_OR_RETURN(view.stride, IntsOf(ctx, first + 1));
  ACLSIM_ASSIGN_OR_RETURN(auto offset, IntsOf(ctx, first + 2));
  if (offset.size() != 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "a storage offset is one value, not {}",
                    offset.size());
  }
  view.offset = offset[0];
  return view;
}

driver::KernelWork CopyWork(const OpContext& ctx, const driver::DeviceProps& props,
                            uint32_t* blocks) {
  const TensorDesc& out = ctx.output(0);
  const size_t bytes = ctx.op_type() == "ViewCopy" ? ctx.input(4).ByteSize() : out.ByteSize();
  const uint64_t cores = std::max<uint32_t>(1, props.vector_core_num);
  *blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, std::max<uint64_t>(1, bytes / 16384)));
  driver::KernelWork work;
  work.dtype = DtypeClassOf(out.dtype);
  work.gm_read_bytes = bytes;
  work.gm_write_bytes = bytes;
  work.ub_bytes = 2 * bytes;
  work.scalar_ops = 64ULL * *blocks;
  const uint64_t chunk = std::max<uint64_t>(props.ub_bytes, 64 * 1024) / 2;
  work.pipeline_steps = static_cast<uint32_t>(
      std::max<uint64_t>(1, std::min<uint64_t>(2 * bytes / *blocks / chunk + 1, 1 << 20)));
  return work;
}

Status InferAsStrided(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(View view, ReadView(ctx, 1));
  ACLSIM_RETURN_IF_ERROR(CheckView(ctx, view, ctx.input(0).ElementCount(), "view of x"));
  ctx.SetOutput(0, ctx.input(0).dtype, view.size);
  return Status::Ok();
}

Status RunAsStrided(RunContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(View from, ReadView(ctx, 1));
  View to{from.size, ContiguousStrides(from.size), 0};
  StridedCopy(static_cast<uint8_t*>(ctx.out(0).data), to,
              static_cast<const uint8_t*>(ctx.in(0).data), from, DataTypeSize(ctx.in(0).dtype));
  return Status::Ok();
}

Status InferViewCopy(OpContext& ctx) {
  const TensorDesc& dst = ctx.input(0);
  const TensorDesc& src = ctx.input(4);
  if (dst.dtype != src.dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "dst is {} but src is {}",
                    DataTypeName(dst.dtype), DataTypeName(src.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(View to, ReadView(ctx, 1));
  ACLSIM_ASSIGN_OR_RETURN(View from, ReadView(ctx, 5));
  ACLSIM_RETURN_IF_ERROR(CheckView(ctx, to, dst.ElementCount(), "view of dst"));
  ACLSIM_RETURN_IF_ERROR(CheckView(ctx, from, src.ElementCount(), "view of src"));
  if (to.size != from.size) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "dst view {} and src view {} differ in shape",
                    fmt::join(to.size, "x"), fmt::join(from.size, "x"));
  }
  ctx.SetOutput(0, dst.dtype, dst.dims);
  return Status::Ok();
}

// The output is the dst buffer (the op works in place); when it is another buffer, dst's
// contents are copied to it first.
Status RunViewCopy(RunContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(View to, ReadView(ctx, 1));
  ACLSIM_ASSIGN_OR_RETURN(View from, ReadView(ctx, 5));
  const size_t esize = DataTypeSize(ctx.in(0).dtype);
  auto* out = static_cast<uint8_t*>(ctx.out(0).data);
  if (out != ctx.in(0).data) {
    std::memmove(out, ctx.in(0).data, static_cast<size_t>(ctx.in(0).numel()) * esize);
  }
  StridedCopy(out, to, static_cast<const uint8_t*>(ctx.in(4).data), from, esize);
  return Status::Ok();
}

const std::vector<DataType>& ShapeArgTypes() {
  static const std::vector<DataType> types = {DataType::kInt32, DataType::kInt64};
  return types;
}

}  // namespace

void RegisterViewOps(OpRegistry& registry) {
  const std::vector<DataType> any = AllTypes();
  OpDef as_strided;
  as_strided.type = "AsStrided";
  as_strided.inputs = {In("x", any), In("size", ShapeArgTypes()), In("stride", ShapeArgTypes()),
                       In("storage_offset", ShapeArgTypes())};
  as_strided.outputs = {Out("y", any)};
  as_strided.value_inputs = {1, 2, 3};
  as_strided.infer = InferAsStrided;
  as_strided.run = RunAsStrided;
  as_strided.work = CopyWork;
  registry.Add(std::move(as_strided));

  OpDef view_copy;
  view_copy.type = "ViewCopy";
  view_copy.inputs = {In("dst", any),
                      In("dst_size", ShapeArgTypes()),
                      In("dst_stride", ShapeArgTypes()),
                      In("dst_storage_offset", ShapeArgTypes()),
                      In("src", any),
                      In("src_size", ShapeArgTypes()),
                      In("src_stride", ShapeArgTypes()),
                      In("src_storage_offset", ShapeArgTypes())};
  view_copy.outputs = {Out("dst", any)};
  view_copy.value_inputs = {1, 2, 3, 5, 6, 7};
  view_copy.infer = InferViewCopy;
  view_copy.run = RunViewCopy;
  view_copy.work = CopyWork;
  registry.Add(std::move(view_copy));
}

}  // namespace aclsim::ops
