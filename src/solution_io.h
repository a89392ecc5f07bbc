// The contest's solution line "[s0, s1, ...]": formatting and parsing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "status.h"

namespace iopddl {

std::string format_solution(const std::vector<int32_t>& a);

// Parses the last line of `text` that starts with '[' (earlier lines, such as
// "# ..." progress lines, are ignored). Messages name the entry index.
Status parse_solution(const std::string& text, const std::string& source, std::vector<int32_t>* out);

}  // namespace iopddl
