// libFuzzer target: the loader on arbitrary bytes (JSON or gzip). Every input
// either loads into a consistent Problem or is rejected with one clear line;
// a JSON input that loads loads the same once gzip-compressed.
#include <zlib.h>

#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "load_json.h"

using namespace iopddl;

namespace {

std::string gzip(const std::string& text) {
  z_stream zs{};
  if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&zs, uLong(text.size())) + 64, '\0');
  zs.next_in = (Bytef*)text.data();
  zs.avail_in = uInt(text.size());
  zs.next_out = (Bytef*)&out[0];
  zs.avail_out = uInt(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

bool same(const Problem& a, const Problem& b) {
  return a.name == b.name && a.has_usage_limit == b.has_usage_limit && a.usage_limit == b.usage_limit &&
         a.interval_lo == b.interval_lo && a.interval_hi == b.interval_hi &&
         a.strategy_offset == b.strategy_offset && a.node_cost == b.node_cost && a.node_usage == b.node_usage &&
         a.edge_u == b.edge_u && a.edge_v == b.edge_v && a.edge_cost_offset == b.edge_cost_offset &&
         edge_cost_array(a) == edge_cost_array(b) && a.time_point == b.time_point && a.seg_lo == b.seg_lo &&
         a.seg_hi == b.seg_hi;
}

// The loader's integer parser (with its eight-digits-at-a-time fast path)
// against a plain one: short inputs are also tried as the one node cost of a
// one-node problem. A JSON integer in the int64 range must load as its value,
// one beyond it must be refused as out of range.
void check_number(const std::string& text) {
  if (text.empty() || text.size() > 48) return;
  const std::string doc = "{\"problem\":{\"nodes\":{\"intervals\":[[0,1]],\"costs\":[[" + text +
                          "]],\"usages\":[[0]]},\"edges\":{\"nodes\":[],\"costs\":[]}}}";
  // Reference: -?(0|[1-9][0-9]*), value in 128 bits (saturated).
  size_t i = text[0] == '-' ? 1 : 0;
  bool integer = i < text.size() && (text[i] != '0' || i + 1 == text.size());
  __int128 v = 0;
  for (size_t k = i; integer && k < text.size(); ++k) {
    integer = text[k] >= '0' && text[k] <= '9';
    if (v < (__int128(1) << 100)) v = v * 10 + (text[k] - '0');
  }
  if (i == 1) v = -v;
  Problem p;
  Status st = load_problem_from_buffer(doc, "n.json", &p);
  if (!integer) {
    if (!st.ok) fuzz::check_message(st.message, "n.json");
    return;
  }
  if (v < 0) {
    FUZZ_CHECK(!st.ok, "negative cost " + text + " accepted");
    if (v < INT64_MIN) FUZZ_CHECK(st.message.find("integer out of the int64 range") != std::string::npos, st.message);
    else FUZZ_CHECK(st.message.find("costs must be non-negative") != std::string::npos, st.message);
  } else if (v > INT64_MAX) {
    FUZZ_CHECK(!st.ok, text + " accepted");
    FUZZ_CHECK(st.message.find("integer out of the int64 range") != std::string::npos ||
                   st.message.find("number too large") != std::string::npos,
               st.message);
  } else {
    FUZZ_CHECK(st.ok, text + ": " + st.message);
    FUZZ_CHECK(p.node_cost.size() == 1 && p.node_cost[0] == int64_t(v), text + " loaded as another value");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz.json";
  check_number(bytes);
  Problem p;
  Status st = load_problem_from_buffer(bytes, source, &p);
  if (!st.ok) {
    fuzz::check_message(st.message, source);
    return 0;
  }
  fuzz::check_problem(p);
  if (!is_gzip(bytes)) {
    Problem q;
    Status gz = load_problem_from_buffer(gzip(bytes), source, &q);
    FUZZ_CHECK(gz.ok, gz.message);
    FUZZ_CHECK(same(p, q), "the gzip-compressed input loads differently");
  }
  return 0;
}
