// CommonJS entry: the implementation is an ES module, and every entry point of
// the API is asynchronous anyway, so this forwards through a dynamic import.
'use strict';

const load = () => import('./node.mjs');

exports.createSolver = (options) => load().then((m) => m.createSolver(options));
// The core's constants, written by build.mjs from the module (as constants.mjs).
const constants = require('./constants.cjs');

exports.VERSION = constants.version;
exports.FORBIDDEN_COST = BigInt(constants.forbiddenCost);
exports.DEFAULT_TIME_LIMIT_MS = constants.defaultTimeLimitMs;
