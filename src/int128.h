// 128-bit totals: a handful of 10^18 "forbidden" entries already overflow int64.
#pragma once
#include <cstdint>
#include <string>

namespace iopddl {

using Int128 = __int128;

// Entries at or above this are forbidden (the contest writes 10^18).
constexpr int64_t kForbidden = 1000000000000000000LL;
// Anything at or above this is treated as forbidden when the solver decides moves.
constexpr int64_t kForbiddenThreshold = 100000000000000000LL;

inline std::string to_string(Int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  char buf[48];
  int i = 47;
  buf[i] = 0;
  while (u > 0) {
    buf[--i] = char('0' + int(u % 10));
    u /= 10;
  }
  if (neg) buf[--i] = '-';
  return std::string(buf + i);
}

}  // namespace iopddl
