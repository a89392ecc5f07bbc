// What the CLI's commands (main.cc, sweep_command.cc) share.
#pragma once
#include <cstdint>
#include <string>

#include "int128.h"
#include "params.h"
#include "status.h"

namespace iopddl::cli {

extern const char* const kUsage;
// The problem's name as one safe line (control bytes as \xHH).
std::string printable(const std::string& name);
// Prints msg and the usage to stderr; the exit status of a bad argument (2).
int usage_error(const std::string& msg);
// False (and why) when `path` cannot be opened for reading or is a directory.
bool readable(const char* path, std::string* why);
bool parse_number(const char* s, double* out);  // a finite number, nothing after it
bool parse_uint(const char* s, uint64_t* out);  // decimal digits only
std::string percent(Int128 num, Int128 den);     // 100 * num / den, 4 decimals
Status read_text_file(const char* path, std::string* text);
void list_params();
// The options every search command takes: --threads, --seed, --rounds, --set.
struct SearchArgs {
  int threads = 0;
  uint64_t seed = 1;
  int64_t rounds = 0;
  Params params;
};
// If argv[*k] is one of them, takes it and its value (advancing *k) and
// returns 1; 0 if it is not one; -1 on a bad value, with the exit status
// (the usage printed) in *status.
int take_search_arg(int argc, char** argv, int* k, SearchArgs* a, int* status);
// A word that starts with '-' and is not a number.
bool is_option(const char* a);

// The exit status for a failed step: a bad argument or unreadable file 2
// (with the usage), anything else invalid input 3.
int fail(const Status& st, const std::string& prefix = "");

int run_evaluate(int argc, char** argv);
int run_check(int argc, char** argv);
int run_sweep(int argc, char** argv);

}  // namespace iopddl::cli
