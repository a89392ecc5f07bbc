#include "solution_io.h"

namespace iopddl {

std::string format_solution(const std::vector<int32_t>& a) {
  std::string s;
  s.reserve(a.size() * 4 + 2);
  s.push_back('[');
  for (size_t i = 0; i < a.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(a[i]);
  }
  s.push_back(']');
  return s;
}

namespace {

Status parse_into(const std::string& text, const std::string& source, std::vector<int32_t>* out) {
  // Find the last line whose first non-blank character is '['.
  size_t start = std::string::npos;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    size_t k = pos;
    while (k < eol && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
    if (k < eol && text[k] == '[') start = k;
    pos = eol + 1;
  }
  if (start == std::string::npos)
    return Status::Error(source + ": no solution line of the form [s0, s1, ...] found");
  size_t k = start + 1;
  auto skip_ws = [&] {
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n')) ++k;
  };
  skip_ws();
  // Only blanks may follow the closing ']' (at text[k]) on its line.
  auto finish = [&]() -> Status {
    for (++k; k < text.size() && text[k] != '\n'; ++k) {
      if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
        return Status::Error(source + ": unexpected text after the closing ']' of the solution line");
    }
    return Status::Ok();
  };
  if (k < text.size() && text[k] == ']') return finish();
  for (;;) {
    skip_ws();
    size_t idx = out->size();
    bool neg = false;
    if (k < text.size() && text[k] == '-') { neg = true; ++k; }
    if (k >= text.size() || text[k] < '0' || text[k] > '9')
      return Status::Error(source + ": solution entry " + std::to_string(idx) + " is not an integer");
    int64_t v = 0;
    while (k < text.size() && text[k] >= '0' && text[k] <= '9') {
      v = v * 10 + (text[k++] - '0');
      if (v > INT32_MAX) return Status::Error(source + ": solution entry " + std::to_string(idx) + " is out of the int32 range");
    }
    out->push_back(int32_t(neg ? -v : v));
    skip_ws();
    if (k < text.size() && text[k] == ',') { ++k; continue; }
    if (k < text.size() && text[k] == ']') break;
    if (k >= text.size())
      return Status::Error(source + ": the solution line ends after entry " + std::to_string(idx) +
                           " without a closing ']'");
    return Status::Error(source + ": solution entry " + std::to_string(idx) +
                         " is followed by something other than ',' or ']'");
  }
  return finish();
}

}  // namespace

Status parse_solution(const std::string& text, const std::string& source, std::vector<int32_t>* out) {
  out->clear();
  Status st = parse_into(text, source, out);
  if (!st) out->clear();  // no partial answers
  return st;
}

}  // namespace iopddl
