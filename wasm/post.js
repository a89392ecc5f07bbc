// Appended inside the generated module factory (--post-js): gives the package's
// JavaScript the few internals it needs, without patching generated code.
Module['iopddlHeapU8'] = function () {
  // A fresh view: memory may have grown on another thread since the last one.
  return new Uint8Array(wasmMemory.buffer);
};
Module['iopddlTerminateThreads'] = function () {
  if (typeof PThread !== 'undefined') PThread.terminateAllThreads();
};
// A loaded problem's per-node arrays (ProblemHandle::node_array), copied out
// of the module's memory: they stay valid after the problem is disposed, and
// are never shared memory.
Module['iopddlNodeData'] = function (handle) {
  var buffer = wasmMemory.buffer;
  function copy(k, Type) {
    var n = handle.nodeArrayLength(k);
    return n ? new Type(buffer, handle.nodeArray(k), n).slice() : new Type(0);
  }
  var offsets = copy(0, BigUint64Array);
  var strategyOffsets = new Float64Array(offsets.length);
  for (var i = 0; i < offsets.length; ++i) strategyOffsets[i] = Number(offsets[i]);
  return {
    strategyOffsets: strategyOffsets,
    costs: copy(1, BigInt64Array),
    usages: copy(2, BigInt64Array),
    intervalStarts: copy(3, BigInt64Array),
    intervalEnds: copy(4, BigInt64Array),
  };
};
// One piece of a load (the Embind Loader): copied into the loader's buffer
// inside the module and parsed at once. False when the input is invalid.
Module['iopddlLoadPiece'] = function (loader, bytes) {
  var at = loader.buffer(bytes.length);
  new Uint8Array(wasmMemory.buffer).set(bytes, at);
  return loader.push(bytes.length);
};
// What a load that ran out of memory says: how far it got, and the module's size.
Module['iopddlLoadMemoryNote'] = function (loader) {
  return 'out of memory after ' + loader.bytesIn() + " bytes of input (the module's memory is " +
    Math.round(wasmMemory.buffer.byteLength / 1048576) + ' MB; it cannot grow past 4 GB)';
};
