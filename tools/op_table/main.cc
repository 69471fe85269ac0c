// aclsim-op-table: the op library's reference table (docs/ops.md) from the registered ops.
//
// Usage: aclsim-op-table                  markdown to stdout
//        aclsim-op-table --update FILE    replace the table between the markers in FILE
//        aclsim-op-table --check FILE     exit 1 if FILE's table is not current (a test)
// Markers: <!-- op-table:begin --> and <!-- op-table:end -->.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/guarded_main.h"
#include "ops/op_def.h"
#include "ops/op_library.h"

namespace {

namespace ops = aclsim::ops;
namespace driver = aclsim::driver;

const char* EngineName(driver::Engine engine) {
  switch (engine) {
    case driver::Engine::kAiCore:
      return "AI Core (cube)";
    case driver::Engine::kAiVector:
      return "AI Vector";
    case driver::Engine::kAiCpu:
      return "AI CPU";
  }
  return "?";
}

std::string Dtypes(const std::vector<ops::DataType>& dtypes) {
  if (dtypes.empty()) return "any";
  std::string out;
  for (size_t i = 0; i < dtypes.size(); ++i) {
    if (i != 0) out += ", ";
    std::string name = ops::DataTypeName(dtypes[i]);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += name;
  }
  return out;
}

std::string Args(const std::vector<ops::ArgDef>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i != 0) out += ", ";
    out += args[i].name;
    if (args[i].kind == ops::ArgKind::kOptional) out += "?";
    if (args[i].kind == ops::ArgKind::kDynamic) out += "*";
  }
  return out.empty() ? "-" : out;
}

std::string Attrs(const std::vector<ops::AttrDef>& attrs) {
  std::string out;
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (i != 0) out += "; ";
    out += attrs[i].name + ":" + ops::AttrTypeName(attrs[i].type);
    if (attrs[i].default_value) {
      out += "=" + ops::AttrValueToString(*attrs[i].default_value);
    } else {
      out += " (required)";
    }
  }
  return out.empty() ? "-" : out;
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\";
    out += c;
  }
  return out;
}

std::string Table() {
  const auto& registry = ops::OpLibrary::Builtin().registry();
  const auto types = registry.Types();
  std::ostringstream out;
  out << types.size() << " op types. Inputs in index order (`?` optional, `*` dynamic); "
      << "dtypes are those of the first input (all inputs for elementwise ops).\n\n";
  out << "| Op | Inputs | Outputs | Attributes (type=default) | Engine | Dtypes |\n";
  out << "|---|---|---|---|---|---|\n";
  for (const auto& type : types) {
    const ops::OpDef* def = registry.Find(type);
    const auto dtypes =
        def->inputs.empty() ? std::vector<ops::DataType>{} : def->inputs.front().dtypes;
    out << "| " << type << (def->dynamic_output_shape ? " (dynamic shape)" : "") << " | "
        << Escape(Args(def->inputs)) << " | " << Escape(Args(def->outputs)) << " | "
        << Escape(Attrs(def->attrs)) << " | " << EngineName(def->engine) << " | " << Dtypes(dtypes)
        << " |\n";
  }
  return out.str();
}

constexpr const char* kBegin = "<!-- op-table:begin -->\n";
constexpr const char* kEnd = "<!-- op-table:end -->";

int UpdateOrCheck(const char* path, bool update) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot read " << path << "\n";
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const size_t begin = text.find(kBegin);
  const size_t end = text.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    std::cerr << path << " has no " << kBegin << " ... " << kEnd << " markers\n";
    return 2;
  }
  const std::string updated =
      text.substr(0, begin + std::string(kBegin).size()) + Table() + text.substr(end);
  if (!update) {
    if (updated == text) return 0;
    std::cerr << path << ": the op table is out of date; run aclsim-op-table --update " << path
              << "\n";
    return 1;
  }
  std::ofstream out(path);
  out << updated;
  return out ? 0 : 2;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--update") return UpdateOrCheck(argv[2], true);
  if (argc == 3 && std::string(argv[1]) == "--check") return UpdateOrCheck(argv[2], false);
  if (argc != 1) {
    std::cerr << "usage: aclsim-op-table [--update FILE | --check FILE]\n";
    return 2;
  }
  std::cout << Table();
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("aclsim-op-table", 1, [&] { return RunTool(argc, argv); });
}
