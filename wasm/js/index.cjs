// CommonJS entry: the implementation is an ES module, and every entry point of
// the API is asynchronous anyway, so this forwards through a dynamic import.
'use strict';

const load = () => import('./node.mjs');

exports.createSolver = (options) => load().then((m) => m.createSolver(options));
exports.VERSION = '0.1.0';
