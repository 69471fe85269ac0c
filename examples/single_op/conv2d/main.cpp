// Single-op example: Conv2D in NCHW through aclopCompileAndExecute, with list attributes
// (strides, pads, dilations) and a bias, checked against a direct host convolution.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError err_ = (call);                                                              \
    if (err_ != ACL_SUCCESS) {                                                           \
      const char* msg_ = aclGetRecentErrMsg();                                           \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, msg_ ? msg_ : "no msg"); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

namespace {

constexpr int64_t kN = 2, kCin = 3, kH = 9, kW = 7;  // input NCHW
constexpr int64_t kCout = 4, kKh = 3, kKw = 3;       // filter OIHW
constexpr int64_t kStride = 2, kPad = 1, kDilation = 1;
constexpr int64_t kHo = (kH + 2 * kPad - kDilation * (kKh - 1) - 1) / kStride + 1;
constexpr int64_t kWo = (kW + 2 * kPad - kDilation * (kKw - 1) - 1) / kStride + 1;

// The host reference: a direct convolution.
std::vector<float> Reference(const std::vector<float>& x, const std::vector<float>& w,
                             const std::vector<float>& bias) {
  std::vector<float> y(kN * kCout * kHo * kWo);
  for (int64_t n = 0; n < kN; ++n)
    for (int64_t co = 0; co < kCout; ++co)
      for (int64_t ho = 0; ho < kHo; ++ho)
        for (int64_t wo = 0; wo < kWo; ++wo) {
          double acc = bias[co];
          for (int64_t ci = 0; ci < kCin; ++ci)
            for (int64_t kh = 0; kh < kKh; ++kh)
              for (int64_t kw = 0; kw < kKw; ++kw) {
                const int64_t h = ho * kStride - kPad + kh * kDilation;
                const int64_t iw = wo * kStride - kPad + kw * kDilation;
                if (h < 0 || h >= kH || iw < 0 || iw >= kW) continue;
                acc += x[((n * kCin + ci) * kH + h) * kW + iw] *
                       w[((co * kCin + ci) * kKh + kh) * kKw + kw];
              }
          y[((n * kCout + co) * kHo + ho) * kWo + wo] = static_cast<float>(acc);
        }
  return y;
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<float> x(kN * kCin * kH * kW), w(kCout * kCin * kKh * kKw), bias(kCout);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 17) / 8.0f - 1.0f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 11) % 7) / 4.0f - 0.75f;
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.25f * static_cast<float>(i);
  std::vector<float> y(kN * kCout * kHo * kWo);

  const std::vector<float>* host_inputs[] = {&x, &w, &bias};
  void* dev[4] = {};
  for (int i = 0; i < 3; ++i) {
    const size_t bytes = host_inputs[i]->size() * sizeof(float);
    CHECK(aclrtMalloc(&dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev[i], bytes, host_inputs[i]->data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  CHECK(aclrtMalloc(&dev[3], y.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

  const int64_t x_shape[] = {kN, kCin, kH, kW};
  const int64_t w_shape[] = {kCout, kCin, kKh, kKw};
  const int64_t b_shape[] = {kCout};
  const int64_t y_shape[] = {kN, kCout, kHo, kWo};
  const aclTensorDesc* input_desc[] = {aclCreateTensorDesc(ACL_FLOAT, 4, x_shape, ACL_FORMAT_NCHW),
                                       aclCreateTensorDesc(ACL_FLOAT, 4, w_shape, ACL_FORMAT_NCHW),
                                       aclCreateTensorDesc(ACL_FLOAT, 1, b_shape, ACL_FORMAT_ND)};
  const aclTensorDesc* output_desc[] = {
      aclCreateTensorDesc(ACL_FLOAT, 4, y_shape, ACL_FORMAT_NCHW)};
  const aclDataBuffer* inputs[] = {aclCreateDataBuffer(dev[0], x.size() * sizeof(float)),
                                   aclCreateDataBuffer(dev[1], w.size() * sizeof(float)),
                                   aclCreateDataBuffer(dev[2], bias.size() * sizeof(float))};
  aclDataBuffer* outputs[] = {aclCreateDataBuffer(dev[3], y.size() * sizeof(float))};

  // Conv2D's list attributes, in data_format order (N, C, H, W); pads = top, bottom, left,
  // right.
  aclopAttr* attr = aclopCreateAttr();
  const int64_t strides[] = {1, 1, kStride, kStride};
  const int64_t pads[] = {kPad, kPad, kPad, kPad};
  const int64_t dilations[] = {1, 1, kDilation, kDilation};
  CHECK(aclopSetAttrListInt(attr, "strides", 4, strides));
  CHECK(aclopSetAttrListInt(attr, "pads", 4, pads));
  CHECK(aclopSetAttrListInt(attr, "dilations", 4, dilations));
  CHECK(aclopSetAttrInt(attr, "groups", 1));
  CHECK(aclopSetAttrString(attr, "data_format", "NCHW"));

  CHECK(aclopCompileAndExecute("Conv2D", 3, input_desc, inputs, 1, output_desc, outputs, attr,
                               ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(y.data(), y.size() * sizeof(float), dev[3], y.size() * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST));

  const std::vector<float> want = Reference(x, w, bias);
  double max_err = 0;
  for (size_t i = 0; i < y.size(); ++i) max_err = std::fmax(max_err, std::fabs(y[i] - want[i]));
  std::printf(
      "Conv2D NCHW x[%lld,%lld,%lld,%lld] * w[%lld,%lld,%lld,%lld] -> [%lld,%lld,%lld,%lld]:"
      " max abs error %.2e\n",
      (long long)kN, (long long)kCin, (long long)kH, (long long)kW, (long long)kCout,
      (long long)kCin, (long long)kKh, (long long)kKw, (long long)kN, (long long)kCout,
      (long long)kHo, (long long)kWo, max_err);

  aclopDestroyAttr(attr);
  for (auto* d : input_desc) aclDestroyTensorDesc(d);
  aclDestroyTensorDesc(output_desc[0]);
  for (auto* b : inputs) CHECK(aclDestroyDataBuffer(b));
  CHECK(aclDestroyDataBuffer(outputs[0]));
  for (void* p : dev) CHECK(aclrtFree(p));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (max_err > 1e-4) return 1;
  std::printf("single_op conv2d: PASSED\n");
  return 0;
}
