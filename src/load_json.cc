// The loader: bytes in pieces (gzip inflated as they come) through the push
// parser into a Handler that fills the Problem's flat arrays. Numbers arrive as
// text, so floats and integers beyond int64 are rejected with the exact field and
// index instead of silently rounded.
#include "load_json.h"

#include <zlib.h>

#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>

#include "json_push_parser.h"
#include "search_form.h"

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
      uint64_t eight;
      if (!eight_digits(s + i, &eight)) {
        *why = "expected an integer, got a number with a fraction or exponent";
        return false;
      }
      v = v * 100000000ULL + eight;
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

// A column of integers as it is parsed (node costs, node usages, edge costs),
// in blocks. Growing one array by doubling would hold old and new at once and,
// in WebAssembly (whose memory never shrinks), leave every old one behind as a
// hole, about three times the array's size in module memory at the end. Node
// columns are moved at the end into arrays of the exact size, block by block.
// Edge costs keep their blocks (the Problem's EdgeCostBlocks): each row (one
// edge's matrix) stays whole in one block, moving to a new block, as far as it
// got, when it outgrows the old one. When the array's room was reserved (a
// file of known size, natively, where untouched room costs nothing), numbers
// go straight into it.
class Column {
 public:
  explicit Column(std::vector<int64_t>* out) : out_(out) {}
  void write_directly() { direct_ = true; }
  bool direct() const { return direct_; }
  void push_back(int64_t v) {
    if (direct_) {
      out_->push_back(v);
      return;
    }
    if (fill_ == cap_) grow();
    cur_[fill_++] = v;
    ++n_;
  }
  uint64_t size() const { return direct_ ? out_->size() : n_; }

  // Rows kept whole (edge matrices): begin_row() before a row's first number,
  // end_row() after its last gives where the row is (blocks only).
  void keep_rows_whole() { rows_whole_ = true; }
  void begin_row() { row_start_ = fill_; }
  const int64_t* end_row() const { return cur_ ? cur_ + row_start_ : nullptr; }

  // Moves the blocks into the array (freeing each once copied).
  void flush() {
    if (direct_ || blocks_.empty()) return;
    used_.back() = fill_;
    out_->clear();
    out_->reserve(size_t(n_));
    for (size_t b = 0; b < blocks_.size(); ++b) {
      out_->insert(out_->end(), blocks_[b].get(), blocks_[b].get() + used_[b]);
      blocks_[b].reset();
    }
    clear();
  }
  // Hands the blocks over (rows kept whole), with `n_` entries in all.
  void take_blocks(EdgeCostBlocks* to) {
    to->blocks = std::move(blocks_);
    to->entries = n_;
    clear();
  }

 private:
  std::vector<int64_t>* out_;
  bool direct_ = false, rows_whole_ = false;
  std::vector<std::unique_ptr<int64_t[]>> blocks_;
  std::vector<size_t> used_;  // entries in each block (the last one's: fill_)
  int64_t* cur_ = nullptr;
  size_t fill_ = 0, cap_ = 0, row_start_ = 0;
  uint64_t n_ = 0;

  void grow() {
    // Small blocks first (small problems stay small), 8 MB at most, unless a
    // row kept whole needs more.
    const size_t partial = rows_whole_ ? fill_ - row_start_ : 0;
    size_t size = cap_ == 0 ? size_t(4096) : std::min(cap_ * 2, size_t(1) << 20);
    if (partial > size / 2) size = 2 * partial;
    std::unique_ptr<int64_t[]> block(new int64_t[size]);
    if (partial > 0) std::memcpy(block.get(), cur_ + row_start_, partial * sizeof(int64_t));
    if (!used_.empty()) used_.back() = fill_ - partial;
    if (!used_.empty() && used_.back() == 0) {  // the row filled it alone: nothing left in it
      blocks_.pop_back();
      used_.pop_back();
    }
    blocks_.push_back(std::move(block));
    used_.push_back(0);
    cur_ = blocks_.back().get();
    cap_ = size;
    fill_ = partial;
    row_start_ = 0;
  }
  void clear() {
    blocks_.clear();
    used_.clear();
    cur_ = nullptr;
    fill_ = cap_ = row_start_ = 0;
  }
};

struct Frame {
  Field field;
  int depth_kind;  // 0 object, 1 outer list, 2 row
  uint64_t index;  // element index within a list / row
};

class Handler {
 public:
  explicit Handler(Problem* p)
      : p_(p), node_cost(&p->node_cost), node_usage(&p->node_usage), edge_cost(&p->edge_cost) {
    edge_cost.keep_rows_whole();
  }

  std::string error;
  Problem* p_;
  Column node_cost, node_usage, edge_cost;
  std::vector<const int64_t*> edge_rows;  // where each edge's matrix is (edge_cost's blocks)
  EdgeCostSummary edge_summary;           // each edge's matrix, summed up as it ends
  std::vector<uint64_t> usage_offset{0};
  bool seen[12] = {};

  bool Null() { return scalar("null"); }
  bool Bool(bool) { return scalar("a boolean"); }

  // Where the numbers of the current row go when nothing but their sign needs
  // checking (node costs and usages, edge costs: most of a file's bytes), for
  // the parser's fast path; nullptr elsewhere. The parser reports how many it
  // appended with row_appended().
  Column* plain_row() {
    if (skip_ || stack_.empty()) return nullptr;
    const Frame& row = stack_.back();
    if (row.depth_kind != 2) return nullptr;
    switch (row.field) {
      case Field::kNodeCosts: return &node_cost;
      case Field::kNodeUsages: return &node_usage;
      case Field::kEdgeCosts: return &edge_cost;
      default: return nullptr;
    }
  }
  void row_appended(uint64_t count) { stack_.back().index += count; }

  bool RawNumber(const char* s, size_t len) {
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
        node_cost.push_back(v);
        break;
      case Field::kNodeUsages:
        if (v < 0) return fail("usages must be non-negative, got " + std::to_string(v));
        node_usage.push_back(v);
        break;
      case Field::kEdgeCosts:
        if (v < 0) return fail("costs must be non-negative, got " + std::to_string(v));
        edge_cost.push_back(v);
        break;
      default:
        return fail("unexpected number");
    }
    row.index++;
    return true;
  }

  bool String(const char* s, size_t len) {
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

  bool Key(const char* s, size_t len) {
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

  bool EndObject() {
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
      if (stack_.back().field == Field::kEdgeCosts) edge_cost.begin_row();
      return true;
    }
    if (!is_list_field(slot)) return fail("expected " + expected(slot) + ", got an array");
    stack_.push_back({slot, 1, 0});
    return true;
  }

  bool EndArray() {
    if (skip_) { --skip_; if (skip_ == 0) done_value(); return true; }
    Frame fr = stack_.back();
    if (fr.depth_kind == 2) {
      if (is_pair_field(fr.field) && fr.index != 2) {
        const std::string got = ", got " + std::to_string(fr.index) + (fr.index == 1 ? " value" : " values");
        return fail_row(fr.field == Field::kIntervals ? "an interval must be a pair [lo, hi]" + got
                                                      : "an edge must be a pair of node indices [u, v]" + got);
      }
      switch (fr.field) {
        case Field::kNodeCosts: p_->strategy_offset.push_back(node_cost.size()); break;
        case Field::kNodeUsages: usage_offset.push_back(node_usage.size()); break;
        case Field::kEdgeCosts: {
          const uint64_t start = p_->edge_cost_offset.back();
          p_->edge_cost_offset.push_back(edge_cost.size());
          const int64_t* row = edge_cost.direct() ? p_->edge_cost.data() + start : edge_cost.end_row();
          if (!edge_cost.direct()) edge_rows.push_back(row);
          edge_summary.add_row(row, edge_cost.size() - start);
          break;
        }
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

namespace {

bool gzip_magic(const char* d, size_t n) {
  return n >= 2 && (unsigned char)d[0] == kGzipMagic[0] && (unsigned char)d[1] == kGzipMagic[1];
}

// Reads `f` in blocks of `block` bytes, handing each to `on_block`, until the
// end, a read error, or on_block's first error.
template <class OnBlock>
Status read_blocks(FILE* f, size_t block, const std::string& path, OnBlock&& on_block) {
  std::unique_ptr<char[]> buf(new char[block]);
  size_t got;
  while ((got = std::fread(buf.get(), 1, block, f)) > 0) {
    Status st = on_block(buf.get(), got);
    if (!st) return st;
  }
  if (std::ferror(f)) return Status::Error(path + ": read error: " + std::strerror(errno), StatusCode::kIo);
  return Status::Ok();
}

}  // namespace

bool is_gzip(const std::string& b) { return gzip_magic(b.data(), b.size()); }

namespace {

// Counts and per-node lengths (which need the raw usage offsets), then the
// shared checks and the time axis.
Status check_and_finalize(Handler& h, Problem* out) {
  h.node_cost.flush();
  h.node_usage.flush();
  if (!h.edge_cost.direct() && !h.edge_rows.empty()) {
    auto blocks = std::make_shared<EdgeCostBlocks>();
    h.edge_cost.take_blocks(blocks.get());
    blocks->matrix = std::move(h.edge_rows);
    out->edge_blocks = std::move(blocks);
  }
  static const Field required[] = {Field::kProblem, Field::kNodes, Field::kIntervals,
                                   Field::kNodeCosts, Field::kNodeUsages, Field::kEdges,
                                   Field::kEdgeNodes, Field::kEdgeCosts};
  for (Field f : required)
    if (!h.seen[int(f)]) return Status::Error(std::string("missing field ") + field_path(f));
  size_t n_int = out->interval_lo.size(), n_cost = out->strategy_offset.size() - 1,
         n_use = h.usage_offset.size() - 1;
  if (n_int != n_cost || n_int != n_use)
    return Status::Error("node count mismatch: problem.nodes.intervals has " + std::to_string(n_int) +
                         " entries, problem.nodes.costs " + std::to_string(n_cost) + ", problem.nodes.usages " +
                         std::to_string(n_use));
  for (size_t i = 0; i < n_cost; ++i) {
    uint64_t kc = out->strategy_offset[i + 1] - out->strategy_offset[i];
    uint64_t ku = h.usage_offset[i + 1] - h.usage_offset[i];
    if (kc == 0)
      return Status::Error("problem.nodes.costs[" + std::to_string(i) + "]: a node needs at least one strategy");
    if (kc != ku)
      return Status::Error("strategy count mismatch at node " + std::to_string(i) + ": problem.nodes.costs[" +
                           std::to_string(i) + "] has " + std::to_string(kc) + " entries, problem.nodes.usages[" +
                           std::to_string(i) + "] has " + std::to_string(ku));
  }
  const Status st = finalize_problem(out);
  if (st.ok)
    store_edges_for_search(out, h.edge_summary.edge_max.size() == size_t(out->num_edges()) ? &h.edge_summary : nullptr);
  return st;
}

}  // namespace

// gzip inflated piece by piece (every member of a multi-member file), each
// inflated block handed to a sink as it comes. Errors name what is wrong with
// the gzip data, prefixed by `source`.
class Inflater {
 public:
  static constexpr size_t kBlock = 1 << 20;
  explicit Inflater(const std::string& source) : source_(source) {}
  ~Inflater() {
    if (open_) inflateEnd(&zs_);
  }
  Status init() {
    if (inflateInit2(&zs_, 15 + 32) != Z_OK) return Status::Error(source_ + ": gzip: cannot initialise zlib");
    open_ = true;
    out_.reset(new char[kBlock]);
    return Status::Ok();
  }
  // Stops at the sink's first error (and returns it).
  template <class Sink>
  Status piece(const char* d, size_t n, Sink&& sink) {
    zs_.next_in = (Bytef*)d;
    zs_.avail_in = uInt(n);
    while (zs_.avail_in > 0) {
      if (member_done_) {
        // Another member follows (concatenated gzip files are valid gzip).
        if (inflateReset(&zs_) != Z_OK) return Status::Error(source_ + ": gzip: cannot reset zlib");
        member_done_ = false;
      }
      zs_.next_out = (Bytef*)out_.get();
      zs_.avail_out = uInt(kBlock);
      const int rc = inflate(&zs_, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return Status::Error(source_ + ": gzip data is corrupt: " + (zs_.msg ? zs_.msg : "inflate failed"));
      const size_t produced = kBlock - zs_.avail_out;
      if (produced > 0) {
        Status st = sink(out_.get(), produced);
        if (!st) return st;
      }
      if (rc == Z_STREAM_END) member_done_ = true;
      else if (rc == Z_BUF_ERROR && produced == 0) break;  // needs more input
    }
    return Status::Ok();
  }
  // The input has ended: its last member must be complete.
  Status finish() const {
    return member_done_ ? Status::Ok() : Status::Error(source_ + ": gzip data is truncated");
  }

 private:
  std::string source_;
  z_stream zs_{};
  bool open_ = false, member_done_ = false;
  std::unique_ptr<char[]> out_;
};

struct ProblemLoader::Impl {
  explicit Impl(std::string src) : source(std::move(src)), handler(&problem), parser(&handler) {}

  std::string source;
  Problem problem;
  Handler handler;
  JsonPushParser<Handler> parser;
  Status status;            // the first error; sticky
  bool format_known = false, gz = false;
  bool inflated_by_caller = false;  // gz, and what is pushed is the decompressed JSON
  std::string head;         // the first byte, until the format is known
  uint64_t bytes_in = 0;
  std::unique_ptr<Inflater> inflater;  // gzip input

  std::string of_what() const { return gz ? " of the decompressed JSON" : ""; }

  Status fail(Status st) {
    if (status.ok) status = std::move(st);
    return status;
  }

  // A parser failure as a message: the handler's, the empty document, or a syntax error.
  Status parse_error() {
    const JsonSyntaxError& e = parser.error();
    if (parser.failed_in_handler())
      return fail(Status::Error(source + ": " + handler.error + " (byte " + std::to_string(e.offset) + of_what() + ")"));
    if (parser.empty_document()) return fail(Status::Error(source + ": the input is empty (no JSON document)"));
    return fail(Status::Error(source + ": JSON syntax error at byte " + std::to_string(e.offset) + of_what() + " (" +
                              handler.context() + "): " + e.what));
  }

  Status feed_json(const char* d, size_t n) {
    if (!parser.push(d, n)) return parse_error();
    return Status::Ok();
  }

  Status inflate_piece(const char* d, size_t n) {
    Status st = inflater->piece(d, n, [this](const char* out, size_t len) { return feed_json(out, len); });
    return st ? st : fail(st);
  }

  Status start(const char* d, size_t n) {
    // The format is told by the first two bytes (gzip's magic number).
    format_known = true;
    gz = gzip_magic(d, n);
    if (gz) {
      inflater.reset(new Inflater(source));
      Status st = inflater->init();
      if (!st) return fail(st);
    }
    return Status::Ok();
  }

  Status push(const char* d, size_t n) {
    if (!status.ok) return status;
    bytes_in += n;
    if (!format_known) {
      if (head.size() + n < 2) {
        head.append(d, n);
        return Status::Ok();
      }
      if (!head.empty()) {
        // The first byte came alone: join it with the next one to decide.
        std::string first = head + std::string(d, 1);
        Status st = start(first.data(), first.size());
        if (!st) return st;
        st = inflater ? inflate_piece(head.data(), head.size()) : feed_json(head.data(), head.size());
        if (!st) return st;
        head.clear();
      } else {
        Status st = start(d, n);
        if (!st) return st;
      }
    }
    return inflater ? inflate_piece(d, n) : feed_json(d, n);
  }

  Status finish(Problem* out) {
    if (!status.ok) return status;
    if (!format_known) {
      // Fewer than two bytes in all: plain JSON.
      Status st = start(head.data(), head.size());
      if (st) st = feed_json(head.data(), head.size());
      if (!st) return st;
    }
    if (inflater) {  // (a pipelined file checked its own; a caller inflating, too)
      Status st = inflater->finish();
      if (!st) return fail(st);
    }
    if (!parser.finish()) return parse_error();
    Status st = check_and_finalize(handler, &problem);
    if (!st) return fail(Status::Error(source + ": " + st.message, st.code));
    *out = std::move(problem);
    problem = Problem();
    return Status::Ok();
  }
};

ProblemLoader::ProblemLoader(std::string source) : impl_(new Impl(std::move(source))) {}
ProblemLoader::~ProblemLoader() = default;

// Memory runs out on inputs too large for the machine: the allocation failure
// becomes a message (a WebAssembly build without exception support aborts
// instead, as it would anyway).
Status ProblemLoader::out_of_memory() {
  const char* what = !impl_->gz ? "input" : impl_->inflated_by_caller ? "decompressed JSON" : "gzip input";
  const uint64_t in = impl_->bytes_in;
  const std::string source = impl_->source;
  impl_->problem = Problem();
  impl_->status = Status::Error(source + ": out of memory while loading the problem (after " + std::to_string(in) +
                                    " bytes of " + what + ")",
                                StatusCode::kOutOfMemory);
  return impl_->status;
}

Status ProblemLoader::push(const char* data, size_t n) {
  try {
    return impl_->push(data, n);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  return out_of_memory();
}

Status ProblemLoader::finish(Problem* out) {
  try {
    Status st = impl_->finish(out);
    if (!st) *out = Problem();
    return st;
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  *out = Problem();
  return out_of_memory();
}

void ProblemLoader::expect_json_bytes(uint64_t json_bytes) {
  // Each entry takes at least two bytes ("0,").
  try {
    impl_->problem.edge_cost.reserve(size_t(json_bytes / 2));
    impl_->handler.edge_cost.write_directly();
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
}

uint64_t ProblemLoader::bytes_in() const { return impl_->bytes_in; }

void ProblemLoader::input_inflated_by_caller() {
  Impl& im = *impl_;
  if (im.bytes_in > 0) return;
  im.format_known = true;
  im.gz = true;
  im.inflated_by_caller = true;
}

#ifndef __EMSCRIPTEN__
// Inflating takes about as long as parsing: a second thread reads and inflates
// while this one parses, a few blocks apart (8 MB at most in between). Errors
// come in the order a single thread would meet them: the blocks inflated
// before a gzip error are parsed first.
Status ProblemLoader::load_gzip_file(FILE* f, Problem* out) {
  Impl& im = *impl_;
  im.format_known = true;
  im.gz = true;
  struct {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::vector<char>> blocks;
    Status error;
    bool done = false, stop = false;
  } q;
  constexpr size_t kQueued = 8;
  std::atomic<uint64_t> read_bytes{0};
  bool out_of_memory_inflating = false, out_of_memory_parsing = false;
  std::thread inflating([&] {
    Status st;
    try {
      Inflater inf(im.source);
      st = inf.init();
      const auto sink = [&q](const char* d, size_t n) {
        std::unique_lock<std::mutex> lock(q.mu);
        q.cv.wait(lock, [&q] { return q.blocks.size() < kQueued || q.stop; });
        if (q.stop) return Status::Error("stopped");
        q.blocks.emplace_back(d, d + n);
        q.cv.notify_all();
        return Status::Ok();
      };
      if (st) {
        st = read_blocks(f, Inflater::kBlock, im.source, [&](const char* d, size_t n) {
          read_bytes += n;
          return inf.piece(d, n, sink);
        });
      }
      if (st) st = inf.finish();
    } catch (const std::bad_alloc&) {
      out_of_memory_inflating = true;
    }
    std::lock_guard<std::mutex> lock(q.mu);
    q.error = st;
    q.done = true;
    q.cv.notify_all();
  });
  Status result;
  try {
    for (;;) {
      std::vector<char> block;
      {
        std::unique_lock<std::mutex> lock(q.mu);
        q.cv.wait(lock, [&q] { return !q.blocks.empty() || q.done; });
        if (q.blocks.empty()) break;
        block = std::move(q.blocks.front());
        q.blocks.pop_front();
        q.cv.notify_all();
      }
      im.bytes_in = read_bytes;
      result = im.feed_json(block.data(), block.size());
      if (!result) break;
    }
  } catch (const std::bad_alloc&) {
    out_of_memory_parsing = true;
  } catch (const std::length_error&) {
    out_of_memory_parsing = true;
  }
  {
    std::lock_guard<std::mutex> lock(q.mu);
    q.stop = true;
    q.cv.notify_all();
  }
  inflating.join();
  im.bytes_in = read_bytes;
  if (out_of_memory_parsing || (result.ok && out_of_memory_inflating)) {
    *out = Problem();
    return out_of_memory();
  }
  if (!result.ok || !q.error.ok) {
    *out = Problem();
    return result.ok ? im.fail(q.error) : result;
  }
  return finish(out);
}
#endif

Status load_problem_from_buffer(const std::string& bytes, const std::string& source, Problem* out) {
  ProblemLoader loader(source);
  Status st = loader.push(bytes.data(), bytes.size());
  if (!st) {
    *out = Problem();
    return st;
  }
  return loader.finish(out);
}

Status load_problem_file(const std::string& path, Problem* out) {
  *out = Problem();
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status::Error(path + ": cannot open file: " + std::strerror(errno), StatusCode::kIo);
  struct stat sb;
  const bool have_stat = fstat(fileno(f.get()), &sb) == 0;
  if (have_stat && S_ISDIR(sb.st_mode)) return Status::Error(path + ": cannot read: is a directory", StatusCode::kIo);
  // Read in blocks and parse as they come: the file is never held whole.
  ProblemLoader loader(path);
#ifndef __EMSCRIPTEN__
  if (have_stat && S_ISREG(sb.st_mode) && sb.st_size > 0) {
    char magic[2];
    const bool gz = gzip_magic(magic, std::fread(magic, 1, 2, f.get()));
    std::rewind(f.get());
    if (gz) return loader.load_gzip_file(f.get(), out);
    loader.expect_json_bytes(uint64_t(sb.st_size));
  }
#endif
  Status st = read_blocks(f.get(), 1 << 20, path, [&](const char* d, size_t n) { return loader.push(d, n); });
  return st ? loader.finish(out) : st;
}

}  // namespace iopddl
