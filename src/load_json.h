// Loading the contest's JSON format (plain or gzip) into a Problem.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "problem.h"
#include "status.h"

namespace iopddl {

// gzip's magic number: the first two bytes of every gzip file (how a gzip
// input is told from JSON; the npm package reads it from the module).
constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};

// Loads a problem from bytes given in pieces, in order, as they arrive: a file
// read in blocks, a stream, chunks handed over from JavaScript. JSON or gzip
// (told apart by the first two bytes; gzip is inflated as it comes). Neither the
// input nor the inflated text is ever held whole: memory is the problem's own.
// `source` names the input in error messages. After an error, every call
// returns that error.
class ProblemLoader {
 public:
  explicit ProblemLoader(std::string source);
  ~ProblemLoader();
  ProblemLoader(const ProblemLoader&) = delete;
  ProblemLoader& operator=(const ProblemLoader&) = delete;

  // The input will be about `json_bytes` of plain JSON (a file's size): the
  // edge costs' array is reserved for the most entries that many bytes can
  // hold, so it never grows by copying. Only address space is reserved: pages
  // are touched as entries arrive. Skipped when it cannot be had (ulimit -v);
  // not for WebAssembly, whose memory is committed when reserved.
  void expect_json_bytes(uint64_t json_bytes);

  // The bytes to come are a gzip input already inflated by the caller (a
  // platform's own zlib): they are parsed as JSON, never inflated again, and
  // messages place errors in the decompressed JSON, as for gzip pushed here.
  // Before the first push.
  void input_inflated_by_caller();

  Status push(const char* data, size_t n);
  // The input has ended: checks the document and moves the problem into `out`.
  Status finish(Problem* out);

  uint64_t bytes_in() const;  // bytes pushed (compressed, for gzip inflated here)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Status out_of_memory();
  // A gzip file, inflated on a second thread while this one parses.
  Status load_gzip_file(FILE* f, Problem* out);
  friend Status load_problem_file(const std::string& path, Problem* out);
};

// The whole input at once (JSON or gzip).
Status load_problem_from_buffer(const std::string& bytes, const std::string& source, Problem* out);

// Reads a file (JSON or gzip JSON) block by block and loads it.
Status load_problem_file(const std::string& path, Problem* out);

// True when the bytes start with the gzip magic number.
bool is_gzip(const std::string& bytes);

}  // namespace iopddl
