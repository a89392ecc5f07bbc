// libFuzzer target: our push parser (json_push_parser.h) against RapidJSON as
// the oracle. Each input is fed to the push parser in pieces (split points drawn
// from a hash of the input, so a run is reproducible from its bytes alone) and to
// RapidJSON whole. Both must accept or both reject, and when they accept they
// must give the same events: objects with their keys in order, arrays, strings
// and keys byte for byte, numbers as the text written (RapidJSON's
// kParseNumbersAsStringsFlag against the push parser's RawNumber text and, for
// the fast path's rows of plain integers, the decimal text of the value, which is
// the lexeme itself since that path takes no sign, leading zero or fraction).
//
// RapidJSON (rapidjson_oracle.cc) is configured as close to RFC 8259 as it goes:
// - kParseValidateEncodingFlag: strings must be valid UTF-8 (RFC 3629: no
//   overlong forms, no encoded surrogates, nothing above U+10FFFF);
// - no kParseStopWhenDoneFlag: content after the top-level value is an error;
// - no comments, NaN/Infinity or trailing commas (their flags are off);
// - kParseIterativeFlag: no recursion, so no depth limit (the push parser has
//   none either) and no stack overflow on deep nesting;
// - kParseNumbersAsStringsFlag: numbers are handed over as text.
// Both accept any value at the top level (RFC 8259 allows a lone scalar), pass
// duplicate keys through as events, and refuse a byte order mark.
//
// Where the two differ on purpose, the comparison skips or adapts (the checks
// at the end of LLVMFuzzerTestOneInput):
// - a NUL byte: RapidJSON's streams take '\0' as the end of the input, so "1\0x"
//   would look like "1" to it. A NUL byte is never valid JSON text (in a string
//   it must be escaped), so the push parser must reject such an input, and
//   RapidJSON is given a copy with each NUL replaced by 0x01, which is invalid in
//   every place a NUL is;
// - a number too big for a double (kParseErrorNumberTooBig, e.g. 1e400 or 400
//   digits): RapidJSON computes the value even when it hands over the text and
//   refuses it; RFC 8259 lets a parser limit the range, and the push parser
//   leaves the value to its handler (the loader refuses anything beyond int64),
//   so such an input has no oracle and is skipped;
// - a lone surrogate escape ("\uDC00", or "\uD800" not followed by a low
//   surrogate): the grammar allows it, but it names no character and has no
//   UTF-8 form; the push parser refuses it ("invalid surrogate pair"), while
//   RapidJSON 1.1.0 encodes a lone low surrogate as the bytes ED B0 80 (which its
//   own encoding check would refuse in the input). When RapidJSON accepts and the
//   push parser refuses with that message, the case is skipped.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "json_push_parser.h"
#include "rapidjson_oracle.h"

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& input) {
  std::fprintf(stderr, "fuzz_json_diff: %s\ninput (%zu bytes): ", what.c_str(), input.size());
  for (unsigned char c : input) {
    if (c >= 0x20 && c < 0x7f && c != '\\') std::fputc(c, stderr);
    else std::fprintf(stderr, "\\x%02x", c);
  }
  std::fputc('\n', stderr);
  std::abort();
}

using Events = iopddl::fuzz::JsonEvents;

std::string show(const Events& ev) {
  std::string s;
  for (const std::string& e : ev) {
    s += ' ';
    for (unsigned char c : e) {
      if (c >= 0x20 && c < 0x7f && c != '\\') s += char(c);
      else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        s += buf;
      }
    }
  }
  return s;
}

// The push parser's handler. With `fast`, plain_row() offers a row inside every
// array, so the parser's plain-integer fast path runs too.
struct PushHandler {
  Events ev;
  std::vector<char> open;  // '{' or '['
  bool fast = false;

  struct Row {
    PushHandler* h;
    uint64_t pushed = 0;
    void push_back(int64_t v) {
      h->ev.push_back("N" + std::to_string(v));
      ++pushed;
    }
  } row{this};

  bool Null() { ev.push_back("n"); return true; }
  bool Bool(bool b) { ev.push_back(b ? "t" : "f"); return true; }
  bool RawNumber(const char* s, size_t n) { ev.push_back("N" + std::string(s, n)); return true; }
  bool String(const char* s, size_t n) { ev.push_back("S" + std::string(s, n)); return true; }
  bool Key(const char* s, size_t n) { ev.push_back("K" + std::string(s, n)); return true; }
  bool StartObject() { ev.push_back("{"); open.push_back('{'); return true; }
  bool EndObject() { ev.push_back("}"); open.pop_back(); return true; }
  bool StartArray() { ev.push_back("["); open.push_back('['); return true; }
  bool EndArray() { ev.push_back("]"); open.pop_back(); return true; }
  Row* plain_row() {
    if (!fast || open.empty() || open.back() != '[') return nullptr;
    row.pushed = 0;
    return &row;
  }
  void row_appended(uint64_t count) {
    // The fast path reports exactly what it appended (possibly nothing).
    if (count != row.pushed) std::abort();
  }
};

uint64_t fnv1a(const uint8_t* d, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; ++i) h = (h ^ d[i]) * 1099511628211ULL;
  return h;
}

uint64_t next(uint64_t* s) {  // splitmix64
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  uint64_t seed = fnv1a(data, size);

  // The push parser, in pieces: sometimes one byte at a time, sometimes short
  // pieces, sometimes long ones, now and then an empty one.
  PushHandler ph;
  ph.fast = next(&seed) & 1;
  iopddl::JsonPushParser<PushHandler> parser(&ph);
  const int mode = int(next(&seed) % 4);
  bool ok = true;
  for (size_t at = 0; ok && at < size;) {
    size_t len;
    switch (mode) {
      case 0: len = 1; break;
      case 1: len = next(&seed) % 8; break;
      case 2: len = next(&seed) % 64; break;
      default: len = next(&seed) % (size + 1); break;
    }
    len = std::min(len, size - at);
    ok = parser.push(input.data() + at, len);
    at += len;
  }
  if (ok) ok = parser.finish();
  if (!ok && parser.failed_in_handler()) fail("the handler never stops the parse", input);

  // RapidJSON, whole, with each NUL byte made 0x01 (see above).
  std::string for_rj = input;
  const bool has_nul = for_rj.find('\0') != std::string::npos;
  for (char& c : for_rj)
    if (c == '\0') c = '\x01';
  Events rj_events;
  const iopddl::fuzz::OracleResult rj = iopddl::fuzz::rapidjson_parse(for_rj, &rj_events);

  // Replaying an input with FUZZ_JSON_DIFF_VERBOSE=1 in the environment prints both verdicts.
  static const bool verbose = std::getenv("FUZZ_JSON_DIFF_VERBOSE") != nullptr;
  if (verbose)
    std::fprintf(stderr, "push parser: %s; RapidJSON: %s\n",
                 ok ? "accepts" : ("rejects (" + parser.error().what + ")").c_str(),
                 rj.ok ? "accepts" : ("rejects (" + rj.error + ")").c_str());

  if (has_nul && ok) fail("accepted an input with a NUL byte", input);
  if (rj.number_too_big) return 0;  // no oracle
  if (rj.ok && !ok && parser.error().what == "invalid surrogate pair in a \\u escape") return 0;

  if (ok != rj.ok) {
    std::string why = ok ? std::string("push parser accepts, RapidJSON rejects at byte ") + std::to_string(rj.offset) +
                               ": " + rj.error
                         : "push parser rejects at byte " + std::to_string(parser.error().offset) + " (" +
                               parser.error().what + "), RapidJSON accepts";
    fail(why, input);
  }
  if (ok && ph.ev != rj_events)
    fail("the values differ\npush parser:" + show(ph.ev) + "\nRapidJSON:  " + show(rj_events), input);
  return 0;
}
