// A function that a long loop calls once per round of work, kept as its own
// function: never inlined into the loop.
//
// WebAssembly engines run a function's first calls in a baseline tier and
// switch to optimised code at a later call; V8 has no on-stack replacement for
// WebAssembly, so a loop that runs for seconds inside one call (a whole
// problem's set-up, the first elimination over every node) stays in baseline
// code to its end. When the loop's body is a function of its own, that
// function is called thousands of times, is optimised after its first few, and
// the rest of the loop runs at full speed. Natively a call per node or per
// elimination costs nothing measurable. The module's link also keeps Binaryen
// from inlining such functions back (wasm/CMakeLists.txt).
#pragma once

#define IOPDDL_OUT_OF_LINE __attribute__((noinline))
