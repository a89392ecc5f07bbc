// A JSON parser fed in pieces: push() takes bytes as they arrive (a file read in
// blocks, a gzip stream being inflated, chunks handed over from JavaScript) and
// calls the handler for every complete token; a token cut by the end of a piece
// waits, copied, for the next. No recursion (nesting depth is bounded by memory
// only) and no whole-document buffer.
//
// RapidJSON 1.1.0, which this replaced, parses a whole buffer or blocks on a pull
// stream; a WebAssembly module without threads cannot block while JavaScript
// reads the next piece, so the largest files (over a gigabyte) had to be held
// whole.
//
// The handler gets SAX events; numbers arrive as their text (the loader wants
// exact int64, not doubles), strings and keys unescaped and checked to be
// UTF-8. A handler returning false stops the parse (its own message wins).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace iopddl {

// The value of 8 ASCII digits at s (SWAR, little-endian), or false when one
// of the 8 bytes is not a digit.
inline bool eight_digits(const char* s, uint64_t* out) {
  uint64_t c;
  std::memcpy(&c, s, 8);
  if (((c & 0xF0F0F0F0F0F0F0F0ULL) | (((c + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) !=
      0x3333333333333333ULL)
    return false;
  c -= 0x3030303030303030ULL;
  c = (c * 10) + (c >> 8);
  c = (((c & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
       (((c >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
  *out = c;
  return true;
}

struct JsonSyntaxError {
  uint64_t offset = 0;  // byte of the document where the error was found
  std::string what;
};

template <class Handler>
class JsonPushParser {
 public:
  explicit JsonPushParser(Handler* h) : h_(h) {}

  // Parses as much of [data, data + n) as forms complete tokens. False when the
  // document is invalid or the handler stopped: see failed_in_handler() and error().
  bool push(const char* data, size_t n) {
    if (failed_) return false;
    if (!carry_.empty()) {
      const size_t k = token_rest(data, n);
      carry_.append(data, k);
      data += k;
      n -= k;
      if (!carry_done_) {
        offset_ += k;  // all of it went into the carry
        return true;
      }
      carry_done_ = false;
      if (!parse_carried(offset_ - (carry_.size() - k))) return false;
      offset_ += k;
    }
    const size_t used = parse(data, data + n, offset_, false);
    if (failed_) return false;
    carry_.assign(data + used, n - used);
    carry_escape_ = false;
    carry_done_ = false;
    scan_carry_start();
    offset_ += n;
    return true;
  }

  // The input has ended: a carried token is parsed as final, and the document
  // must be complete.
  bool finish() {
    if (failed_) return false;
    if (!carry_.empty() && !parse_carried(offset_ - carry_.size())) return false;
    if (expect_ == Expect::kEnd) return true;
    if (!seen_value_) return syntax(offset_, "the input is empty (no JSON document)", true);
    return syntax(offset_, expect_ == Expect::kColon ? "unexpected end of input (expected a colon)"
                                                     : "unexpected end of input (the document is incomplete)");
  }

  // After a failure: whether the handler stopped the parse (error().offset is
  // then the start of the token it was given), or the input was empty.
  bool failed_in_handler() const { return failed_ && handler_failed_; }
  bool empty_document() const { return empty_document_; }
  const JsonSyntaxError& error() const { return error_; }

 private:
  enum class Expect : uint8_t { kValue, kValueOrClose, kKeyOrClose, kKey, kColon, kCommaOrClose, kEnd };

  Handler* h_;
  std::vector<uint8_t> stack_;  // 1 = object, 0 = array
  Expect expect_ = Expect::kValue;
  bool seen_value_ = false;
  uint64_t offset_ = 0;        // bytes pushed so far
  std::string carry_;          // a token cut at the end of the last piece
  bool carry_escape_ = false;  // the carried string ends inside an escape
  bool carry_done_ = false;    // the carried token is now complete
  std::string text_;           // an unescaped string or key
  bool failed_ = false, handler_failed_ = false, empty_document_ = false;
  JsonSyntaxError error_;

  static bool is_blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  static bool is_number_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }
  static bool is_word_char(char c) { return c >= 'a' && c <= 'z'; }

  // The carried token, now complete (or the input has ended), starting at
  // document offset `start`. False on an error.
  bool parse_carried(uint64_t start) {
    std::string token;
    token.swap(carry_);
    parse(token.data(), token.data() + token.size(), start, true);
    return !failed_;
  }

  // After a token was cut: the escape state of a carried string.
  void scan_carry_start() {
    if (carry_.empty() || carry_[0] != '"') return;
    bool esc = false;
    for (size_t i = 1; i < carry_.size(); ++i) {
      if (esc) esc = false;
      else if (carry_[i] == '\\') esc = true;
    }
    carry_escape_ = esc;
  }

  // How many bytes of the new piece complete the carried token (all of them
  // when it is still not complete; carry_done_ tells).
  size_t token_rest(const char* d, size_t n) {
    const char first = carry_[0];
    size_t i = 0;
    if (first == '"') {
      bool esc = carry_escape_;
      for (; i < n; ++i) {
        if (esc) { esc = false; continue; }
        if (d[i] == '\\') esc = true;
        else if (d[i] == '"') { carry_done_ = true; return i + 1; }
      }
      carry_escape_ = esc;
      return n;
    }
    const bool word = is_word_char(first);
    for (; i < n; ++i) {
      if (word ? !is_word_char(d[i]) : !is_number_char(d[i])) { carry_done_ = true; return i; }
    }
    return n;
  }

  static constexpr const char* kInvalidValue =
      "invalid value (expected a number, a string, an array, an object, true, false or null)";

  bool syntax(uint64_t at, const std::string& what, bool empty = false) {
    failed_ = true;
    empty_document_ = empty;
    error_.offset = at;
    error_.what = what;
    return false;
  }
  bool stopped(uint64_t at) {
    failed_ = true;
    handler_failed_ = true;
    error_.offset = at;
    return false;
  }
  bool bad_char(const char* p, uint64_t at, const char* expected) {
    if (*p == '\0') return syntax(at, "unexpected NUL byte");
    return syntax(at, std::string("expected ") + expected + ", got " + describe(*p));
  }
  static std::string describe(char c) {
    const unsigned char u = (unsigned char)c;
    if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
    static const char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }

  void after_value() { expect_ = stack_.empty() ? Expect::kEnd : Expect::kCommaOrClose; }

  // Closes the innermost object or array (its '}' or ']' is at `at`).
  bool close(uint64_t at) {
    const bool obj = stack_.back();
    stack_.pop_back();
    if (!(obj ? h_->EndObject() : h_->EndArray())) return stopped(at);
    after_value();
    return true;
  }

  // Parses [p, end); `base` is the document offset of p. With `final`, a token
  // reaching `end` is complete; without, it is left for the next piece and the
  // return value says where it starts.
  size_t parse(const char* const begin, const char* const end, uint64_t base, bool final) {
    const char* p = begin;
    while (p < end) {
      const char c = *p;
      if (is_blank(c)) { ++p; continue; }
      const uint64_t at = base + uint64_t(p - begin);
      switch (expect_) {
        case Expect::kEnd:
          syntax(at, c == '\0' ? "unexpected NUL byte" : "unexpected content after the top-level value");
          return size_t(p - begin);
        case Expect::kColon:
          if (c != ':') { bad_char(p, at, "a colon after an object member's name"); return size_t(p - begin); }
          ++p;
          expect_ = Expect::kValue;
          continue;
        case Expect::kCommaOrClose:
          if (c == ',') {
            ++p;
            expect_ = stack_.back() ? Expect::kKey : Expect::kValue;
            continue;
          }
          if (c == (stack_.back() ? '}' : ']')) {
            if (!close(at)) return size_t(p - begin);
            ++p;
            continue;
          }
          bad_char(p, at, stack_.back() ? "',' or '}' after an object member" : "',' or ']' after an array element");
          return size_t(p - begin);
        case Expect::kKeyOrClose:
        case Expect::kKey:
          if (c == '}' && expect_ == Expect::kKeyOrClose) {
            if (!close(at)) return size_t(p - begin);
            ++p;
            continue;
          }
          if (c != '"') { bad_char(p, at, "a member name in double quotes"); return size_t(p - begin); }
          {
            const char* q = string_token(p, end, base, begin, final);
            if (!q) return failed_ ? 0 : size_t(p - begin);
            if (!h_->Key(text_.data(), text_.size())) { stopped(at); return 0; }
            p = q;
            expect_ = Expect::kColon;
          }
          continue;
        case Expect::kValueOrClose:
          if (c == ']') {
            if (!close(at)) return size_t(p - begin);
            ++p;
            continue;
          }
          [[fallthrough]];
        case Expect::kValue:
          seen_value_ = true;
          if (c == '{') {
            if (!h_->StartObject()) { stopped(at); return size_t(p - begin); }
            stack_.push_back(1);
            expect_ = Expect::kKeyOrClose;
            ++p;
            continue;
          }
          if (c == '[') {
            if (!h_->StartArray()) { stopped(at); return size_t(p - begin); }
            stack_.push_back(0);
            expect_ = Expect::kValueOrClose;
            ++p;
            continue;
          }
          if (c == '"') {
            const char* q = string_token(p, end, base, begin, final);
            if (!q) return failed_ ? 0 : size_t(p - begin);
            if (!h_->String(text_.data(), text_.size())) { stopped(at); return 0; }
            p = q;
            after_value();
            continue;
          }
          if (c >= '0' && c <= '9') {
            if (auto* row = h_->plain_row()) {
              const char* q = plain_numbers(p, end, row);
              if (q != p) { p = q; continue; }
              // Not even one: this number takes the general path.
            }
          }
          if (c == '-' || (c >= '0' && c <= '9')) {
            const char* q = p;
            while (q < end && is_number_char(*q)) ++q;
            if (q == end && !final) return size_t(p - begin);
            const char* bad = number_grammar(p, q);
            if (bad) {
              syntax(base + uint64_t(bad - begin), "malformed number");
              return 0;
            }
            if (!h_->RawNumber(p, size_t(q - p))) { stopped(at); return 0; }
            p = q;
            after_value();
            continue;
          }
          if (is_word_char(c)) {
            const char* q = p;
            while (q < end && is_word_char(*q)) ++q;
            if (q == end && !final) return size_t(p - begin);
            const std::string word(p, q);
            bool ok;
            if (word == "true") ok = h_->Bool(true);
            else if (word == "false") ok = h_->Bool(false);
            else if (word == "null") ok = h_->Null();
            else { syntax(at, kInvalidValue); return 0; }
            if (!ok) { stopped(at); return 0; }
            p = q;
            after_value();
            continue;
          }
          if (c == '\0') syntax(at, "unexpected NUL byte");
          else syntax(at, std::string(kInvalidValue) + ", got " + describe(c));
          return size_t(p - begin);
      }
    }
    return size_t(p - begin);
  }

  // The fast path for a row of plain integers ("0,15,1000000000000000000]"):
  // appends each number followed by ',' or ']' to `row` and stops at the first
  // thing it does not handle (a blank, a sign, a fraction or exponent, more than
  // 19 digits, a leading zero, the end of the piece), which the general path
  // then reads. Returns where it stopped; sets expect_ to match.
  template <class Column>
  const char* plain_numbers(const char* p, const char* end, Column* row) {
    uint64_t count = 0;
    while (p < end) {
      const char* q = p;
      uint64_t v = 0, eight;
      // Eight digits at a time while they last (forbidden entries have 19).
      while (end - q >= 8 && q - p <= 8 && eight_digits(q, &eight)) v = v * 100000000ULL + eight, q += 8;
      while (q < end && unsigned(*q - '0') <= 9u && q - p < 20) v = v * 10 + unsigned(*q - '0'), ++q;
      const ptrdiff_t digits = q - p;
      if (q == end || digits == 0 || digits > 19 || (*p == '0' && digits > 1) || v > uint64_t(INT64_MAX)) break;
      if (*q == ',') {
        row->push_back(int64_t(v));
        ++count;
        p = q + 1;
        expect_ = Expect::kValue;
      } else if (*q == ']') {
        row->push_back(int64_t(v));
        ++count;
        p = q;
        expect_ = Expect::kCommaOrClose;
        break;
      } else {
        break;
      }
    }
    h_->row_appended(count);
    return p;
  }

  // The first byte of [p, q) that breaks JSON's number grammar, or nullptr.
  // (q itself when the number stops too early, e.g. "1." or "-".)
  static const char* number_grammar(const char* p, const char* q) {
    if (p < q && *p == '-') ++p;
    if (p == q || *p < '0' || *p > '9') return p;
    if (*p == '0') ++p;
    else while (p < q && *p >= '0' && *p <= '9') ++p;
    if (p < q && *p == '.') {
      ++p;
      if (p == q || *p < '0' || *p > '9') return p;
      while (p < q && *p >= '0' && *p <= '9') ++p;
    }
    if (p < q && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < q && (*p == '+' || *p == '-')) ++p;
      if (p == q || *p < '0' || *p > '9') return p;
      while (p < q && *p >= '0' && *p <= '9') ++p;
    }
    return p == q ? nullptr : p;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  void put_utf8(uint32_t cp) {
    if (cp < 0x80) text_ += char(cp);
    else if (cp < 0x800) { text_ += char(0xC0 | (cp >> 6)); text_ += char(0x80 | (cp & 63)); }
    else if (cp < 0x10000) {
      text_ += char(0xE0 | (cp >> 12)); text_ += char(0x80 | ((cp >> 6) & 63)); text_ += char(0x80 | (cp & 63));
    } else {
      text_ += char(0xF0 | (cp >> 18)); text_ += char(0x80 | ((cp >> 12) & 63));
      text_ += char(0x80 | ((cp >> 6) & 63)); text_ += char(0x80 | (cp & 63));
    }
  }

  // The length of the UTF-8 character at s, as RFC 3629 defines it (no overlong
  // forms, no surrogates, nothing above U+10FFFF): 2 to 4; 0 when it is invalid
  // (*bad is then the first byte that breaks it); -1 when [s, end) ends inside
  // it. RFC 8259 wants JSON text in UTF-8, and the strings go on to JavaScript
  // and to terminals: bytes that are not UTF-8 are an error, as in RapidJSON
  // with kParseValidateEncodingFlag (fuzz/fuzz_json_diff.cc checks the two agree).
  static int utf8_sequence(const char* s, const char* end, const char** bad) {
    const unsigned char b = (unsigned char)s[0];
    int n;
    unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b >= 0xE0 && b <= 0xEF) n = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) n = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else { *bad = s; return 0; }
    for (int k = 1; k < n; ++k, lo = 0x80, hi = 0xBF) {
      if (end - s <= k) return -1;
      const unsigned char c = (unsigned char)s[k];
      if (c < lo || c > hi) { *bad = s + k; return 0; }
    }
    return n;
  }

  // Reads the string starting at p (its opening quote) into text_. Returns the
  // byte after its closing quote; nullptr when it runs past `end` (an error if
  // `final`, else it waits for the next piece).
  const char* string_token(const char* p, const char* end, uint64_t base, const char* begin, bool final) {
    text_.clear();
    const char* q = p + 1;
    auto at = [&](const char* x) { return base + uint64_t(x - begin); };
    while (q < end) {
      const char c = *q;
      if (c == '"') return q + 1;
      if ((unsigned char)c < 0x20) {
        syntax(at(q), c == '\0' ? "unexpected NUL byte" : "control character in a string (it must be escaped)");
        return nullptr;
      }
      if ((unsigned char)c >= 0x80) {
        const char* bad = nullptr;
        const int n = utf8_sequence(q, end, &bad);
        if (n < 0) break;  // the piece ends inside the character
        if (n == 0) { syntax(at(bad), "invalid UTF-8 in a string"); return nullptr; }
        text_.append(q, q + n);
        q += n;
        continue;
      }
      if (c != '\\') {
        const char* run = q;
        while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80) ++q;
        text_.append(run, q);
        continue;
      }
      if (q + 1 >= end) break;
      const char e = q[1];
      switch (e) {
        case '"': text_ += '"'; q += 2; continue;
        case '\\': text_ += '\\'; q += 2; continue;
        case '/': text_ += '/'; q += 2; continue;
        case 'b': text_ += '\b'; q += 2; continue;
        case 'f': text_ += '\f'; q += 2; continue;
        case 'n': text_ += '\n'; q += 2; continue;
        case 'r': text_ += '\r'; q += 2; continue;
        case 't': text_ += '\t'; q += 2; continue;
        case 'u': break;
        default: syntax(at(q + 1), "invalid escape character in a string"); return nullptr;
      }
      uint32_t cp = 0;
      int k = 2;
      for (; k < 6 && q + k < end; ++k) {
        // Checked one by one, so a bad digit is found before the end of a piece.
        const int h = hex(q[k]);
        if (h < 0) { syntax(at(q + k), "incorrect hex digit after \\u escape in a string"); return nullptr; }
        cp = cp * 16 + uint32_t(h);
      }
      if (k < 6) break;
      q += 6;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        // A high surrogate must be followed by \u and a low one.
        if (end - q < 6) {
          if (!final) return nullptr;
          syntax(at(q), "invalid surrogate pair in a \\u escape");
          return nullptr;
        }
        uint32_t lo = 0;
        bool ok = q[0] == '\\' && q[1] == 'u';
        for (int k = 2; ok && k < 6; ++k) {
          const int h = hex(q[k]);
          if (h < 0) ok = false;
          else lo = lo * 16 + uint32_t(h);
        }
        if (!ok || lo < 0xDC00 || lo > 0xDFFF) { syntax(at(q), "invalid surrogate pair in a \\u escape"); return nullptr; }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        q += 6;
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        syntax(at(q - 6), "invalid surrogate pair in a \\u escape");
        return nullptr;
      }
      put_utf8(cp);
    }
    if (final) syntax(at(end), "unexpected end of input inside a string (missing closing quote)");
    return nullptr;
  }
};

}  // namespace iopddl
