// Bulk fp16 <-> fp32 conversion (half_batch.h).
#include "ops/half_batch.h"

#include "common/float16.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace aclsim::ops {

namespace {

#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) void HalfToFloatF16c(const uint16_t* src, float* dst,
                                                         size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i half = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(half));
  }
  for (; i < n; ++i) dst[i] = HalfToFloat(src[i]);
}

__attribute__((target("avx,f16c"))) void FloatToHalfF16c(const float* src, uint16_t* dst,
                                                         size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i half = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), half);
  }
  for (; i < n; ++i) dst[i] = FloatToHalf(src[i]);
}

bool HasF16c() {
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
    // AVX as the compiler runtime sees it (CPU and OS support), plus the F16C bit.
    return __builtin_cpu_supports("avx") && (ecx & bit_F16C) != 0;
  }();
  return has;
}
#else
bool HasF16c() { return false; }
#endif

}  // namespace

bool HalfBatchAccelerated() { return HasF16c(); }

void HalfToFloatN(const uint16_t* src, float* dst, size_t n) {
#if defined(__x86_64__)
  if (HasF16c()) {
    HalfToFloatF16c(src, dst, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) dst[i] = HalfToFloat(src[i]);
}

void FloatToHalfN(const float* src, uint16_t* dst, size_t n) {
#if defined(__x86_64__)
  if (HasF16c()) {
    FloatToHalfF16c(src, dst, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) dst[i] = FloatToHalf(src[i]);
}

}  // namespace aclsim::ops
