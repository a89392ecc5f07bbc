// Loading the contest's JSON format (plain or gzip) into a Problem.
#pragma once
#include <string>

#include "problem.h"
#include "status.h"

namespace iopddl {

// Parses `bytes` in place (the buffer is modified). Accepts gzip (detected by its
// magic bytes) or JSON. `source` names the input in error messages.
Status load_problem_from_buffer(std::string bytes, const std::string& source, Problem* out);

// Reads a file (JSON or gzip JSON) and loads it.
Status load_problem_file(const std::string& path, Problem* out);

// True when the bytes start with the gzip magic number.
bool is_gzip(const std::string& bytes);

// Inflates gzip bytes (all members). Fails with a message on corrupt or truncated data.
Status gunzip(const std::string& in, std::string* out);

}  // namespace iopddl
