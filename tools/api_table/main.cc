// aclsim-api-table: prints the README's API coverage tables from the manifests: ACL
// (api/manifest/acl_api.def, by header) and aclnn (api/manifest/aclnn_api.def, by operator
// library).
//
// Usage: aclsim-api-table                  both tables as markdown to stdout
//        aclsim-api-table --update FILE    replace each table between its markers in FILE
//        aclsim-api-table --check FILE     exit 1 if a table in FILE is not current (a test)
// Markers: <!-- api-table:begin --> / <!-- api-table:end --> (ACL) and
//          <!-- aclnn-table:begin --> / <!-- aclnn-table:end --> (aclnn).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/guarded_main.h"

namespace {

struct Entry {
  const char* header;
  const char* lib;
  const char* name;
  bool implemented;
};

#define ACL_FN(status, header, lib, ret, name, params, fail) \
  {#header, #lib, #name, std::string(#status) == "IMPL"},
const std::vector<Entry>& Manifest() {
  static const std::vector<Entry> entries = {
#include "api/manifest/acl_api.def"
  };
  return entries;
}
#undef ACL_FN

// aclnn entries: grouped by operator library (one header per operator would make hundreds of
// rows); the "header" is the library's name, every one in libopapi.so.
#define ACLNN_OP(status, header, lib, name, params) \
  {"aclnn_ops_" #lib, "opapi", "aclnn" #name, std::string(#status) == "IMPL"},
#define ACLNN_HOST ACLNN_OP
const std::vector<Entry>& NnManifest() {
  static const std::vector<Entry> entries = {
#include "api/manifest/aclnn_api.def"
  };
  return entries;
}
#undef ACLNN_OP
#undef ACLNN_HOST

}  // namespace

std::string Table(const std::vector<Entry>& manifest, const char* unsupported) {
  std::string out;
  char line[512];
// Appends one printf-formatted piece (the format stays a literal at each call site).
#define print(...)                                  \
  do {                                              \
    std::snprintf(line, sizeof(line), __VA_ARGS__); \
    out += line;                                    \
  } while (0)
  struct Group {
    std::string lib;
    std::vector<const Entry*> done, todo;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  size_t done_total = 0;
  for (const Entry& entry : manifest) {
    std::string header = entry.header;
    if (groups.find(header) == groups.end()) order.push_back(header);
    Group& group = groups[header];
    group.lib = entry.lib;
    (entry.implemented ? group.done : group.todo).push_back(&entry);
    done_total += entry.implemented ? 1 : 0;
  }
  print("| header | library | implemented | not supported yet |\n");
  print("|---|---|---:|---:|\n");
  for (const auto& header : order) {
    const Group& group = groups[header];
    print("| `%s.h` | `lib%s.so` | %zu | %zu |\n", header.c_str(), group.lib.c_str(),
          group.done.size(), group.todo.size());
  }
  print("| **all** | | **%zu** | **%zu** |\n\n", done_total, manifest.size() - done_total);
  for (const auto& header : order) {
    const Group& group = groups[header];
    print(
        "<details><summary><code>%s.h</code>: %zu implemented, %zu not supported yet"
        "</summary>\n\n",
        header.c_str(), group.done.size(), group.todo.size());
    print("Implemented:");
    if (group.done.empty()) print(" none");
    for (size_t i = 0; i < group.done.size(); ++i) {
      print("%s `%s`", i == 0 ? "" : ",", group.done[i]->name);
    }
    print("\n\nNot supported yet (%s):", unsupported);
    if (group.todo.empty()) print(" none");
    for (size_t i = 0; i < group.todo.size(); ++i) {
      print("%s `%s`", i == 0 ? "" : ",", group.todo[i]->name);
    }
    print("\n\n</details>\n\n");
  }
#undef print
  return out;
}

struct Section {
  std::string name, table;
};

std::vector<Section> Sections() {
  return {
      {"api-table", Table(Manifest(), "return `ACL_ERROR_API_NOT_SUPPORT` or their failure value")},
      {"aclnn-table",
       Table(NnManifest(), "return `ACLNN_ERR_INNER_FIND_KERNEL_ERROR` with a message")}};
}

static int RunTool(int argc, char** argv) {
  const std::vector<Section> sections = Sections();
  if (argc == 1) {
    for (const Section& section : sections) std::fputs(section.table.c_str(), stdout);
    return 0;
  }
  if (argc != 3 ||
      (std::strcmp(argv[1], "--update") != 0 && std::strcmp(argv[1], "--check") != 0)) {
    std::fprintf(stderr, "usage: %s [--update FILE | --check FILE]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[2]);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  bool stale = false;
  for (const Section& section : sections) {
    const std::string begin = "<!-- " + section.name + ":begin -->";
    const std::string end = "<!-- " + section.name + ":end -->";
    size_t i = text.find(begin), j = text.find(end);
    if (!in || i == std::string::npos || j == std::string::npos || j < i) {
      std::fprintf(stderr, "%s: no %s markers\n", argv[2], section.name.c_str());
      return 2;
    }
    i += begin.size();
    const std::string current = "\n" + section.table;
    if (text.compare(i, j - i, current) == 0) continue;
    stale = true;
    text.replace(i, j - i, current);
  }
  if (std::strcmp(argv[1], "--check") == 0) {
    if (!stale) return 0;
    std::fprintf(stderr, "%s: API table is stale; run scripts/update-api-table.sh\n", argv[2]);
    return 1;
  }
  std::ofstream(argv[2]) << text;
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("aclsim-api-table", 1, [&] { return RunTool(argc, argv); });
}
