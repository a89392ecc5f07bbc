// Node's host for the single-threaded back end's Worker script
// (single-worker.js): it hands the script the thread's message port and Node's
// require, which the shared script must not name itself (bundlers that pack it
// for a browser would try to resolve Node's modules, and fail).
'use strict';
const { parentPort } = require('worker_threads');

globalThis.iopddlWorkerHost = {
  post: (m) => parentPort.postMessage(m),
  listen: (receive) => parentPort.on('message', receive),
  loadFactory: (m) => require(m.scriptPath),
};
require('./single-worker.js');
