// Status: errors cross every boundary (CLI, Embind, tests) as values, never as
// exceptions, so a WebAssembly build without exception support behaves the same.
#pragma once
#include <string>
#include <utility>

namespace iopddl {

struct Status {
  bool ok = true;
  std::string message;  // names the file, field and index of what is wrong

  static Status Ok() { return {}; }
  static Status Error(std::string msg) { return {false, std::move(msg)}; }
  explicit operator bool() const { return ok; }
};

}  // namespace iopddl
