// Writes the onnx_import seed corpus (a few tiny ONNX models): onnx_import_corpus_gen DIR.
// The atc CLI tests use conv_relu.onnx and unsupported.onnx from it
// (tests/unit/atc/data/). The corpus's crash_* files are not generated: they are inputs that
// once crashed libonnx's version converter, kept as regression seeds.
#include <cstdio>
#include <fstream>
#include <string>

#include "tests/unit/convert/onnx_model_builder.h"

namespace {

bool Write(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::ofstream out(dir + "/" + name, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  using aclsim::convert::testing::OnnxModelBuilder;
  if (argc != 2) {
    std::fprintf(stderr, "usage: onnx_import_corpus_gen DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  OnnxModelBuilder unsupported;
  unsupported.Input("x", onnx::TensorProto::FLOAT, {2, 3});
  unsupported.Node("FancyOp", {"x"}, {"f"}, "fancy");
  unsupported.Node("OtherOp", {"f"}, {"y"}, "other");
  unsupported.Output("y");
  bool ok = Write(dir, "add.onnx", aclsim::convert::testing::AddModel().Bytes());
  ok &= Write(dir, "conv_relu.onnx", aclsim::convert::testing::ConvReluModel().Bytes());
  ok &= Write(dir, "reshape_chain.onnx", aclsim::convert::testing::ReshapeChainModel(2).Bytes());
  ok &= Write(dir, "unsupported.onnx", unsupported.Bytes());
  ok &= Write(dir, "junk.bin", std::string("\x0a\x05junk\x12\xff\xff\xff", 11));
  // Shapes past the limit of one tensor: a graph input, and an Expand to a huge constant shape.
  OnnxModelBuilder huge_input;
  huge_input.Input("x", onnx::TensorProto::FLOAT, {int64_t{1} << 32, int64_t{1} << 32});
  huge_input.Node("Relu", {"x"}, {"y"}, "relu");
  huge_input.Output("y");
  ok &= Write(dir, "overflow-input-dims.onnx", huge_input.Bytes());
  OnnxModelBuilder huge_expand;
  huge_expand.Input("x", onnx::TensorProto::FLOAT, {2, 2});
  huge_expand.InitInt64("shape", {2}, {int64_t{1} << 62, 4});
  huge_expand.Node("Expand", {"x", "shape"}, {"y"}, "expand");
  huge_expand.Output("y");
  ok &= Write(dir, "overflow-expand-shape.onnx", huge_expand.Bytes());
  return ok ? 0 : 1;
}
