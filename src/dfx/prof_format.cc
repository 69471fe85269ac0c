#include "dfx/prof_format.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace aclsim::dfx::prof::detail {

std::string Us(uint64_t ns) { return fmt::format("{}.{:03}", ns / 1000, ns % 1000); }

std::string UsOf(double ns) { return fmt::format("{:.3f}", ns / 1000.0); }

std::string Percent(double part, double whole) {
  return fmt::format("{:.3f}", whole > 0 ? part * 100.0 / whole : 0.0);
}

std::string CsvRow(const std::vector<std::string>& fields) {
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) row += ',';
    const std::string& field = fields[i];
    if (field.find_first_of(",\"\r\n") == std::string::npos) {
      row += field;
      continue;
    }
    row += '"';
    for (char c : field) {
      if (c == '"') row += '"';
      row += c;
    }
    row += '"';
  }
  row += '\n';
  return row;
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even as references.
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') ? '?' : c;
    }
  }
  return out;
}

Status WriteTextFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Err(StatusCode::kWriteFile, "cannot write {}: {}", path, std::strerror(errno));
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) return Err(StatusCode::kWriteFile, "cannot write {}: {}", path, std::strerror(errno));
  return Status::Ok();
}

}  // namespace aclsim::dfx::prof::detail
