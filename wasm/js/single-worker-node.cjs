// Node's host for the single-threaded back end's Worker (single-worker.mjs):
// it hands the module the thread's message port and Node's require, which the
// shared module must not name itself (bundlers that pack it for a browser would
// try to resolve Node's modules, and fail). Messages that arrive before the
// module has loaded wait in the port.
'use strict';
const { parentPort } = require('worker_threads');

globalThis.iopddlWorkerHost = {
  post: (m, transfer) => parentPort.postMessage(m, transfer),
  listen: (receive) => parentPort.on('message', receive),
  loadFactory: (m) => require(m.scriptPath),
};
import('./single-worker.mjs');
