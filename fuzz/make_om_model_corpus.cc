// Writes the seed corpus of om_model_fuzzer: a few valid graph models (one per gear kind,
// one with every attribute type and a storage layout) and a CANN-magic file.
//   om_model_corpus_gen DIR     (the committed corpus is fuzz/corpus/om_model/)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/model_file.h"

namespace {

using aclsim::core::GearKind;
using aclsim::core::ModelFile;
using aclsim::core::ModelNode;
using aclsim::core::ModelTensor;
using aclsim::core::WeightRange;
using aclsim::ops::DataType;
using aclsim::ops::Format;

ModelTensor Tensor(const char* name, DataType dtype, std::vector<int64_t> dims,
                   Format format = Format::kNd) {
  ModelTensor t;
  t.desc.dtype = dtype;
  t.desc.format = format;
  t.desc.dims = std::move(dims);
  t.desc.name = name;
  return t;
}

// x -> MatMulV2(x, w) -> Add(., b) -> Relu -> y; `x_dims` decides the gears.
ModelFile Mlp(std::vector<int64_t> x_dims, GearKind kind, std::vector<std::vector<int64_t>> gears) {
  ModelFile m;
  m.name = "mlp";
  m.soc_version = "Ascend910B2";
  m.tensors = {Tensor("x", DataType::kFloat, x_dims),   Tensor("w", DataType::kFloat, {4, 4}),
               Tensor("b", DataType::kFloat, {4}),      Tensor("t0", DataType::kFloat, {-1, 4}),
               Tensor("t1", DataType::kFloat, {-1, 4}), Tensor("y", DataType::kFloat, {-1, 4})};
  m.tensors[1].constant = WeightRange{0, 64};
  m.tensors[2].constant = WeightRange{64, 16};
  m.weights.assign(80, 0);
  for (size_t i = 0; i < m.weights.size(); ++i) m.weights[i] = static_cast<uint8_t>(i);
  ModelNode mm{"MatMulV2", "matmul", {}, {0, 1, -1}, {3}};
  mm.attrs["transpose_x2"] = true;
  m.nodes = {mm, ModelNode{"Add", "add", {}, {3, 2}, {4}}, ModelNode{"Relu", "relu", {}, {4}, {5}}};
  m.inputs = {{"x", 0}};
  m.outputs = {{"y", 5}};
  m.gears.kind = kind;
  if (kind != GearKind::kNone) m.gears.inputs = {0};
  m.gears.gears = std::move(gears);
  return m;
}

ModelFile EveryAttribute() {
  ModelFile m = Mlp({2, 4}, GearKind::kNone, {});
  m.tensors[3].desc.storage_format = Format::kFractalNz;
  m.tensors[3].desc.storage_dims = {1, 1, 16, 16};
  m.tensors[0].desc.shape_range = {{2, 2}, {4, 4}};
  auto& attrs = m.nodes[2].attrs;
  attrs["b"] = true;
  attrs["i"] = int64_t{-7};
  attrs["f"] = 0.5f;
  attrs["s"] = std::string("hello");
  attrs["t"] = DataType::kBf16;
  attrs["lb"] = std::vector<bool>{true, false};
  attrs["li"] = std::vector<int64_t>{1, 2, 3};
  attrs["lf"] = std::vector<float>{1.5f};
  attrs["ls"] = std::vector<std::string>{"x", ""};
  attrs["lt"] = std::vector<DataType>{DataType::kInt8};
  attrs["lli"] = std::vector<std::vector<int64_t>>{{1}, {}, {2, 3}};
  return m;
}

ModelFile TwoInputDims() {
  ModelFile m = Mlp({-1, -1}, GearKind::kDims, {{1, 4, 8}, {2, 4, 16}});
  m.tensors.push_back(Tensor("z", DataType::kFloat16, {2, -1}));
  m.inputs.push_back({"z", 6});
  m.nodes.push_back(ModelNode{"Cast", "cast", {{"dst_type", int64_t{0}}}, {6}, {7}});
  m.tensors.push_back(Tensor("z32", DataType::kFloat, {2, -1}));
  m.outputs.push_back({"z32", 7});
  m.gears.inputs = {0, 1};
  return m;
}

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return out.good();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::vector<std::pair<std::string, ModelFile>> models = {
      {"batch_gears.om", Mlp({-1, 4}, GearKind::kBatch, {{1}, {2}, {4}})},
      {"image_gears.om",
       [] {
         ModelFile m = Mlp({1, 3, -1, -1}, GearKind::kImageSize, {{224, 224}, {448, 320}});
         for (size_t t = 3; t < 6; ++t) m.tensors[t].desc.dims = {-2};
         return m;
       }()},
      {"dims_gears.om", TwoInputDims()},
      {"every_attribute.om", EveryAttribute()},
  };
  for (const auto& [name, model] : models) {
    const auto status = aclsim::core::ValidateModel(model, name);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      return 1;
    }
    if (!Write(dir + "/" + name, aclsim::core::SerializeModel(model))) return 1;
  }
  // Refused by ParseModel (not validated here): sizes past the limit of one tensor, in a
  // tensor's dims and in a gear.
  std::vector<std::pair<std::string, ModelFile>> refused;
  refused.emplace_back("overflow_dims.om",
                       Mlp({int64_t{1} << 32, int64_t{1} << 32}, GearKind::kNone, {}));
  refused.emplace_back("overflow_gear.om",
                       Mlp({-1, 4}, GearKind::kBatch, {{1}, {int64_t{1} << 62}}));
  for (const auto& [name, model] : refused) {
    if (aclsim::core::ValidateModel(model, name).ok()) return 1;
    if (!Write(dir + "/" + name, aclsim::core::SerializeModel(model))) return 1;
  }
  // A CANN offline model's first bytes (magic, 256-byte header size), refused by ParseModel.
  std::vector<uint8_t> cann(256, 0);
  const uint32_t magic = 0x444F4D49u;
  const uint32_t head = 256;
  std::memcpy(cann.data(), &magic, 4);
  std::memcpy(cann.data() + 4, &head, 4);
  if (!Write(dir + "/cann_magic.om", cann)) return 1;
  std::printf("wrote %zu files to %s\n", models.size() + 3, dir.c_str());
  return 0;
}
