// Status: errors cross every boundary (CLI, Embind, tests) as values, never as
// exceptions, so a WebAssembly build without exception support behaves the same.
// The code says what kind of error it is, so that callers pick an exit code or
// an error code from it, not from the message.
#pragma once
#include <string>
#include <utility>

namespace iopddl {

enum class StatusCode {
  kOk,
  kInvalidInput,  // the problem, a solution or a start is malformed or does not fit
  kIo,            // a file cannot be opened or read
  kOutOfMemory,   // memory ran out (the input is fine)
  kBadArgument,   // an option or parameter is unknown or out of range
};

struct Status {
  bool ok = true;
  std::string message;  // names the file, field and index of what is wrong
  StatusCode code = StatusCode::kOk;

  static Status Ok() { return {}; }
  static Status Error(std::string msg, StatusCode code = StatusCode::kInvalidInput) {
    return {false, std::move(msg), code};
  }
  explicit operator bool() const { return ok; }
};

}  // namespace iopddl
