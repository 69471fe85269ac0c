// aclsim-api-table: prints the README's API coverage table from the manifest.
//
// Usage: aclsim-api-table                  markdown to stdout
//        aclsim-api-table --update FILE    replace the table between the markers in FILE
//        aclsim-api-table --check FILE     exit 1 if FILE's table is not current (a test)
// Markers: <!-- api-table:begin --> and <!-- api-table:end -->.
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

}  // namespace

std::string Table() {
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
  for (const Entry& entry : Manifest()) {
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
  print("| **all** | | **%zu** | **%zu** |\n\n", done_total, Manifest().size() - done_total);
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
    print("\n\nNot supported yet (return `ACL_ERROR_API_NOT_SUPPORT` or their failure value):");
    if (group.todo.empty()) print(" none");
    for (size_t i = 0; i < group.todo.size(); ++i) {
      print("%s `%s`", i == 0 ? "" : ",", group.todo[i]->name);
    }
    print("\n\n</details>\n\n");
  }
#undef print
  return out;
}

static int RunTool(int argc, char** argv) {
  const std::string table = Table();
  if (argc == 1) {
    std::fputs(table.c_str(), stdout);
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
  const std::string begin = "<!-- api-table:begin -->", end = "<!-- api-table:end -->";
  size_t i = text.find(begin), j = text.find(end);
  if (!in || i == std::string::npos || j == std::string::npos || j < i) {
    std::fprintf(stderr, "%s: no api-table markers\n", argv[2]);
    return 2;
  }
  i += begin.size();
  const std::string current = "\n" + table;
  if (std::strcmp(argv[1], "--check") == 0) {
    if (text.compare(i, j - i, current) == 0) return 0;
    std::fprintf(stderr, "%s: API table is stale; run scripts/update-api-table.sh\n", argv[2]);
    return 1;
  }
  text.replace(i, j - i, current);
  std::ofstream(argv[2]) << text;
  return 0;
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("aclsim-api-table", 1, [&] { return RunTool(argc, argv); });
}
