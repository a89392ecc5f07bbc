#include "params.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace iopddl {

namespace {

Status bad_argument(std::string message) { return Status::Error(std::move(message), StatusCode::kBadArgument); }

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

Status set_param(Params* params, const std::string& name, double value) {
  int k = 0;
  while (k < kParamCount && name != kParamInfo[k].name) ++k;
  if (k == kParamCount) return bad_argument("unknown parameter '" + name + "' (iopddl --list-params lists them)");
  const ParamInfo& info = kParamInfo[k];
  if (!std::isfinite(value) || value < info.lo || value > info.hi)
    return bad_argument("parameter " + name + " = " + number(value) + " is out of its range [" + number(info.lo) +
                         ", " + number(info.hi) + "]");
  if (info.integer && value != std::floor(value))
    return bad_argument("parameter " + name + " = " + number(value) + " must be an integer");
  int i = 0;
#define IOPDDL_PARAM_SET(pname, type, def, lo, hi, why) \
  if (i++ == k) params->pname = type(value);
  IOPDDL_PARAMS(IOPDDL_PARAM_SET)
#undef IOPDDL_PARAM_SET
  return Status::Ok();
}

Status set_param(Params* params, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    return bad_argument("'" + assignment + "' is not NAME=VALUE (iopddl --list-params lists the names)");
  const std::string name = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return bad_argument("parameter " + name + ": '" + text + "' is not a number");
  return set_param(params, name, v);
}

double param_value(const Params& params, int k) {
  int i = 0;
  double v = 0;
#define IOPDDL_PARAM_GET(pname, type, def, lo, hi, why) \
  if (i++ == k) v = double(params.pname);
  IOPDDL_PARAMS(IOPDDL_PARAM_GET)
#undef IOPDDL_PARAM_GET
  return v;
}

}  // namespace iopddl
