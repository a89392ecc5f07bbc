// RapidJSON SAX reader, in situ, iterative (deep nesting cannot overflow the
// stack), numbers as raw text so that floats, and integers beyond int64, are
// rejected with the exact field and index instead of silently rounded.
#include "load_json.h"

#include <zlib.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace iopddl {
namespace {

enum class Field {
  kRoot, kProblem, kName, kNodes, kEdges, kUsageLimit,
  kIntervals, kNodeCosts, kNodeUsages, kEdgeNodes, kEdgeCosts, kUnknown,
  kRow,      // a row of a list field: must be an array
  kElement,  // an element of a row: must be an integer
};

const char* field_path(Field f) {
  switch (f) {
    case Field::kRoot: return "(top level)";
    case Field::kProblem: return "problem";
    case Field::kName: return "problem.name";
    case Field::kNodes: return "problem.nodes";
    case Field::kEdges: return "problem.edges";
    case Field::kUsageLimit: return "problem.usage_limit";
    case Field::kIntervals: return "problem.nodes.intervals";
    case Field::kNodeCosts: return "problem.nodes.costs";
    case Field::kNodeUsages: return "problem.nodes.usages";
    case Field::kEdgeNodes: return "problem.edges.nodes";
    case Field::kEdgeCosts: return "problem.edges.costs";
    case Field::kUnknown: return "(unknown field)";
    case Field::kRow: return "(row)";
    case Field::kElement: return "(element)";
  }
  return "?";
}

bool is_object_field(Field f) {
  return f == Field::kRoot || f == Field::kProblem || f == Field::kNodes || f == Field::kEdges;
}
bool is_list_field(Field f) {
  return f == Field::kIntervals || f == Field::kNodeCosts || f == Field::kNodeUsages ||
         f == Field::kEdgeNodes || f == Field::kEdgeCosts;
}
bool is_pair_field(Field f) { return f == Field::kIntervals || f == Field::kEdgeNodes; }

// Parses a JSON number's text as int64; returns false with a reason otherwise.
bool parse_int64(const char* s, size_t len, int64_t* out, const char** why) {
  size_t i = 0;
  bool neg = false;
  if (i < len && s[i] == '-') { neg = true; ++i; }
  if (len - i <= 19) {
    // Up to 19 digits fit in 64 unsigned bits: the common, fast case
    // (10^18, the forbidden marker, has 19).
    uint64_t v = 0;
    for (; i + 8 <= len; i += 8) {
      // Eight digits at once (SWAR): check they are all '0'..'9', then fold.
      uint64_t chunk;
      std::memcpy(&chunk, s + i, 8);
      if (((chunk & 0xF0F0F0F0F0F0F0F0ULL) | (((chunk + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) !=
          0x3333333333333333ULL) {
        *why = "expected an integer, got a number with a fraction or exponent";
        return false;
      }
      chunk -= 0x3030303030303030ULL;
      chunk = (chunk * 10) + (chunk >> 8);
      chunk = (((chunk & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
               (((chunk >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
      v = v * 100000000ULL + chunk;
    }
    for (; i < len; ++i) {
      const unsigned d = unsigned(s[i]) - '0';
      if (d > 9) { *why = "expected an integer, got a number with a fraction or exponent"; return false; }
      v = v * 10 + d;
    }
    if (v > uint64_t(INT64_MAX) + (neg ? 1 : 0)) { *why = "integer out of the int64 range"; return false; }
    *out = neg ? int64_t(0 - v) : int64_t(v);
    return true;
  }
  unsigned __int128 v = 0;
  for (; i < len; ++i) {
    char c = s[i];
    if (c < '0' || c > '9') { *why = "expected an integer, got a number with a fraction or exponent"; return false; }
    v = v * 10 + unsigned(c - '0');
    if (v > (unsigned __int128)INT64_MAX + 1) { *why = "integer out of the int64 range"; return false; }
  }
  if (!neg && v > (unsigned __int128)INT64_MAX) { *why = "integer out of the int64 range"; return false; }
  *out = neg ? int64_t(-(__int128)v) : int64_t(v);
  return true;
}

// A field name from the input as it may appear in a one-line message: control
// and non-ASCII bytes escaped as \xHH (an escaped "\n" in a key must not break
// the line), quotes and backslashes escaped, and at most 40 bytes of it.
std::string printable_key(const std::string& k) {
  static const char kHex[] = "0123456789abcdef";
  constexpr size_t kMax = 40;
  std::string s;
  for (size_t i = 0; i < k.size() && i < kMax; ++i) {
    const unsigned char c = (unsigned char)k[i];
    if (c == '"' || c == '\\') {
      s += '\\';
      s += char(c);
    } else if (c < 0x20 || c >= 0x7f) {
      s += "\\x";
      s += kHex[c >> 4];
      s += kHex[c & 15];
    } else {
      s += char(c);
    }
  }
  if (k.size() > kMax) s += "...";
  return s;
}

struct Frame {
  Field field;
  int depth_kind;  // 0 object, 1 outer list, 2 row
  uint64_t index;  // element index within a list / row
};

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  explicit Handler(Problem* p) : p_(p) {}

  std::string error;
  Problem* p_;
  std::vector<uint64_t> usage_offset{0};
  uint64_t interval_rows = 0, edge_node_rows = 0;
  bool seen[12] = {};

  bool Null() { return scalar("null"); }
  bool Bool(bool) { return scalar("a boolean"); }
  bool Int(int) { return scalar("a number"); }
  bool Uint(unsigned) { return scalar("a number"); }
  bool Int64(int64_t) { return scalar("a number"); }
  bool Uint64(uint64_t) { return scalar("a number"); }
  bool Double(double) { return scalar("a number"); }

  bool RawNumber(const char* s, rapidjson::SizeType len, bool) {
    if (skip_) return true;
    Field slot = Field::kUnknown;
    if (!value_slot(&slot)) return false;
    if (slot == Field::kUsageLimit) {
      int64_t v;
      const char* why;
      if (!parse_int64(s, len, &v, &why)) return fail(why);
      if (v < 0) return fail("usage limit must be non-negative");
      p_->usage_limit = v;
      p_->has_usage_limit = true;
      return done_value();
    }
    if (slot == Field::kUnknown) return done_value();
    if (slot != Field::kElement) return fail("expected " + expected(slot) + ", got a number");
    Frame& row = stack_.back();
    int64_t v;
    const char* why;
    if (!parse_int64(s, len, &v, &why)) return fail(why);
    switch (row.field) {
      case Field::kIntervals:
        if (row.index == 0) p_->interval_lo.push_back(v);
        else if (row.index == 1) p_->interval_hi.push_back(v);
        else return fail_row("an interval must be a pair [lo, hi], got more than 2 values");
        break;
      case Field::kEdgeNodes:
        if (row.index >= 2) return fail_row("an edge must be a pair of node indices [u, v], got more than 2 values");
        if (v < 0 || v > INT32_MAX)
          return fail("node index " + std::to_string(v) + " out of range" +
                      (v < 0 ? " (indices are non-negative)" : " (above 2^31 - 1)"));
        (row.index == 0 ? p_->edge_u : p_->edge_v).push_back(int32_t(v));
        break;
      case Field::kNodeCosts:
        if (v < 0) return fail("costs must be non-negative, got " + std::to_string(v));
        p_->node_cost.push_back(v);
        break;
      case Field::kNodeUsages:
        if (v < 0) return fail("usages must be non-negative, got " + std::to_string(v));
        p_->node_usage.push_back(v);
        break;
      case Field::kEdgeCosts:
        if (v < 0) return fail("costs must be non-negative, got " + std::to_string(v));
        p_->edge_cost.push_back(v);
        break;
      default:
        return fail("unexpected number");
    }
    row.index++;
    return true;
  }

  bool String(const char* s, rapidjson::SizeType len, bool) {
    if (skip_) return true;
    Field slot = Field::kUnknown;
    if (!value_slot(&slot)) return false;
    if (slot == Field::kName) {
      p_->name.assign(s, len);
      return done_value();
    }
    if (slot == Field::kUnknown) return done_value();
    return fail("expected " + expected(slot) + ", got a string");
  }

  bool StartObject() {
    if (skip_) { ++skip_; return true; }
    Field slot = Field::kUnknown;
    if (!value_slot(&slot)) return false;
    if (slot == Field::kUnknown) { skip_ = 1; return true; }
    if (!is_object_field(slot)) return fail("expected " + expected(slot) + ", got an object");
    stack_.push_back({slot, 0, 0});
    key_ = Field::kUnknown;
    have_key_ = false;
    return true;
  }

  bool Key(const char* s, rapidjson::SizeType len, bool) {
    if (skip_) return true;
    Field obj = stack_.back().field;
    std::string k(s, len);
    Field f = Field::kUnknown;
    if (obj == Field::kRoot && k == "problem") f = Field::kProblem;
    else if (obj == Field::kProblem) {
      if (k == "name") f = Field::kName;
      else if (k == "nodes") f = Field::kNodes;
      else if (k == "edges") f = Field::kEdges;
      else if (k == "usage_limit") f = Field::kUsageLimit;
    } else if (obj == Field::kNodes) {
      if (k == "intervals") f = Field::kIntervals;
      else if (k == "costs") f = Field::kNodeCosts;
      else if (k == "usages") f = Field::kNodeUsages;
    } else if (obj == Field::kEdges) {
      if (k == "nodes") f = Field::kEdgeNodes;
      else if (k == "costs") f = Field::kEdgeCosts;
    }
    if (f != Field::kUnknown) {
      if (seen[int(f)]) return fail(std::string("duplicate field ") + field_path(f));
      seen[int(f)] = true;
    }
    key_ = f;
    if (f == Field::kUnknown) unknown_key_ = printable_key(k);
    have_key_ = true;
    return true;
  }

  bool EndObject(rapidjson::SizeType) {
    if (skip_) { --skip_; if (skip_ == 0) done_value(); return true; }
    stack_.pop_back();
    return done_value();
  }

  bool StartArray() {
    if (skip_) { ++skip_; return true; }
    Field slot = Field::kUnknown;
    if (!value_slot(&slot)) return false;
    if (slot == Field::kUnknown) { skip_ = 1; return true; }
    if (slot == Field::kRow) {
      stack_.push_back({stack_.back().field, 2, 0});
      return true;
    }
    if (!is_list_field(slot)) return fail("expected " + expected(slot) + ", got an array");
    stack_.push_back({slot, 1, 0});
    return true;
  }

  bool EndArray(rapidjson::SizeType) {
    if (skip_) { --skip_; if (skip_ == 0) done_value(); return true; }
    Frame fr = stack_.back();
    if (fr.depth_kind == 2) {
      if (is_pair_field(fr.field) && fr.index != 2) {
        const std::string got = ", got " + std::to_string(fr.index) + (fr.index == 1 ? " value" : " values");
        return fail_row(fr.field == Field::kIntervals ? "an interval must be a pair [lo, hi]" + got
                                                      : "an edge must be a pair of node indices [u, v]" + got);
      }
      switch (fr.field) {
        case Field::kNodeCosts: p_->strategy_offset.push_back(p_->node_cost.size()); break;
        case Field::kNodeUsages: usage_offset.push_back(p_->node_usage.size()); break;
        case Field::kEdgeCosts: p_->edge_cost_offset.push_back(p_->edge_cost.size()); break;
        default: break;
      }
      stack_.pop_back();
      stack_.back().index++;
      return true;
    }
    stack_.pop_back();
    return done_value();
  }

  // The path of the value being read, e.g. "problem.nodes.costs[12][3]". With
  // `row_only`, the innermost row itself ("problem.nodes.intervals[12]").
  std::string path(bool row_only = false) const {
    std::string s;
    size_t frames = stack_.size();
    if (row_only && frames > 0 && stack_.back().depth_kind == 2) --frames;
    for (size_t k = 0; k < frames; ++k) {
      const Frame& f = stack_[k];
      if (f.depth_kind == 0) continue;
      if (f.depth_kind == 1) s = field_path(f.field);
      s += "[" + std::to_string(f.index) + "]";
    }
    if (s.empty()) {
      if (!stack_.empty() && have_key_) {
        Field obj = stack_.back().field;
        if (key_ != Field::kUnknown) s = field_path(key_);
        else if (obj == Field::kRoot) s = unknown_key_;
        else s = std::string(field_path(obj)) + "." + unknown_key_;
      } else if (!stack_.empty()) {
        s = field_path(stack_.back().field);
      } else {
        s = field_path(Field::kRoot);
      }
    }
    return s;
  }

  bool fail(const std::string& why) {
    if (error.empty()) error = path() + ": " + why;
    return false;
  }
  bool fail_row(const std::string& why) {
    if (error.empty()) error = path(true) + ": " + why;
    return false;
  }

  // Where a syntax error happened, for the message: "in problem.nodes.costs[3][1]".
  std::string context() const {
    if (stack_.empty()) return root_done_ ? "after the top-level object" : "at the top level";
    return "in " + path();
  }

 private:
  std::vector<Frame> stack_;
  Field key_ = Field::kUnknown;
  std::string unknown_key_;  // the name of the unknown field being skipped
  bool have_key_ = false;
  bool root_done_ = false;
  int skip_ = 0;

  std::string expected(Field slot) {
    if (is_object_field(slot)) return "an object";
    if (slot == Field::kName) return "a string";
    if (slot == Field::kUsageLimit) return "an integer";
    if (is_list_field(slot) || slot == Field::kRow) return "an array";
    return "an integer";
  }

  // Which field the next value belongs to.
  bool value_slot(Field* slot) {
    if (stack_.empty()) {
      if (root_done_) return fail("unexpected content after the top-level object");
      *slot = Field::kRoot;
      return true;
    }
    const Frame& top = stack_.back();
    if (top.depth_kind == 0) {
      *slot = key_;
      return true;
    }
    *slot = top.depth_kind == 1 ? Field::kRow : Field::kElement;
    return true;
  }

  bool done_value() {
    if (stack_.empty()) root_done_ = true;
    have_key_ = false;
    return true;
  }

  bool scalar(const char* what) {
    if (skip_) return true;
    Field slot = Field::kUnknown;
    if (!value_slot(&slot)) return false;
    if (slot == Field::kUnknown) return done_value();
    return fail("expected " + expected(slot) + ", got " + what);
  }
};

}  // namespace

bool is_gzip(const std::string& b) {
  return b.size() >= 2 && (unsigned char)b[0] == 0x1f && (unsigned char)b[1] == 0x8b;
}

Status gunzip(const std::string& in, std::string* out) {
  out->clear();
  // The trailer holds the size modulo 2^32: a good first guess for the buffer,
  // unless it is more than deflate can produce from this input (at most ~1032:1),
  // which means the data is corrupt: trusting it would allocate up to 4 GB.
  size_t guess = in.size() * 4;
  if (in.size() >= 4) {
    uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    if (isize > guess && isize / 1032 <= in.size()) guess = isize;
  }
  out->resize(guess + 1);
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Status::Error("gzip: cannot initialise zlib");
  zs.next_in = (Bytef*)in.data();
  zs.avail_in = uInt(in.size());
  size_t produced = 0;
  int rc = Z_OK;
  for (;;) {
    if (produced == out->size()) out->resize(out->size() * 2);
    zs.next_out = (Bytef*)out->data() + produced;
    size_t room = out->size() - produced;
    zs.avail_out = uInt(room > (1u << 30) ? (1u << 30) : room);
    uInt before = zs.avail_out;
    rc = inflate(&zs, Z_NO_FLUSH);
    produced += before - zs.avail_out;
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      // Another gzip member follows (concatenated files are valid gzip).
      if (inflateReset(&zs) != Z_OK) break;
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      inflateEnd(&zs);
      return Status::Error(std::string("gzip data is corrupt: ") + (zs.msg ? zs.msg : "inflate failed"));
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      inflateEnd(&zs);
      return Status::Error("gzip data is truncated");
    }
  }
  inflateEnd(&zs);
  out->resize(produced);
  return Status::Ok();
}

namespace {

// RapidJSON's parse stack allocator, throwing std::bad_alloc instead of handing
// a null pointer to RapidJSON (which would dereference it): running out of
// memory becomes an error message like any other allocation failure.
class StackAllocator {
 public:
  [[maybe_unused]] static const bool kNeedFree = true;  // RapidJSON's allocator concept
  void* Malloc(size_t size) {
    if (size == 0) return nullptr;
    void* p = std::malloc(size);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void* Realloc(void* old, size_t, size_t size) {
    if (size == 0) {
      std::free(old);
      return nullptr;
    }
    void* p = std::realloc(old, size);
    if (!p) throw std::bad_alloc();
    return p;
  }
  static void Free(void* p) { std::free(p); }
};

Status load_unguarded(std::string& bytes, const std::string& source, Problem* out);

}  // namespace

// Memory runs out on inputs too large for the machine (or a gzip bomb): the
// allocation failure becomes a message (a WebAssembly build without exception
// support aborts instead, as it would anyway).
Status load_problem_from_buffer(std::string bytes, const std::string& source, Problem* out) {
  const size_t input_size = bytes.size();
  const bool gz = is_gzip(bytes);
  try {
    return load_unguarded(bytes, source, out);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  std::string().swap(bytes);
  *out = Problem();
  return Status::Error(source + ": out of memory while loading the problem (" + std::to_string(input_size) +
                       " bytes of " + (gz ? "gzip input" : "input") + ")",
                       StatusCode::kOutOfMemory);
}

namespace {

Status load_unguarded(std::string& bytes, const std::string& source, Problem* out) {
  *out = Problem();
  const bool was_gzip = is_gzip(bytes);
  if (was_gzip) {
    std::string plain;
    Status st = gunzip(bytes, &plain);
    if (!st) return Status::Error(source + ": " + st.message, st.code);
    bytes.swap(plain);
  }
  bytes.push_back('\0');  // in-situ parsing wants a terminator
  Handler h(out);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, StackAllocator> reader;
  rapidjson::InsituStringStream ss(&bytes[0]);
  constexpr unsigned kFlags = rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult r = reader.Parse<kFlags>(ss, h);
  // Offsets count bytes of the JSON text (after decompression, for gzip input).
  const std::string of_what = was_gzip ? " of the decompressed JSON" : "";
  if (!r) {
    std::string where = " (byte " + std::to_string(r.Offset()) + of_what + ")";
    if (!h.error.empty()) return Status::Error(source + ": " + h.error + where);
    if (r.Code() == rapidjson::kParseErrorDocumentEmpty && r.Offset() >= bytes.size() - 1)
      return Status::Error(source + ": the input is empty (no JSON document)");
    std::string what;
    // A NUL inside the data ends the in-situ stream early: report it as such.
    if (r.Offset() < bytes.size() - 1 && bytes[r.Offset()] == '\0')
      what = "unexpected NUL byte";
    else if (r.Code() == rapidjson::kParseErrorNumberTooBig)
      what = "number too large (expected an integer in the int64 range)";
    else
      what = rapidjson::GetParseError_En(r.Code());
    return Status::Error(source + ": JSON syntax error at byte " + std::to_string(r.Offset()) + of_what +
                         " (" + h.context() + "): " + what);
  }
  // The in-situ stream ends at the first NUL: anything after it is trailing garbage.
  if (ss.Tell() < bytes.size() - 1)
    return Status::Error(source + ": JSON syntax error at byte " + std::to_string(ss.Tell()) + of_what +
                         " (after the top-level object): unexpected NUL byte");
  // Presence of required fields.
  static const Field required[] = {Field::kProblem, Field::kNodes, Field::kIntervals,
                                   Field::kNodeCosts, Field::kNodeUsages, Field::kEdges,
                                   Field::kEdgeNodes, Field::kEdgeCosts};
  for (Field f : required)
    if (!h.seen[int(f)]) return Status::Error(source + ": missing field " + field_path(f));
  // Counts and per-node lengths, which need the raw usage offsets.
  size_t n_int = out->interval_lo.size(), n_cost = out->strategy_offset.size() - 1,
         n_use = h.usage_offset.size() - 1;
  if (n_int != n_cost || n_int != n_use)
    return Status::Error(source + ": node count mismatch: problem.nodes.intervals has " +
                         std::to_string(n_int) + " entries, problem.nodes.costs " +
                         std::to_string(n_cost) + ", problem.nodes.usages " + std::to_string(n_use));
  for (size_t i = 0; i < n_cost; ++i) {
    uint64_t kc = out->strategy_offset[i + 1] - out->strategy_offset[i];
    uint64_t ku = h.usage_offset[i + 1] - h.usage_offset[i];
    if (kc == 0)
      return Status::Error(source + ": problem.nodes.costs[" + std::to_string(i) +
                           "]: a node needs at least one strategy");
    if (kc != ku)
      return Status::Error(source + ": strategy count mismatch at node " + std::to_string(i) +
                           ": problem.nodes.costs[" + std::to_string(i) + "] has " +
                           std::to_string(kc) + " entries, problem.nodes.usages[" +
                           std::to_string(i) + "] has " + std::to_string(ku));
  }
  Status st = finalize_problem(out);
  if (!st) return Status::Error(source + ": " + st.message, st.code);
  return Status::Ok();
}

}  // namespace

Status load_problem_file(const std::string& path, Problem* out) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status::Error(path + ": cannot open file: " + std::strerror(errno), StatusCode::kIo);
  std::string bytes;
  // Only a regular file's size is meaningful: a directory opens, but its "size"
  // from fseek/ftell can be LONG_MAX, and reserving that throws.
  struct stat sb;
  const bool have_stat = fstat(fileno(f.get()), &sb) == 0;
  if (have_stat && S_ISDIR(sb.st_mode)) return Status::Error(path + ": cannot read: is a directory", StatusCode::kIo);
  try {
    if (have_stat && S_ISREG(sb.st_mode) && sb.st_size > 0) bytes.reserve(size_t(sb.st_size) + 1);
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f.get())) > 0) bytes.append(buf, got);
  } catch (const std::bad_alloc&) {
    return Status::Error(path + ": out of memory while reading the file", StatusCode::kOutOfMemory);
  } catch (const std::length_error&) {
    return Status::Error(path + ": out of memory while reading the file", StatusCode::kOutOfMemory);
  }
  if (std::ferror(f.get())) return Status::Error(path + ": read error: " + std::strerror(errno), StatusCode::kIo);
  return load_problem_from_buffer(std::move(bytes), path, out);
}

}  // namespace iopddl
