// Writes a synthetic contest instance of a chosen size from a seed, for load and
// memory benchmarks and for tests of large files (the contest's W and Y, 1.1 and
// 1.3 GB, cannot be downloaded here).
//
//   iopddl-generate [--nodes N] [--seed S] [--renumber R] [--gzip] [--name NAME] OUT
//
// OUT "-" writes to stdout. --nodes 60000 gives about 1.3 GB, --nodes 2300 about
// 50 MB. The same arguments always give the same bytes.
//
// --renumber R (R >= 1) writes the same instance in another numbering, drawn
// from R: the nodes permuted, the edges in another order, each with its ends
// swapped (its matrix transposed) at random. It also writes OUT.perm, the JSON
// list of each node's new index, which `scripts/renumber.py unpermute` reads
// to map an answer back. A solver whose answer moves with the numbering has
// tuned to an order, not found a mechanism; scripts/renumber.py does the same
// to any file, holding it whole in Python (about four times its size).
//
// The shape follows a training step, as the contest's files do:
// - a forward pass of layers, then a backward pass that mirrors it; each forward
//   node's activation stays live until its gradient node, other nodes live briefly,
//   parameters live throughout, and some nodes take no memory ([0, 0]);
// - edges along each pass, residual skips of a few layers, occasional long skips,
//   one edge from each activation to its gradient and from parameters to users;
// - 1 to 60 strategies per node, similar along a layer; a strategy shards its
//   tensor over 1, 2, 4 or 8 devices along one of several axes: more sharding,
//   less memory and compute, more communication where neighbours disagree;
// - forbidden (10^18) entries in over half of the edge matrices' cells, never on
//   the pair that keeps both ends at their least memory, so an answer exists;
// - a limit between the peak of that least-memory answer and the peak of the
//   cheapest node costs, so the limit binds.
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int64_t kForbidden = 1000000000000000000LL;

// SplitMix64: a stateless mix, so each edge's matrix comes from its own seed.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(mix(seed)) {}
  uint64_t next() { return s = mix(s); }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  int below(int n) { return int(next() % uint64_t(n)); }
  double log_uniform(double lo, double hi) { return std::exp(std::log(lo) + uniform() * (std::log(hi) - std::log(lo))); }
};

// Buffered writer, plain or gzip.
class Out {
 public:
  bool open(const std::string& path, bool gz) {
    gz_ = gz;
    if (gz) {
      gzf_ = path == "-" ? gzdopen(1, "wb6") : gzopen(path.c_str(), "wb6");
      return gzf_ != nullptr;
    }
    f_ = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
    return f_ != nullptr;
  }
  void put(char c) {
    if (n_ == sizeof buf_) flush();
    buf_[n_++] = c;
  }
  void put(const char* s) {
    while (*s) put(*s++);
  }
  void num(int64_t v) {
    char tmp[24];
    int k = 0;
    uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    do { tmp[k++] = char('0' + u % 10); u /= 10; } while (u);
    if (v < 0) put('-');
    while (k) put(tmp[--k]);
  }
  void flush() {
    if (n_ == 0) return;
    if (gz_) ok_ &= gzwrite(gzf_, buf_, unsigned(n_)) == int(n_);
    else ok_ &= std::fwrite(buf_, 1, n_, f_) == n_;
    n_ = 0;
  }
  bool close() {
    flush();
    if (gz_) ok_ &= gzclose(gzf_) == Z_OK;
    else if (f_ != stdout) ok_ &= std::fclose(f_) == 0;
    else ok_ &= std::fflush(stdout) == 0;
    return ok_;
  }

 private:
  bool gz_ = false, ok_ = true;
  gzFile gzf_ = nullptr;
  FILE* f_ = nullptr;
  char buf_[1 << 16];
  size_t n_ = 0;
};

struct Node {
  int64_t lo = 0, hi = 0;
  int k = 1;
  int64_t size = 0, flops = 0;
  std::vector<int64_t> cost, usage;
  int least_memory = 0;  // the strategy with the least usage
};

// Strategy s: shard factor 1, 2, 4 or 8 (s % 4) along axis s / 4.
int factor(int s) { return 1 << (s % 4); }
int axis(int s) { return s / 4; }

// Strategy counts as the contest's files have them: mostly small, a few wide.
int draw_strategy_count(Rng& r) {
  static const int kCounts[] = {1, 2, 4, 8, 12, 16, 20, 24, 30, 36, 40, 48, 54, 60, 60, 60};
  return kCounts[r.below(int(sizeof kCounts / sizeof kCounts[0]))];
}

int64_t peak(const std::vector<Node>& nodes, int64_t horizon, bool least_memory) {
  std::vector<int64_t> delta(size_t(horizon) + 1, 0);
  for (const Node& n : nodes) {
    if (n.lo >= n.hi) continue;
    int64_t u;
    if (least_memory) {
      u = n.usage[size_t(n.least_memory)];
    } else {
      size_t best = size_t(std::min_element(n.cost.begin(), n.cost.end()) - n.cost.begin());
      u = n.usage[best];
    }
    delta[size_t(n.lo)] += u;
    delta[size_t(n.hi)] -= u;
  }
  int64_t run = 0, top = 0;
  for (int64_t d : delta) top = std::max(top, run += d);
  return top;
}

int usage_exit(const char* msg) {
  std::fprintf(stderr, "iopddl-generate: %s\nusage: iopddl-generate [--nodes N] [--seed S] [--renumber R] [--gzip] [--name NAME] OUT\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long nodes_wanted = 2300;
  uint64_t seed = 1, renumber = 0;
  bool gz = false;
  std::string name, out_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) { usage_exit((std::string(what) + " needs a value").c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--nodes") nodes_wanted = std::strtol(value("--nodes"), nullptr, 10);
    else if (a == "--seed") seed = std::strtoull(value("--seed"), nullptr, 10);
    else if (a == "--renumber") renumber = std::strtoull(value("--renumber"), nullptr, 10);
    else if (a == "--gzip") gz = true;
    else if (a == "--name") name = value("--name");
    else if (!a.empty() && a[0] == '-' && a != "-") return usage_exit(("unknown option " + a).c_str());
    else if (out_path.empty()) out_path = a;
    else return usage_exit("one output path only");
  }
  if (out_path.empty()) return usage_exit("missing OUT");
  if (nodes_wanted < 8 || nodes_wanted > 10000000) return usage_exit("--nodes must be between 8 and 10000000");
  if (renumber && out_path == "-") return usage_exit("--renumber writes OUT.perm beside OUT: give a file, not -");
  if (name.empty())
    name = "generated-" + std::to_string(nodes_wanted) + "-" + std::to_string(seed) +
           (renumber ? "-renumbered-" + std::to_string(renumber) : "");

  Rng rng(seed);
  // Node layout: P parameters, F forward nodes, F backward nodes.
  const int P = int(nodes_wanted / 10);
  const int F = int((nodes_wanted - P) / 2);
  const int N = P + 2 * F;
  const int64_t horizon = 2 * int64_t(F) + 2;
  std::vector<Node> nodes(static_cast<size_t>(N));
  auto fwd = [&](int i) { return P + i; };
  auto bwd = [&](int i) { return P + F + i; };

  // Layers of 6-14 nodes share a strategy count; sizes vary per node.
  int layer_left = 0, layer_k = 1;
  double layer_size = 1e6;
  for (int i = 0; i < F; ++i) {
    if (layer_left == 0) {
      layer_left = 6 + rng.below(9);
      layer_k = draw_strategy_count(rng);
      layer_size = rng.log_uniform(1e4, 1e8);
    }
    --layer_left;
    int k = rng.uniform() < 0.15 ? draw_strategy_count(rng) : layer_k;
    nodes[size_t(fwd(i))].k = k;
    nodes[size_t(bwd(i))].k = std::max(1, std::min(60, k + (rng.uniform() < 0.3 ? rng.below(5) - 2 : 0)));
    nodes[size_t(fwd(i))].size = int64_t(layer_size * rng.log_uniform(0.25, 4));
    nodes[size_t(bwd(i))].size = int64_t(layer_size * rng.log_uniform(0.25, 4));
  }
  for (int j = 0; j < P; ++j) {
    nodes[size_t(j)].k = draw_strategy_count(rng);
    nodes[size_t(j)].size = int64_t(rng.log_uniform(1e4, 4e8));
  }
  // Intervals: forward at time i, backward at 2F + 1 - i.
  for (int i = 0; i < F; ++i) {
    Node& f = nodes[size_t(fwd(i))];
    Node& b = nodes[size_t(bwd(i))];
    const int64_t tb = 2 * int64_t(F) + 1 - i;
    double r = rng.uniform();
    if (r < 0.08) { f.lo = f.hi = 0; }                         // no memory
    else if (r < 0.55) { f.lo = i; f.hi = tb + 1; }            // activation saved for backward
    else { f.lo = i; f.hi = std::min<int64_t>(i + 1 + rng.below(4), horizon); }
    b.lo = tb;
    b.hi = std::min<int64_t>(tb + 1 + rng.below(3), horizon);
  }
  for (int j = 0; j < P; ++j) { nodes[size_t(j)].lo = 0; nodes[size_t(j)].hi = horizon; }

  // Strategies: usage shrinks with the shard factor; compute shrinks with it
  // too, but unevenly, with per-strategy overheads, so no factor always wins.
  for (Node& n : nodes) {
    n.flops = int64_t(double(n.size) * rng.log_uniform(0.5, 20));
    n.cost.resize(size_t(n.k));
    n.usage.resize(size_t(n.k));
    int64_t least = INT64_MAX;
    for (int s = 0; s < n.k; ++s) {
      const double f = factor(s);
      n.usage[size_t(s)] = int64_t(double(n.size) / f * rng.log_uniform(0.9, 1.1));
      n.cost[size_t(s)] = int64_t(double(n.flops) / std::pow(f, 0.7) * rng.log_uniform(0.6, 1.6));
      if (n.usage[size_t(s)] < least) { least = n.usage[size_t(s)]; n.least_memory = s; }
    }
  }

  // Edges: chains along each pass, residual and long skips, activation to
  // gradient, parameter to a few users in each pass.
  std::vector<std::pair<int, int>> edges;
  edges.reserve(size_t(N) * 3 / 2 + 16);
  for (int i = 1; i < F; ++i) {
    edges.push_back({fwd(i - 1), fwd(i)});
    edges.push_back({bwd(i), bwd(i - 1)});
    if (rng.uniform() < 0.12 && i >= 8) edges.push_back({fwd(i - 2 - rng.below(6)), fwd(i)});
    if (rng.uniform() < 0.004 && i > 64) edges.push_back({fwd(rng.below(i - 32)), fwd(i)});
  }
  for (int i = 0; i < F; ++i)
    if (nodes[size_t(fwd(i))].hi > nodes[size_t(bwd(i))].lo) edges.push_back({fwd(i), bwd(i)});
  for (int j = 0; j < P && F > 0; ++j) {
    const int at = rng.below(F);
    edges.push_back({j, fwd(at)});
    edges.push_back({j, bwd(at)});
  }

  const int64_t low = peak(nodes, horizon, true), cheap = peak(nodes, horizon, false);
  const int64_t limit = cheap > low ? low + (cheap - low) * 35 / 100 : low;

  // The numbering written: new index perm[i] holds node i; the edge written
  // w-th is edges[edge_order[w]], its ends swapped where swap_ends[w]. Without
  // --renumber, the identity. Drawn after the instance, so an instance does
  // not depend on R.
  std::vector<int> perm(static_cast<size_t>(N)), holds(static_cast<size_t>(N));
  std::vector<size_t> edge_order(edges.size());
  std::vector<char> swap_ends(edges.size(), 0);
  for (int i = 0; i < N; ++i) perm[size_t(i)] = i;
  for (size_t e = 0; e < edges.size(); ++e) edge_order[e] = e;
  if (renumber) {
    Rng rr(renumber * 0x9E3779B97F4A7C15ULL + 0x5EED);
    auto shuffle = [&](auto& v) {
      for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[size_t(rr.next() % i)]);
    };
    shuffle(perm);
    shuffle(edge_order);
    for (char& sw : swap_ends) sw = char(rr.next() & 1);
  }
  for (int i = 0; i < N; ++i) holds[size_t(perm[size_t(i)])] = i;

  Out out;
  if (!out.open(out_path, gz)) {
    std::fprintf(stderr, "iopddl-generate: cannot open %s for writing\n", out_path.c_str());
    return 1;
  }
  // The contest's order (and XLA's): edges first, their costs before their
  // ends, then the name and the nodes; a loader must not count on the sizes
  // coming before the matrices.
  out.put("{\"problem\":{\"edges\":{\"costs\":[");
  std::vector<int64_t> matrix;
  for (size_t w = 0; w < edges.size(); ++w) {
    if (w) out.put(',');
    out.put('[');
    const size_t e = edge_order[w];  // each edge's matrix comes from its own index, whatever the order
    const Node& u = nodes[size_t(edges[e].first)];
    const Node& v = nodes[size_t(edges[e].second)];
    matrix.clear();
    Rng er(seed * 0x100000001B3ULL + e);
    const double forbid = 0.35 + 0.45 * er.uniform();  // per edge: 35-80 % forbidden
    const double reshard = double(std::min(u.size, v.size));
    for (int a = 0; a < u.k; ++a) {
      for (int b = 0; b < v.k; ++b) {
        int64_t c;
        if (a == u.least_memory && b == v.least_memory) {
          c = int64_t(reshard * er.log_uniform(0.5, 2));
        } else if (axis(a) == axis(b) && factor(a) == factor(b)) {
          c = er.uniform() < 0.7 ? 0 : int64_t(reshard * 0.1 * er.uniform());
        } else if (er.uniform() < forbid) {
          c = kForbidden;
        } else {
          const double moved = std::abs(std::log2(double(factor(a)) / factor(b))) + (axis(a) != axis(b) ? 1.0 : 0.0);
          c = int64_t(reshard * moved * er.log_uniform(0.5, 2));
        }
        matrix.push_back(c);
      }
    }
    // Row-major over the ends as written: transposed when they are swapped.
    const int rows = swap_ends[w] ? v.k : u.k, cols = swap_ends[w] ? u.k : v.k;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        if (r || c) out.put(',');
        out.num(matrix[swap_ends[w] ? size_t(c) * size_t(rows) + size_t(r) : size_t(r) * size_t(cols) + size_t(c)]);
      }
    out.put(']');
  }
  out.put("],\"nodes\":[");
  for (size_t w = 0; w < edges.size(); ++w) {
    if (w) out.put(',');
    int a = perm[size_t(edges[edge_order[w]].first)], b = perm[size_t(edges[edge_order[w]].second)];
    if (swap_ends[w]) std::swap(a, b);
    out.put('['); out.num(a); out.put(','); out.num(b); out.put(']');
  }
  out.put("]},\"name\":\"");
  out.put(name.c_str());
  out.put("\",\"nodes\":{\"costs\":[");
  for (int pass = 0; pass < 3; ++pass) {
    if (pass) out.put(pass == 1 ? "],\"intervals\":[" : "],\"usages\":[");
    for (int q = 0; q < N; ++q) {
      if (q) out.put(',');
      out.put('[');
      const Node& n = nodes[size_t(holds[size_t(q)])];
      if (pass == 1) {
        out.num(n.lo); out.put(','); out.num(n.hi);
      } else {
        const std::vector<int64_t>& v = pass == 0 ? n.cost : n.usage;
        for (size_t s = 0; s < v.size(); ++s) {
          if (s) out.put(',');
          out.num(v[s]);
        }
      }
      out.put(']');
    }
  }
  out.put("]},\"usage_limit\":");
  out.num(limit);
  out.put("}}\n");
  if (!out.close()) {
    std::fprintf(stderr, "iopddl-generate: write failed for %s\n", out_path.c_str());
    return 1;
  }
  if (renumber) {
    const std::string perm_path = out_path + ".perm";
    Out po;
    if (!po.open(perm_path, false)) {
      std::fprintf(stderr, "iopddl-generate: cannot open %s for writing\n", perm_path.c_str());
      return 1;
    }
    po.put('[');
    for (int i = 0; i < N; ++i) {
      if (i) po.put(", ");
      po.num(perm[size_t(i)]);
    }
    po.put("]\n");
    if (!po.close()) {
      std::fprintf(stderr, "iopddl-generate: write failed for %s\n", perm_path.c_str());
      return 1;
    }
  }
  std::fprintf(stderr, "iopddl-generate: %d nodes, %zu edges, limit %lld (least-memory peak %lld, cheapest-cost peak %lld)\n",
               N, edges.size(), (long long)limit, (long long)low, (long long)cheap);
  return 0;
}
