// The JSON loader: every malformed input is rejected with one message naming the
// field, the index and what is wrong (and the byte offset for syntax errors);
// nothing crashes, recurses without bound or allocates per time unit.
#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <new>
#include <sstream>
#include <string>

#include "load_json.h"
#include "problem.h"
#include "test_data.h"

// ---------------------------------------------------------------------------
// Allocation cap: while an AllocationCap is alive, any single operator new
// larger than the cap throws std::bad_alloc (failing the test through gtest's
// exception handling) instead of allocating gigabytes. Replacing the global
// operator new is allowed in any one translation unit of the program.
namespace {
std::atomic<size_t> g_alloc_cap{0};  // 0: no cap
std::atomic<size_t> g_largest_alloc{0};

void* checked_alloc(size_t n) {
  size_t cap = g_alloc_cap.load(std::memory_order_relaxed);
  if (cap != 0) {
    size_t prev = g_largest_alloc.load(std::memory_order_relaxed);
    while (n > prev && !g_largest_alloc.compare_exchange_weak(prev, n)) {
    }
    if (n > cap) throw std::bad_alloc();
  }
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

class AllocationCap {
 public:
  explicit AllocationCap(size_t bytes) {
    g_largest_alloc = 0;
    g_alloc_cap = bytes;
  }
  ~AllocationCap() { g_alloc_cap = 0; }
  size_t largest() const { return g_largest_alloc; }
};
}  // namespace

void* operator new(size_t n) { return checked_alloc(n); }
void* operator new[](size_t n) { return checked_alloc(n); }
// The nothrow forms too (std::stable_sort's buffer uses them): left to the
// default, they would allocate through the sanitizer's operator new while the
// deletes below free with std::free, which ASan reports as a mismatch.
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  try {
    return checked_alloc(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace iopddl {
namespace {

const std::string kData = IOPDDL_TEST_DATA;
const std::string kSource = "in.json";

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

using test_support::gzip;

// The contest example, field by field, so that tests can break one part.
struct Doc {
  std::string intervals = "[[30,70],[40,70],[50,120],[110,140],[110,150]]";
  std::string costs = "[[15],[55,65],[25,45,35],[85,75],[95]]";
  std::string usages = "[[10],[25,25],[15,20,15],[10,10],[15]]";
  std::string edge_nodes = "[[0,1],[0,2],[1,3],[2,4],[3,4]]";
  std::string edge_costs = "[[30,40],[50,10,40],[90,10,20,80],[60,20,30],[70,60]]";
  std::string usage_limit = "50";  // empty: no usage_limit field
  std::string name = "\"example\"";
  // Edges first, as in the contest's real files.
  std::string str() const {
    std::string s = "{\"problem\":{\"name\":" + name + ",\"edges\":{\"costs\":" + edge_costs +
                    ",\"nodes\":" + edge_nodes + "},\"nodes\":{\"costs\":" + costs +
                    ",\"intervals\":" + intervals + ",\"usages\":" + usages + "}";
    if (!usage_limit.empty()) s += ",\"usage_limit\":" + usage_limit;
    return s + "}}";
  }
};

Status load(const std::string& bytes, Problem* p) { return load_problem_from_buffer(bytes, kSource, p); }

// Loading must fail with one line that starts with the source name and contains
// every one of `parts`.
::testing::AssertionResult Rejects(const std::string& bytes, std::initializer_list<std::string> parts) {
  Problem p;
  Status st = load(bytes, &p);
  if (st.ok) return ::testing::AssertionFailure() << "loaded, expected an error";
  if (st.message.rfind(kSource + ": ", 0) != 0)
    return ::testing::AssertionFailure() << "message does not start with the source: " << st.message;
  if (st.message.find('\n') != std::string::npos)
    return ::testing::AssertionFailure() << "message spans several lines: " << st.message;
  for (const std::string& part : parts)
    if (st.message.find(part) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks \"" << part << "\": " << st.message;
  return ::testing::AssertionSuccess() << st.message;
}
::testing::AssertionResult Rejects(const Doc& d, std::initializer_list<std::string> parts) {
  return Rejects(d.str(), parts);
}

void expect_is_example(const Problem& p) {
  EXPECT_EQ(p.name, "example");
  ASSERT_EQ(p.num_nodes(), 5);
  ASSERT_EQ(p.num_edges(), 5);
  EXPECT_TRUE(p.has_usage_limit);
  EXPECT_EQ(p.usage_limit, 50);
  EXPECT_EQ(p.total_strategies(), 9u);
  const int k[] = {1, 2, 3, 2, 1};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(p.num_strategies(i), k[i]) << "node " << i;
  EXPECT_EQ(p.cost(2, 1), 45);
  EXPECT_EQ(p.cost(3, 0), 85);
  EXPECT_EQ(p.usage(1, 0), 25);
  EXPECT_EQ(p.usage(2, 1), 20);
  EXPECT_EQ(p.interval_lo[2], 50);
  EXPECT_EQ(p.interval_hi[2], 120);
  EXPECT_EQ(p.edge_u[2], 1);
  EXPECT_EQ(p.edge_v[2], 3);
  // Edge 2 joins node 1 (2 strategies) and node 3 (2): row-major [su][sv].
  EXPECT_EQ(p.edge_entry(2, 0, 0), 90);
  EXPECT_EQ(p.edge_entry(2, 0, 1), 10);
  EXPECT_EQ(p.edge_entry(2, 1, 0), 20);
  EXPECT_EQ(p.edge_entry(2, 1, 1), 80);
  // Edge 1 joins node 0 (1 strategy) and node 2 (3).
  EXPECT_EQ(p.edge_entry(1, 0, 2), 40);
  // Edge 3 joins node 2 (3) and node 4 (1).
  EXPECT_EQ(p.edge_entry(3, 1, 0), 20);
  // Compressed time: the distinct endpoints.
  EXPECT_EQ(p.time_point, (std::vector<int64_t>{30, 40, 50, 70, 110, 120, 140, 150}));
  EXPECT_EQ(p.num_segments(), 7);
  EXPECT_EQ(p.seg_lo[0], 0);  // [30, 70) = segments 0..2
  EXPECT_EQ(p.seg_hi[0], 3);
  EXPECT_EQ(p.seg_lo[4], 4);  // [110, 150) = segments 4..6
  EXPECT_EQ(p.seg_hi[4], 7);
}

// --- Valid inputs -----------------------------------------------------------

TEST(Loader, LoadsTheExampleFile) {
  Problem p;
  Status st = load_problem_file(kData + "/example.json", &p);
  ASSERT_TRUE(st.ok) << st.message;
  expect_is_example(p);
}

TEST(Loader, EdgesBeforeNodesAsInTheRealFiles) {
  Problem p;
  Status st = load(Doc().str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  expect_is_example(p);
  // And with usage_limit and name first, nodes before edges.
  st = load("{\"problem\":{\"usage_limit\":50,\"name\":\"example\",\"nodes\":{\"usages\":" + Doc().usages +
                ",\"intervals\":" + Doc().intervals + ",\"costs\":" + Doc().costs + "},\"edges\":{\"nodes\":" +
                Doc().edge_nodes + ",\"costs\":" + Doc().edge_costs + "}}}",
            &p);
  ASSERT_TRUE(st.ok) << st.message;
  expect_is_example(p);
}

TEST(Loader, UsageLimitIsOptional) {
  Doc d;
  d.usage_limit = "";
  Problem p;
  Status st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_FALSE(p.has_usage_limit);
  EXPECT_EQ(p.limit_or_max(), INT64_MAX);
  d.usage_limit = "0";
  st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_TRUE(p.has_usage_limit);
  EXPECT_EQ(p.limit_or_max(), 0);
}

TEST(Loader, NameIsOptionalAndUnescaped) {
  Doc d;
  d.name = "\"a\\\"b\\u00e9\\n\"";
  Problem p;
  Status st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.name, "a\"b\xc3\xa9\n");
  st = load("{\"problem\":{\"nodes\":{\"intervals\":[[0,1]],\"costs\":[[1]],\"usages\":[[1]]},"
            "\"edges\":{\"nodes\":[],\"costs\":[]}}}",
            &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.name, "");
  EXPECT_EQ(p.num_nodes(), 1);
  EXPECT_EQ(p.num_edges(), 0);
}

TEST(Loader, IgnoresUnknownFields) {
  // Unknown fields at every level, holding values that would be errors in a
  // known field (floats, negatives, strings, keys named like known ones).
  const std::string s =
      "{\"meta\":{\"problem\":1,\"costs\":[1.5,-2]},\"version\":3,"
      "\"problem\":{\"comment\":\"x\",\"hint\":-1.5,\"extra\":null,\"flag\":true,"
      "\"edges\":{\"weights\":[[-1,{\"nodes\":[]}]],\"costs\":" + Doc().edge_costs +
      ",\"nodes\":" + Doc().edge_nodes + ",\"more\":{}},"
      "\"nodes\":{\"labels\":[\"a\",\"b\"],\"costs\":" + Doc().costs + ",\"intervals\":" + Doc().intervals +
      ",\"usages\":" + Doc().usages + ",\"deep\":[[[[{\"usages\":[[1.5]]}]]]]},"
      "\"name\":\"example\",\"usage_limit\":50,\"tail\":[]},\"after\":\"problem\"}";
  Problem p;
  Status st = load(s, &p);
  ASSERT_TRUE(st.ok) << st.message;
  expect_is_example(p);
}

TEST(Loader, AcceptsInt64Extremes) {
  Doc d;
  d.costs = "[[9223372036854775807],[55,65],[25,45,35],[85,75],[95]]";
  d.intervals = "[[-9223372036854775808,70],[40,70],[50,120],[110,140],[110,9223372036854775807]]";
  d.usage_limit = "9223372036854775807";
  Problem p;
  Status st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.cost(0, 0), INT64_MAX);
  EXPECT_EQ(p.interval_lo[0], INT64_MIN);
  EXPECT_EQ(p.interval_hi[4], INT64_MAX);
  EXPECT_EQ(p.usage_limit, INT64_MAX);
  EXPECT_EQ(p.time_point.front(), INT64_MIN);
  EXPECT_EQ(p.time_point.back(), INT64_MAX);
}

TEST(Loader, EmptyIntervalsCoverNoSegment) {
  Doc d;
  d.intervals = "[[30,70],[40,40],[50,120],[110,140],[110,150]]";
  Problem p;
  Status st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.seg_lo[1], p.seg_hi[1]);
  // 40 is no longer a time point: only non-empty intervals define the axis.
  EXPECT_EQ(p.time_point, (std::vector<int64_t>{30, 50, 70, 110, 120, 140, 150}));
}

TEST(Loader, HugeTimeHorizonIsCompressed) {
  Doc d;
  d.intervals =
      "[[0,1000000000000000],[500000000000000,1000000000000000],[1,2],"
      "[999999999999999,1000000000000000],[0,1000000000000000]]";
  Problem p;
  AllocationCap cap(1 << 20);  // per-time-unit storage would need petabytes
  Status st = load(d.str(), &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.time_point,
            (std::vector<int64_t>{0, 1, 2, 500000000000000, 999999999999999, 1000000000000000}));
  EXPECT_EQ(p.num_segments(), 5);
  EXPECT_EQ(p.seg_lo[1], 3);
  EXPECT_EQ(p.seg_hi[1], 5);
  EXPECT_LT(cap.largest(), size_t(1 << 20));
}

// --- In pieces ----------------------------------------------------------------

Status load_in_pieces(const std::string& bytes, size_t piece, Problem* p) {
  return test_support::load_in_pieces(bytes, piece, kSource, p);
}

// A document that exercises every token kind where a piece can end: escapes
// (a surrogate pair among them), unknown fields of every type, blanks, numbers
// with signs, fractions and exponents inside unknown fields, 19-digit entries.
std::string tricky_document() {
  Doc d;
  d.name = "\"ex\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/mple\"";
  d.edge_costs = "[[30, 40],[50,10 ,40],[90,1000000000000000000,20,80],[ 60,20,30 ],[70,9223372036854775807]]";
  std::string s = d.str();
  s.insert(1, "\"meta\" : {\"x\": [-1.5e+3, true, false, null, \"s\\t\", {\"y\": []}], \"z\": 0.25} ,\n ");
  return s;
}

TEST(Loader, AnySplitIntoPiecesGivesTheSameProblem) {
  const std::string json = tricky_document();
  Problem whole;
  Status st = load(json, &whole);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(whole.name, "ex\xc3\xa9\xf0\x9f\x98\x80\n\"\\/mple");
  EXPECT_EQ(edge_cost_array(whole)[6], 1000000000000000000LL);
  const std::string digest = problem_digest(whole);
  // Every split into two pieces, and pieces of 1, 2, 3, 7 and 64 bytes.
  for (size_t cut = 0; cut <= json.size(); ++cut) {
    ProblemLoader loader(kSource);
    ASSERT_TRUE(loader.push(json.data(), cut).ok) << cut;
    ASSERT_TRUE(loader.push(json.data() + cut, json.size() - cut).ok) << cut;
    Problem p;
    st = loader.finish(&p);
    ASSERT_TRUE(st.ok) << "cut at " << cut << ": " << st.message;
    ASSERT_EQ(problem_digest(p), digest) << "cut at " << cut;
  }
  for (size_t piece : {1, 2, 3, 7, 64}) {
    Problem p;
    st = load_in_pieces(json, piece, &p);
    ASSERT_TRUE(st.ok) << piece << ": " << st.message;
    EXPECT_EQ(problem_digest(p), digest) << piece;
    p = Problem();
    st = load_in_pieces(gzip(json, 3), piece, &p);
    ASSERT_TRUE(st.ok) << "gzip, " << piece << ": " << st.message;
    EXPECT_EQ(problem_digest(p), digest) << "gzip, " << piece;
  }
}

TEST(Loader, PiecesGiveTheSameErrorsAsTheWhole) {
  const std::string json = tricky_document();
  // Every truncation, and one wrong byte at every position, whole and byte by byte.
  const char kBytes[] = {'\0', ']', '}', ',', '"', '-', '.', 'e', '9', ' ', 'x', '\\', '\x80', '\xf0'};
  for (size_t i = 0; i < json.size(); ++i) {
    std::vector<std::string> inputs = {json.substr(0, i)};
    for (char c : kBytes) {
      inputs.push_back(json);
      inputs.back()[i] = c;
    }
    for (const std::string& in : inputs) {
      Problem a, b;
      const Status whole = load(in, &a), pieces = load_in_pieces(in, 1, &b);
      ASSERT_EQ(whole.ok, pieces.ok) << in;
      ASSERT_EQ(whole.message, pieces.message) << in;
      if (whole.ok) ASSERT_EQ(problem_digest(a), problem_digest(b)) << in;
    }
  }
}

TEST(Loader, ProblemDigestSeesEveryField) {
  Problem base;
  ASSERT_TRUE(load(Doc().str(), &base).ok);
  const std::string d = problem_digest(base);
  Doc x;
  x.name = "\"examplf\"";
  x.usage_limit = "51";
  for (const std::string& other : {x.str(), [] { Doc y; y.edge_costs = "[[30,40],[50,10,40],[90,10,20,80],[60,20,30],[70,61]]"; return y.str(); }(),
                                   [] { Doc y; y.usages = "[[10],[25,25],[15,20,15],[10,10],[16]]"; return y.str(); }(),
                                   [] { Doc y; y.usage_limit = ""; return y.str(); }()}) {
    Problem p;
    ASSERT_TRUE(load(other, &p).ok);
    EXPECT_NE(problem_digest(p), d) << other;
  }
  Problem again;
  ASSERT_TRUE(load(Doc().str(), &again).ok);
  EXPECT_EQ(problem_digest(again), d);
}

// A gzip file is inflated on a second thread while the first parses (queue of
// 1 MB blocks): the same problem, and the same errors in the same order, as
// inflating and parsing in turn.
TEST(Loader, GzipFileInflatedBesideTheParseGivesTheSameAnswers) {
  // About 12 MB of text: an unknown field of blanks and numbers, then the example.
  std::string json = Doc().str();
  std::string filler = "{\"filler\":[";
  for (int k = 0; k < 1500000; ++k) filler += "12345678,";
  filler += "0],";
  json = filler + json.substr(1);
  const std::string path = ::testing::TempDir() + "/iopddl_pipelined.json.gz";
  auto write = [&](const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; };
  const std::string gz = gzip(json, 3);
  write(gz);
  Problem a, b;
  Status st = load_problem_file(path, &a);
  ASSERT_TRUE(st.ok) << st.message;
  ASSERT_TRUE(load_problem_from_buffer(gz, path, &b).ok);
  EXPECT_EQ(problem_digest(a), problem_digest(b));
  expect_is_example(a);
  // Cut, corrupted near the end, a JSON error early with a gzip error later:
  // the messages are those of the one-thread loader.
  std::string early = json;
  early[100] = '@';
  std::string bad_crc = gz;
  bad_crc[bad_crc.size() - 8] ^= 1;
  for (const std::string& bytes : {gz.substr(0, gz.size() / 2), bad_crc, gzip(early).substr(0, gzip(early).size() - 9)}) {
    write(bytes);
    Problem x, y;
    const Status file = load_problem_file(path, &x), buffer = load_problem_from_buffer(bytes, path, &y);
    EXPECT_FALSE(file.ok);
    EXPECT_EQ(file.message, buffer.message);
  }
  std::remove(path.c_str());
}

// Edge matrices from the loader stay in its blocks, each whole in one block:
// matrices that cross a block's end (the 4096-entry first block), that are
// larger than the block they start in, and one larger than the largest block
// (2^20 entries). Every route (whole, in pieces, a plain file read into one
// reserved array, a gzip file) gives the same matrices and digest.
TEST(Loader, EdgeMatricesStayWholeAcrossBlocks) {
  const std::vector<int> k = {1, 3, 40, 70, 1030, 2, 55};
  const std::vector<std::pair<int, int>> edges = {{0, 1}, {1, 2}, {2, 2}, {2, 3}, {1, 3}, {3, 6}, {4, 4}, {5, 0}, {6, 2}, {0, 0}};
  std::vector<int64_t> want;
  std::string costs = "[", ends = "[";
  for (size_t e = 0; e < edges.size(); ++e) {
    const uint64_t len = uint64_t(k[edges[e].first]) * uint64_t(k[edges[e].second]);
    costs += e ? ",[" : "[";
    for (uint64_t j = 0; j < len; ++j) {
      want.push_back(int64_t((e * 7919 + j * 31) % 1000003));
      costs += (j ? "," : "") + std::to_string(want.back());
    }
    costs += "]";
    ends += (e ? ",[" : "[") + std::to_string(edges[e].first) + "," + std::to_string(edges[e].second) + "]";
  }
  costs += "]";
  ends += "]";
  std::string node_costs = "[", usages = "[", intervals = "[";
  for (size_t i = 0; i < k.size(); ++i) {
    node_costs += i ? ",[" : "[";
    usages += i ? ",[" : "[";
    for (int s = 0; s < k[i]; ++s) {
      node_costs += (s ? "," : "") + std::to_string(s % 7);
      usages += (s ? "," : "") + std::to_string(s % 5);
    }
    node_costs += "]";
    usages += "]";
    intervals += (i ? ",[" : "[") + std::to_string(i) + "," + std::to_string(i + 3) + "]";
  }
  node_costs += "]";
  usages += "]";
  intervals += "]";
  // The contest's order: edge costs first, before anything says how long a row is.
  const std::string json = "{\"problem\":{\"edges\":{\"costs\":" + costs + ",\"nodes\":" + ends +
                           "},\"name\":\"blocks\",\"nodes\":{\"costs\":" + node_costs + ",\"intervals\":" +
                           intervals + ",\"usages\":" + usages + "},\"usage_limit\":100}}";
  ASSERT_GT(want.size(), size_t(1) << 20);

  Problem whole;
  Status st = load(json, &whole);
  ASSERT_TRUE(st.ok) << st.message;
  ASSERT_TRUE(whole.edge_blocks != nullptr);  // kept in blocks
  EXPECT_TRUE(whole.edge_cost.empty());
  EXPECT_EQ(edge_cost_array(whole), want);
  for (int e = 0; e < whole.num_edges(); ++e)
    ASSERT_EQ(whole.edge_entry_at(e, 0), want[whole.edge_cost_offset[size_t(e)]]) << e;
  const std::string digest = problem_digest(whole);

  Problem pieces;
  ASSERT_TRUE(load_in_pieces(json, 4097, &pieces).ok);
  EXPECT_EQ(edge_cost_array(pieces), want);
  EXPECT_EQ(problem_digest(pieces), digest);

  const std::string path = ::testing::TempDir() + "/iopddl_blocks.json";
  std::ofstream(path, std::ios::binary) << json;
  Problem file;
  ASSERT_TRUE(load_problem_file(path, &file).ok);
  EXPECT_TRUE(file.edge_blocks == nullptr);  // read into the reserved array
  EXPECT_EQ(edge_cost_array(file), want);
  EXPECT_EQ(problem_digest(file), digest);
  std::ofstream(path + ".gz", std::ios::binary) << gzip(json);
  Problem gz;
  ASSERT_TRUE(load_problem_file(path + ".gz", &gz).ok);
  EXPECT_EQ(edge_cost_array(gz), want);
  EXPECT_EQ(problem_digest(gz), digest);
  // A copy shares the blocks and outlives the original.
  Problem copy = whole;
  whole = Problem();
  EXPECT_EQ(edge_cost_array(copy), want);
  std::remove(path.c_str());
  std::remove((path + ".gz").c_str());
}

TEST(Loader, LoadsGzipFromAString) {
  const std::string json = Doc().str();
  for (int members : {1, 3}) {
    Problem p;
    std::string gz = gzip(json, members);
    ASSERT_TRUE(is_gzip(gz));
    Status st = load(gz, &p);
    ASSERT_TRUE(st.ok) << members << " members: " << st.message;
    expect_is_example(p);
  }
  EXPECT_FALSE(is_gzip(json));
}

TEST(Loader, LoadsTheGzippedGInstance) {
  Problem p;
  Status st = load_problem_file(kData + "/asplos-2025-iopddl-G.json.gz", &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.name, "asplos-2025-iopddl-G");
  EXPECT_EQ(p.num_nodes(), 816);
  EXPECT_EQ(p.num_edges(), 1023);
  EXPECT_TRUE(p.has_usage_limit);
  EXPECT_EQ(p.usage_limit, 14392528);
  EXPECT_GT(p.num_segments(), 0);
  uint64_t entries = 0;
  for (int e = 0; e < p.num_edges(); ++e)
    entries += uint64_t(p.num_strategies(p.edge_u[e])) * uint64_t(p.num_strategies(p.edge_v[e]));
  EXPECT_EQ(entries, p.edge_entries());
}

// --- Syntax -----------------------------------------------------------------

TEST(Loader, RejectsEmptyInput) {
  EXPECT_TRUE(Rejects("", {"empty"}));
  EXPECT_TRUE(Rejects(" \n\t\r\n", {"empty"}));
}

TEST(Loader, SyntaxErrorsGiveTheByteOffset) {
  // '5' where the colon belongs, at byte 11.
  EXPECT_TRUE(Rejects("{\"problem\" 5}", {"JSON syntax error at byte 11", "in problem", "colon"}));
  // Trailing comma: the '}' at byte 22 is not a key.
  EXPECT_TRUE(Rejects("{\"problem\":{\"name\":\"\",}}", {"JSON syntax error at byte 22", "name"}));
  // Missing comma inside a row: after "15" comes "16" at byte 58 of the document.
  Doc d;
  d.costs = "[[15 16],[55,65],[25,45,35],[85,75],[95]]";
  const std::string s = d.str();
  const size_t at = s.find("15 16") + 3;
  EXPECT_TRUE(Rejects(s, {"JSON syntax error at byte " + std::to_string(at), "problem.nodes.costs[0][1]"}));
  EXPECT_TRUE(Rejects("{'problem':1}", {"JSON syntax error at byte 1"}));
  EXPECT_TRUE(Rejects("{problem:1}", {"JSON syntax error at byte 1"}));
  EXPECT_TRUE(Rejects("{\"problem\":{}}// comment", {"JSON syntax error at byte 14"}));
  EXPECT_TRUE(Rejects("{\"x\":[01]}", {"JSON syntax error at byte 7"}));
  EXPECT_TRUE(Rejects("{\"problem\":\"\\x\"}", {"JSON syntax error", "escape"}));
}

TEST(Loader, SyntaxErrorInAnUnknownFieldNamesIt) {
  EXPECT_TRUE(Rejects("{\"problem\":{\"meta\":[1,,2]}}", {"JSON syntax error at byte 22", "problem.meta"}));
}

TEST(Loader, RejectsEveryTruncation) {
  const std::string json = Doc().str();
  for (size_t len = 0; len < json.size(); ++len) {
    Problem p;
    Status st = load(json.substr(0, len), &p);
    ASSERT_FALSE(st.ok) << "prefix of " << len << " bytes loaded";
    if (len == 0) {
      EXPECT_NE(st.message.find("empty"), std::string::npos) << st.message;
    } else {
      EXPECT_NE(st.message.find("JSON syntax error at byte " + std::to_string(len)), std::string::npos)
          << st.message;
    }
  }
}

TEST(Loader, RejectsTrailingGarbage) {
  const std::string json = Doc().str();
  Problem p;
  EXPECT_TRUE(load(json + " \n\t", &p).ok);  // trailing blanks are fine
  const std::string at = "JSON syntax error at byte " + std::to_string(json.size() + 1);
  EXPECT_TRUE(Rejects(json + " x", {at, "after the top-level object"}));
  EXPECT_TRUE(Rejects(json + " {}", {at, "after the top-level object"}));
  EXPECT_TRUE(Rejects(json + " 1", {at}));
}

TEST(Loader, RejectsNulBytes) {
  const std::string json = Doc().str();
  EXPECT_TRUE(Rejects(std::string(1, '\0') + json, {"byte 0", "NUL"}));
  EXPECT_TRUE(Rejects(json + std::string(1, '\0'), {"byte " + std::to_string(json.size()), "NUL"}));
  EXPECT_TRUE(Rejects(json + std::string("\0{}", 3), {"byte " + std::to_string(json.size()), "NUL"}));
  // Inside a string and right after a number.
  std::string s = json;
  s[s.find("example") + 2] = '\0';
  EXPECT_TRUE(Rejects(s, {"byte " + std::to_string(json.find("example") + 2), "NUL"}));
  s = json;
  size_t at = s.find("[95]") + 3;
  s[at] = '\0';
  EXPECT_TRUE(Rejects(s, {"byte " + std::to_string(at), "NUL", "problem.nodes.costs[4]"}));
}

// RFC 8259 wants JSON text in UTF-8; RapidJSON with kParseValidateEncodingFlag
// refuses anything else, and fuzz_json_diff found the push parser passing such
// bytes through (a key "\x90roblem"). Strings and keys must be UTF-8 as RFC 3629
// defines it, whole or in pieces.
TEST(Loader, RejectsStringsThatAreNotUtf8) {
  // Accepted: the first and last character of each length.
  for (const std::string good : {"\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
                                 "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
    Doc d;
    d.name = "\"a" + good + "b\"";
    for (size_t piece : {size_t(1), size_t(1) << 20}) {
      Problem p;
      const Status st = load_in_pieces(d.str(), piece, &p);
      ASSERT_TRUE(st.ok) << st.message;
      EXPECT_EQ(p.name, "a" + good + "b");
    }
  }
  // Refused, at the byte that breaks the character: a lone continuation byte,
  // overlong forms, encoded surrogates, beyond U+10FFFF, bytes never in UTF-8,
  // a character cut short by the closing quote; in a value and in a key.
  const std::pair<std::string, size_t> bad[] = {
      {"\x80", 0},         {"\xbf", 0},         {"\xc0\xaf", 0},         {"\xc1\xbf", 0},
      {"\xe0\x9f\xbf", 1}, {"\xed\xa0\x80", 1}, {"\xed\xbf\xbf", 1},     {"\xf0\x8f\xbf\xbf", 1},
      {"\xf4\x90\x80\x80", 1}, {"\xf5\x80\x80\x80", 0}, {"\xff", 0},   {"\xc3\x28", 1},
      {"\xe2\x82\x28", 2}, {"\xe2\x82", 2},     {"\xf0\x9f\x98", 3}};
  for (const auto& [bytes, at] : bad) {
    Doc d;
    d.name = "\"ab" + bytes + "\"";
    const std::string json = d.str();
    const std::string where = "JSON syntax error at byte " + std::to_string(json.find("ab") + 2 + at);
    EXPECT_TRUE(Rejects(json, {where, "invalid UTF-8 in a string"})) << testing::PrintToString(bytes);
    Problem p;
    const Status st = load_in_pieces(json, 1, &p);
    EXPECT_FALSE(st.ok);
    EXPECT_NE(st.message.find(where), std::string::npos) << st.message;
    const std::string key = "{\"problem\":{\"x" + bytes + "\":1}}";
    EXPECT_TRUE(Rejects(key, {"JSON syntax error at byte " + std::to_string(14 + at), "invalid UTF-8"}))
        << testing::PrintToString(bytes);
  }
  EXPECT_TRUE(Rejects("{\"\x90roblem\":{\"nod]s\":[]}}", {"JSON syntax error at byte 2", "invalid UTF-8"}));
}

TEST(Loader, DeepNestingDoesNotOverflowTheStack) {
  const size_t kDepth = 1000000;
  const std::string open(kDepth, '['), close(kDepth, ']');
  // At the top level: rejected at the first '['.
  EXPECT_TRUE(Rejects(open, {"expected an object, got an array"}));
  // In a known field: rejected at the first level too deep.
  Doc d;
  d.costs = open;
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[0][0]", "expected an integer, got an array"}));
  // In an unknown field the parser has to go all the way down: unclosed, it is
  // a syntax error at the very end ...
  const std::string json = Doc().str();
  const std::string prefix = "{\"x\":";
  EXPECT_TRUE(Rejects(prefix + open, {"JSON syntax error at byte " + std::to_string(prefix.size() + kDepth)}));
  // ... and closed, it is ignored like any unknown field.
  Problem p;
  Status st = load(prefix + open + close + "," + json.substr(1), &p);
  ASSERT_TRUE(st.ok) << st.message;
  expect_is_example(p);
  std::string objects;
  for (size_t i = 0; i < kDepth / 10; ++i) objects += "{\"a\":";
  objects += "1";
  objects += std::string(kDepth / 10, '}');
  st = load(prefix + objects + "," + json.substr(1), &p);
  ASSERT_TRUE(st.ok) << st.message;
}

// Every single-byte corruption of a valid document either loads or gives one
// clear line; none crashes.
TEST(Loader, SurvivesEverySingleByteCorruption) {
  const std::string json = Doc().str();
  const char kBytes[] = {'\0', '[', ']', '{', '}', ',', ':', '"', '-', '.', 'e', '9', '0', ' ', 'x', '\\', '\xff'};
  int rejected = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    for (char c : kBytes) {
      std::string s = json;
      s[i] = c;
      Problem p;
      Status st = load(s, &p);
      if (st.ok) continue;
      ++rejected;
      ASSERT_EQ(st.message.rfind(kSource + ": ", 0), 0u) << st.message;
      ASSERT_EQ(st.message.find('\n'), std::string::npos) << st.message;
      ASSERT_GT(st.message.size(), kSource.size() + 10) << st.message;
    }
  }
  EXPECT_GT(rejected, int(json.size()));
}

// --- gzip -------------------------------------------------------------------

TEST(Loader, RejectsCorruptGzip) {
  std::string gz = gzip(Doc().str());
  // An unknown compression method in the header (byte 2 must be 8, deflate).
  std::string bad = gz;
  bad[2] = 7;
  EXPECT_TRUE(Rejects(bad, {"gzip data is corrupt"}));
  // A wrong CRC.
  bad = gz;
  bad[bad.size() - 8] ^= 0x01;
  EXPECT_TRUE(Rejects(bad, {"gzip data is corrupt"}));
  // Only the magic number and garbage.
  EXPECT_TRUE(Rejects(std::string("\x1f\x8b", 2) + "garbage that is no deflate stream", {"gzip", "corrupt"}));
  // A gzip member followed by garbage.
  EXPECT_TRUE(Rejects(gz + "trailing", {"gzip"}));
}

TEST(Loader, RejectsTruncatedGzip) {
  std::string gz = gzip(Doc().str());
  EXPECT_TRUE(Rejects(std::string("\x1f\x8b", 2), {"gzip data is truncated"}));
  for (size_t len = 2; len < gz.size(); ++len) {
    Problem p;
    Status st = load(gz.substr(0, len), &p);
    ASSERT_FALSE(st.ok) << "gzip prefix of " << len << " bytes loaded";
    EXPECT_EQ(st.message.rfind(kSource + ": gzip data is ", 0), 0u) << st.message;
  }
}

TEST(Loader, CorruptGzipSizeTrailerDoesNotAllocateGigabytes) {
  // The trailer's size field claims 4 GB: it must not be trusted for a buffer.
  std::string gz = gzip(Doc().str());
  for (int k = 1; k <= 4; ++k) gz[gz.size() - k] = '\xff';
  AllocationCap cap(64 << 20);
  EXPECT_TRUE(Rejects(gz, {"gzip data is corrupt"}));
}

TEST(Loader, SyntaxErrorOffsetsInGzipRefertoTheDecompressedText) {
  EXPECT_TRUE(Rejects(gzip("{\"problem\" 5}"), {"byte 11 of the decompressed JSON"}));
}

// A caller with its own zlib (the npm package in Node) pushes gzip already
// inflated: the loader parses it as JSON, never inflates it a second time, and
// words its messages as for gzip inflated here.
TEST(Loader, GzipInflatedByTheCallerIsParsedAsTheDecompressedJson) {
  auto load_inflated = [](const std::string& text, Problem* p) {
    ProblemLoader loader(kSource);
    loader.input_inflated_by_caller();
    for (size_t at = 0; at < text.size(); at += 5) {
      Status st = loader.push(text.data() + at, std::min<size_t>(5, text.size() - at));
      if (!st) return st;
    }
    return loader.finish(p);
  };
  const std::string json = tricky_document();
  Problem want, got;
  ASSERT_TRUE(load(json, &want).ok);
  Status st = load_inflated(json, &got);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(problem_digest(got), problem_digest(want));
  // The same messages as for the gzip inflated here.
  for (const std::string bad : {std::string("{\"problem\" 5}"), json.substr(0, json.size() / 2), gzip(json)}) {
    Problem a, b;
    const Status here = load(gzip(bad), &a), there = load_inflated(bad, &b);
    ASSERT_FALSE(here.ok) << bad;
    EXPECT_EQ(there.message, here.message) << bad;
  }
  EXPECT_NE(load_inflated("{\"problem\" 5}", &got).message.find("byte 11 of the decompressed JSON"), std::string::npos);
}

// --- Types and numbers ------------------------------------------------------

TEST(Loader, RejectsWrongTypes) {
  EXPECT_TRUE(Rejects("[]", {"(top level)", "expected an object, got an array"}));
  EXPECT_TRUE(Rejects("5", {"expected an object, got a number"}));
  EXPECT_TRUE(Rejects("{\"problem\":[]}", {"problem: expected an object, got an array"}));
  EXPECT_TRUE(Rejects("{\"problem\":null}", {"problem: expected an object, got null"}));
  EXPECT_TRUE(Rejects("{\"problem\":{\"nodes\":[]}}", {"problem.nodes: expected an object, got an array"}));
  EXPECT_TRUE(Rejects("{\"problem\":{\"edges\":\"e\"}}", {"problem.edges: expected an object, got a string"}));
  Doc d;
  d.name = "5";
  EXPECT_TRUE(Rejects(d, {"problem.name: expected a string, got a number"}));
  d = Doc();
  d.intervals = "5";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals: expected an array, got a number"}));
  d = Doc();
  d.costs = "[[15],5,[25,45,35],[85,75],[95]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[1]: expected an array, got a number"}));
  d = Doc();
  d.usages = "[[10],[\"25\",25],[15,20,15],[10,10],[15]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.usages[1][0]: expected an integer, got a string"}));
  d = Doc();
  d.costs = "[[15],[55,65],[25,[45],35],[85,75],[95]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[2][1]: expected an integer, got an array"}));
  d = Doc();
  d.edge_costs = "{}";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs: expected an array, got an object"}));
  d = Doc();
  d.edge_costs = "[[30,40],[50,10,40],{},[60,20,30],[70,60]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs[2]: expected an array, got an object"}));
  d = Doc();
  d.edge_nodes = "[[0,true],[0,2],[1,3],[2,4],[3,4]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[0][1]: expected an integer, got a boolean"}));
  d = Doc();
  d.edge_nodes = "[[0,1],[0,2],[1,3],[2,4],[3,null]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[4][1]: expected an integer, got null"}));
  d = Doc();
  d.usage_limit = "\"50\"";
  EXPECT_TRUE(Rejects(d, {"problem.usage_limit: expected an integer, got a string"}));
  d.usage_limit = "[50]";
  EXPECT_TRUE(Rejects(d, {"problem.usage_limit: expected an integer, got an array"}));
}

TEST(Loader, RejectsFloatsWhereIntegersBelong) {
  struct Case {
    std::string Doc::*field;
    std::string value;
    std::string path;
  };
  const Case cases[] = {
      {&Doc::costs, "[[15],[55,65.0],[25,45,35],[85,75],[95]]", "problem.nodes.costs[1][1]"},
      {&Doc::costs, "[[1.5],[55,65],[25,45,35],[85,75],[95]]", "problem.nodes.costs[0][0]"},
      {&Doc::usages, "[[10],[25,25],[1e3,20,15],[10,10],[15]]", "problem.nodes.usages[2][0]"},
      {&Doc::usages, "[[10],[25,25],[15,20,15],[10,10],[-0.0]]", "problem.nodes.usages[4][0]"},
      {&Doc::intervals, "[[30,1.5],[40,70],[50,120],[110,140],[110,150]]", "problem.nodes.intervals[0][1]"},
      {&Doc::edge_nodes, "[[0,1],[0,2],[1,3],[2,4],[3E0,4]]", "problem.edges.nodes[4][0]"},
      {&Doc::edge_costs, "[[30,40],[50,10,40],[90,10,20,80],[60,20,30.5],[70,60]]", "problem.edges.costs[3][2]"},
      {&Doc::usage_limit, "50.0", "problem.usage_limit"},
      {&Doc::usage_limit, "5e1", "problem.usage_limit"},
      {&Doc::usage_limit, "1E+2", "problem.usage_limit"},
  };
  for (const Case& c : cases) {
    Doc d;
    d.*(c.field) = c.value;
    EXPECT_TRUE(Rejects(d, {c.path + ": expected an integer", "fraction or exponent"})) << c.value;
  }
}

TEST(Loader, RejectsIntegersBeyondInt64) {
  Doc d;
  d.costs = "[[9223372036854775808],[55,65],[25,45,35],[85,75],[95]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[0][0]", "int64"}));
  d = Doc();
  d.intervals = "[[30,70],[-9223372036854775809,70],[50,120],[110,140],[110,150]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals[1][0]", "int64"}));
  d = Doc();
  d.usage_limit = "18446744073709551616";
  EXPECT_TRUE(Rejects(d, {"problem.usage_limit", "int64"}));
  d = Doc();
  d.edge_costs = "[[30,40],[50,10,40],[90,10,20,80],[60,20,30],[70,99999999999999999999999999999999]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs[4][1]", "int64"}));
  // Hundreds of digits: still named.
  d = Doc();
  d.usages = "[[10],[25," + std::string(400, '9') + "],[15,20,15],[10,10],[15]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.usages[1][1]", "integer out of the int64 range"}));
}

// --- Missing, duplicate and negative ------------------------------------------

TEST(Loader, RejectsMissingFields) {
  const std::string n = "\"nodes\":{\"intervals\":[[0,1]],\"costs\":[[1]],\"usages\":[[1]]}";
  const std::string e = "\"edges\":{\"nodes\":[],\"costs\":[]}";
  Problem p;
  ASSERT_TRUE(load("{\"problem\":{" + n + "," + e + "}}", &p).ok);
  EXPECT_TRUE(Rejects("{}", {"missing field problem"}));
  EXPECT_TRUE(Rejects("{\"Problem\":{" + n + "," + e + "}}", {"missing field problem"}));
  EXPECT_TRUE(Rejects("{\"problem\":{" + e + "}}", {"missing field problem.nodes"}));
  EXPECT_TRUE(Rejects("{\"problem\":{" + n + "}}", {"missing field problem.edges"}));
  EXPECT_TRUE(Rejects("{\"problem\":{\"nodes\":{\"costs\":[[1]],\"usages\":[[1]]}," + e + "}}",
                      {"missing field problem.nodes.intervals"}));
  EXPECT_TRUE(Rejects("{\"problem\":{\"nodes\":{\"intervals\":[[0,1]],\"usages\":[[1]]}," + e + "}}",
                      {"missing field problem.nodes.costs"}));
  EXPECT_TRUE(Rejects("{\"problem\":{\"nodes\":{\"intervals\":[[0,1]],\"costs\":[[1]]}," + e + "}}",
                      {"missing field problem.nodes.usages"}));
  EXPECT_TRUE(Rejects("{\"problem\":{" + n + ",\"edges\":{\"costs\":[]}}}", {"missing field problem.edges.nodes"}));
  EXPECT_TRUE(Rejects("{\"problem\":{" + n + ",\"edges\":{\"nodes\":[]}}}", {"missing field problem.edges.costs"}));
}

TEST(Loader, RejectsDuplicateFields) {
  const std::string json = Doc().str();
  std::string s = json;
  s.insert(s.size() - 2, ",\"usage_limit\":60");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem.usage_limit"}));
  s = json;
  s.insert(s.size() - 1, ",\"problem\":{}");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem"}));
  s = json;
  s.insert(s.find("\"intervals\""), "\"costs\":[[1]],");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem.nodes.costs"}));
  s = json;
  s.insert(s.find("\"nodes\":{"), "\"nodes\":{},");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem.nodes"}));
  s = json;
  s.insert(s.find("\"nodes\":[["), "\"nodes\":[],");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem.edges.nodes"}));
  s = json;
  s.insert(s.find("\"name\""), "\"name\":\"a\",");
  EXPECT_TRUE(Rejects(s, {"duplicate field problem.name"}));
}

TEST(Loader, RejectsNegativeValues) {
  Doc d;
  d.costs = "[[15],[-1,65],[25,45,35],[85,75],[95]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[1][0]", "non-negative", "-1"}));
  d = Doc();
  d.usages = "[[10],[25,25],[15,20,15],[10,-10],[15]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.usages[3][1]", "non-negative", "-10"}));
  d = Doc();
  d.edge_costs = "[[30,40],[50,10,40],[90,10,-20,80],[60,20,30],[70,60]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs[2][2]", "non-negative"}));
  d = Doc();
  d.usage_limit = "-1";
  EXPECT_TRUE(Rejects(d, {"problem.usage_limit", "non-negative"}));
}

// --- Shapes -----------------------------------------------------------------

TEST(Loader, RejectsNodeCountMismatches) {
  Doc d;
  d.intervals = "[[30,70],[40,70],[50,120],[110,140]]";
  EXPECT_TRUE(Rejects(d, {"node count mismatch", "problem.nodes.intervals has 4", "problem.nodes.costs 5"}));
  d = Doc();
  d.costs = "[[15],[55,65],[25,45,35],[85,75],[95],[1]]";
  EXPECT_TRUE(Rejects(d, {"node count mismatch", "problem.nodes.costs 6"}));
  d = Doc();
  d.usages = "[[10],[25,25],[15,20,15],[10,10]]";
  EXPECT_TRUE(Rejects(d, {"node count mismatch", "problem.nodes.usages 4"}));
}

TEST(Loader, RejectsANodeWithoutStrategies) {
  Doc d;
  d.costs = "[[15],[],[25,45,35],[85,75],[95]]";
  d.usages = "[[10],[],[15,20,15],[10,10],[15]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[1]", "at least one strategy"}));
  d.edge_nodes = "[]";
  d.edge_costs = "[]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.costs[1]", "at least one strategy"}));
}

TEST(Loader, RejectsStrategyCountMismatches) {
  Doc d;
  d.usages = "[[10],[25,25],[15,20],[10,10],[15]]";
  EXPECT_TRUE(Rejects(d, {"strategy count mismatch", "problem.nodes.costs[2] has 3", "problem.nodes.usages[2] has 2"}));
  d = Doc();
  d.usages = "[[10],[25,25],[15,20,15],[10,10],[]]";
  EXPECT_TRUE(Rejects(d, {"strategy count mismatch", "problem.nodes.usages[4] has 0"}));
}

TEST(Loader, RejectsEdgeEndpointsOutOfRange) {
  Doc d;
  d.edge_nodes = "[[0,1],[0,2],[1,3],[2,5],[3,4]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[3][1]", "node index 5 out of range", "5 nodes"}));
  d.edge_nodes = "[[0,1],[0,2],[1,3],[2,4],[3,2147483648]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[4][1]", "out of range"}));
  d.edge_nodes = "[[-1,1],[0,2],[1,3],[2,4],[3,4]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[0][0]", "node index -1 out of range"}));
}

TEST(Loader, RejectsEdgeCostsOfTheWrongLength) {
  Doc d;
  d.edge_costs = "[[30,40],[50,10,40],[90,10,20],[60,20,30],[70,60]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs[2]", "has 3 entries, expected 4", "node 1", "node 3"}));
  d.edge_costs = "[[30,40],[50,10,40],[90,10,20,80],[60,20,30],[70,60,1]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.costs[4]", "has 3 entries, expected 2"}));
  d.edge_costs = "[[30,40],[50,10,40],[90,10,20,80],[60,20,30]]";
  EXPECT_TRUE(Rejects(d, {"edge count mismatch", "problem.edges.nodes has 5", "problem.edges.costs has 4"}));
}

TEST(Loader, RejectsIntervalsThatAreNotPairs) {
  Doc d;
  d.intervals = "[[30,70],[40,70],[50],[110,140],[110,150]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals[2]: an interval must be a pair [lo, hi], got 1 value"}));
  d.intervals = "[[30,70],[40,70],[50,120,1],[110,140],[110,150]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals[2]: an interval must be a pair", "more than 2"}));
  d.intervals = "[[30,70],[],[50,120],[110,140],[110,150]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals[1]: an interval must be a pair", "got 0 values"}));
  d = Doc();
  d.edge_nodes = "[[0,1],[0],[1,3],[2,4],[3,4]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[1]: an edge must be a pair", "got 1 value"}));
  d.edge_nodes = "[[0,1],[0,2],[1,3,4],[2,4],[3,4]]";
  EXPECT_TRUE(Rejects(d, {"problem.edges.nodes[2]: an edge must be a pair", "more than 2"}));
}

TEST(Loader, RejectsIntervalsWithLowerAboveUpper) {
  Doc d;
  d.intervals = "[[30,70],[40,70],[50,120],[140,110],[110,150]]";
  EXPECT_TRUE(Rejects(d, {"problem.nodes.intervals[3]", "lower end 140 exceeds upper end 110"}));
}

// --- Files ------------------------------------------------------------------

TEST(Loader, FileErrorsNameThePath) {
  Problem p;
  Status st = load_problem_file(kData + "/no-such-file.json", &p);
  ASSERT_FALSE(st.ok);
  EXPECT_NE(st.message.find("no-such-file.json: cannot open file"), std::string::npos) << st.message;
  // A directory opens on Linux; its "size" must not be trusted (this crashed).
  st = load_problem_file(kData, &p);
  ASSERT_FALSE(st.ok);
  EXPECT_NE(st.message.find("is a directory"), std::string::npos) << st.message;
  // Messages from files name the path.
  const std::string path = ::testing::TempDir() + "/loader_test_bad.json";
  {
    std::ofstream f(path, std::ios::binary);
    Doc d;
    d.costs = "[[15],[55,65],[25,45,35],[85,75],[9.5]]";
    f << d.str();
  }
  st = load_problem_file(path, &p);
  std::remove(path.c_str());
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.message.rfind(path + ": problem.nodes.costs[4][0]: expected an integer", 0), 0u) << st.message;
}

TEST(Loader, AFailedLoadLeavesNoStaleData) {
  Problem p;
  ASSERT_TRUE(load(Doc().str(), &p).ok);
  Doc d;
  d.usage_limit = "-5";
  ASSERT_FALSE(load(d.str(), &p).ok);
  ASSERT_TRUE(load("{\"problem\":{\"nodes\":{\"intervals\":[[0,1]],\"costs\":[[7]],\"usages\":[[1]]},"
                   "\"edges\":{\"nodes\":[],\"costs\":[]}}}",
                   &p)
                  .ok);
  EXPECT_EQ(p.num_nodes(), 1);
  EXPECT_FALSE(p.has_usage_limit);
  EXPECT_EQ(p.cost(0, 0), 7);
}

// Every error says what kind it is, so that the CLI's exit status and the
// package's error code come from the code, not from the message.
TEST(Loader, ErrorsCarryTheirKind) {
  Problem p;
  Status st = load_problem_file(std::string(IOPDDL_TEST_DATA) + "/no-such-file.json", &p);
  EXPECT_EQ(st.code, StatusCode::kIo) << st.message;
  st = load_problem_file(IOPDDL_TEST_DATA, &p);
  EXPECT_EQ(st.code, StatusCode::kIo) << st.message;
  st = load("{\"problem\":", &p);
  EXPECT_EQ(st.code, StatusCode::kInvalidInput) << st.message;
  {
    // A cap below what the problem's arrays need: out of memory, not invalid input.
    std::string iv, c;
    for (int i = 0; i < 4000; ++i) {
      iv += i ? ",[0,1]" : "[0,1]";
      c += i ? ",[1]" : "[1]";
    }
    std::string text = "{\"problem\":{\"nodes\":{\"intervals\":[" + iv + "],\"costs\":[" + c + "],\"usages\":[" + c +
                       "]},\"edges\":{\"nodes\":[],\"costs\":[]}}}";
    AllocationCap cap(4096);
    st = load_problem_from_buffer(std::move(text), kSource, &p);
  }
  EXPECT_FALSE(st.ok);
  EXPECT_EQ(st.code, StatusCode::kOutOfMemory) << st.message;
  EXPECT_TRUE(load(Doc().str(), &p).ok);
}

}  // namespace
}  // namespace iopddl
