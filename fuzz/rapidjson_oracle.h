// RapidJSON as the oracle for fuzz_json_diff: parses a whole buffer with the
// flags fuzz_json_diff.cc describes and records its SAX events. A translation
// unit of its own so that it can be built without UBSan's pointer-overflow
// check: RapidJSON 1.1.0's internal::Stack compares `nullptr + n` with its end
// before its first allocation (stack.h, Reserve()), which UBSan reports; the
// code under test keeps every check.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace iopddl::fuzz {

// Events as one string each: "{", "}", "[", "]", "K" + key, "S" + string,
// "N" + number text, "t", "f", "n".
using JsonEvents = std::vector<std::string>;

struct OracleResult {
  bool ok = false;
  bool number_too_big = false;  // kParseErrorNumberTooBig
  size_t offset = 0;            // of the error
  std::string error;            // RapidJSON's message
};

OracleResult rapidjson_parse(const std::string& text, JsonEvents* events);

}  // namespace iopddl::fuzz
