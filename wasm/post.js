// Appended inside the generated module factory (--post-js): gives the package's
// JavaScript the few internals it needs, without patching generated code.
Module['iopddlHeapU8'] = function () {
  // A fresh view: memory may have grown on another thread since the last one.
  return new Uint8Array(wasmMemory.buffer);
};
Module['iopddlTerminateThreads'] = function () {
  if (typeof PThread !== 'undefined') PThread.terminateAllThreads();
};
