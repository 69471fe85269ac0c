// Storage-layout conversions (ops/formats.h).
#include "ops/formats.h"

#include <fmt/format.h>

#include <cstring>
#include <functional>

namespace aclsim::ops {

int64_t CubeBlockC0(DataType dtype) { return DataTypeSize(dtype) == 1 ? 32 : 16; }

namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

Result<std::vector<int64_t>> StorageDims(Format origin, const std::vector<int64_t>& dims,
                                         DataType dtype, Format storage) {
  if (storage == Format::kUndefined || storage == origin) return dims;
  const int64_t c0 = CubeBlockC0(dtype);
  switch (storage) {
    case Format::kNc1hwc0: {
      if (dims.size() != 4 || (origin != Format::kNchw && origin != Format::kNhwc)) break;
      const bool nchw = origin == Format::kNchw;
      const int64_t n = dims[0];
      const int64_t c = nchw ? dims[1] : dims[3];
      const int64_t h = nchw ? dims[2] : dims[1];
      const int64_t w = nchw ? dims[3] : dims[2];
      return std::vector<int64_t>{n, CeilDiv(c, c0), h, w, c0};
    }
    case Format::kFractalZ: {
      if (dims.size() != 4 || origin != Format::kNchw) break;
      const int64_t n = dims[0], c = dims[1], h = dims[2], w = dims[3];
      return std::vector<int64_t>{CeilDiv(c, c0) * h * w, CeilDiv(n, 16), 16, c0};
    }
    case Format::kFractalNz: {
      if (dims.empty()) break;
      std::vector<int64_t> out(dims.begin(), dims.end() - (dims.size() >= 2 ? 2 : 1));
      const int64_t rows = dims.size() >= 2 ? dims[dims.size() - 2] : 1;
      const int64_t cols = dims.back();
      out.push_back(CeilDiv(cols, c0));
      out.push_back(CeilDiv(rows, 16));
      out.push_back(16);
      out.push_back(c0);
      return out;
    }
    default:
      break;
  }
  return Status(StatusCode::kFormatNotMatch,
                fmt::format("no layout rule from {} (rank {}) to storage format {}",
                            FormatName(origin), dims.size(), FormatName(storage)));
}

namespace {

// Calls visit(logical_index, storage_index) for every logical element of `desc`.
Status ForEachElement(const TensorDesc& desc, const std::function<void(int64_t, int64_t)>& visit) {
  const auto& d = desc.dims;
  const int64_t c0 = CubeBlockC0(desc.dtype);
  auto storage = StorageDims(desc.format, d, desc.dtype, desc.storage_format);
  if (!storage.ok()) return storage.status();
  const auto& s = storage.value();
  switch (desc.storage_format) {
    case Format::kNc1hwc0: {
      const bool nchw = desc.format == Format::kNchw;
      const int64_t n = d[0], c = nchw ? d[1] : d[3], h = nchw ? d[2] : d[1],
                    w = nchw ? d[3] : d[2];
      const int64_t c1 = s[1];
      int64_t logical = 0;
      for (int64_t in = 0; in < n; ++in) {
        if (nchw) {
          for (int64_t ic = 0; ic < c; ++ic)
            for (int64_t ih = 0; ih < h; ++ih)
              for (int64_t iw = 0; iw < w; ++iw)
                visit(logical++, (((in * c1 + ic / c0) * h + ih) * w + iw) * c0 + ic % c0);
        } else {
          for (int64_t ih = 0; ih < h; ++ih)
            for (int64_t iw = 0; iw < w; ++iw)
              for (int64_t ic = 0; ic < c; ++ic)
                visit(logical++, (((in * c1 + ic / c0) * h + ih) * w + iw) * c0 + ic % c0);
        }
      }
      return Status::Ok();
    }
    case Format::kFractalZ: {
      const int64_t n = d[0], c = d[1], h = d[2], w = d[3];
      const int64_t n1 = s[1];
      int64_t logical = 0;
      for (int64_t in = 0; in < n; ++in)
        for (int64_t ic = 0; ic < c; ++ic)
          for (int64_t ih = 0; ih < h; ++ih)
            for (int64_t iw = 0; iw < w; ++iw) {
              const int64_t row = (ic / c0) * h * w + ih * w + iw;
              visit(logical++, ((row * n1 + in / 16) * 16 + in % 16) * c0 + ic % c0);
            }
      return Status::Ok();
    }
    case Format::kFractalNz: {
      const size_t rank = d.size();
      const int64_t rows = rank >= 2 ? d[rank - 2] : 1;
      const int64_t cols = d[rank - 1];
      int64_t batch = 1;
      for (size_t i = 0; i + 2 < rank; ++i) batch *= d[i];
      const int64_t col_blocks = s[s.size() - 4];
      const int64_t row_blocks = s[s.size() - 3];
      const int64_t matrix = col_blocks * row_blocks * 16 * c0;
      int64_t logical = 0;
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            visit(logical++,
                  b * matrix + (((j / c0) * row_blocks + i / 16) * 16 + i % 16) * c0 + j % c0);
      return Status::Ok();
    }
    default:
      return Status(StatusCode::kFormatNotMatch,
                    fmt::format("no conversion from storage format {} to {}",
                                FormatName(desc.storage_format), FormatName(desc.format)));
  }
}

}  // namespace

Status StorageToOrigin(const TensorDesc& desc, const void* storage, void* origin) {
  const size_t element = DataTypeSize(desc.dtype);
  const auto* src = static_cast<const uint8_t*>(storage);
  auto* dst = static_cast<uint8_t*>(origin);
  return ForEachElement(desc, [&](int64_t logical, int64_t stored) {
    std::memcpy(dst + logical * element, src + stored * element, element);
  });
}

Status OriginToStorage(const TensorDesc& desc, const void* origin, void* storage) {
  const size_t element = DataTypeSize(desc.dtype);
  std::memset(storage, 0, desc.ByteSize());
  const auto* src = static_cast<const uint8_t*>(origin);
  auto* dst = static_cast<uint8_t*>(storage);
  return ForEachElement(desc, [&](int64_t logical, int64_t stored) {
    std::memcpy(dst + stored * element, src + logical * element, element);
  });
}

}  // namespace aclsim::ops
