// Node entry (import): the generated files sit beside this one; the .wasm bytes
// are read from disk and handed over (the loader's fetch fails on file paths).
import { createRequire } from 'node:module';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createSolverOn, IopddlError } from './core.mjs';

export { DEFAULT_TIME_LIMIT_MS, FORBIDDEN_COST, IopddlError, VERSION } from './core.mjs';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('.', import.meta.url));
const file = (opts, name) => (opts.locateFile ? opts.locateFile(name) : join(here, name));
const INFLATED_PIECE = 4 << 20;  // as the pieces read
const bytes = (b) => (b instanceof Uint8Array ? b : new Uint8Array(b));

const platform = {
  // A file read in pieces of `piece` bytes. A path that cannot be read fails
  // here, before the load starts, naming the path.
  async openFile(path, piece) {
    let info;
    try {
      info = await stat(path);
    } catch (e) {
      throw new IopddlError(`${path}: cannot open file: ${e.message}`, 'ERR_IO');
    }
    if (info.isDirectory()) {
      throw new IopddlError(`${path}: cannot read: is a directory`, 'ERR_IO');
    }
    return { pieces: createReadStream(path, { highWaterMark: piece }), size: info.size };
  },
  // gzip pieces inflated by Node's zlib, which works on a thread of libuv's
  // pool while the module parses; its errors are worded as the module's are.
  async *gunzip(pieces, source) {
    const inflater = createGunzip({ chunkSize: INFLATED_PIECE });
    const input = Readable.from(pieces, { objectMode: false });
    input.on('error', (e) => inflater.destroy(e));
    input.pipe(inflater);
    try {
      for await (const piece of inflater) yield piece;
    } catch (e) {
      if (typeof e.code !== 'string' || !e.code.startsWith('Z_')) throw e;
      if (e.code === 'Z_BUF_ERROR') throw new IopddlError(`${source}: gzip data is truncated`, 'ERR_INVALID_INPUT');
      throw new IopddlError(`${source}: gzip data is corrupt: ${e.message}`, 'ERR_INVALID_INPUT');
    } finally {
      input.destroy();
      inflater.destroy();
    }
  },
  cores: () => (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length),
  threadSupport: () => (typeof SharedArrayBuffer === 'function' && typeof Atomics === 'object'
    ? { ok: true }
    : { ok: false, reason: 'SharedArrayBuffer is not available in this Node.js' }),
  async threadedModule(opts) {
    const factory = require(file(opts, 'iopddl.js'));
    const wasmBinary = opts.wasmBinary ? bytes(opts.wasmBinary) : readFileSync(file(opts, 'iopddl.wasm'));
    return { factory, args: { wasmBinary } };
  },
  createSingleWorker(opts) {
    const w = new Worker(file(opts, 'single-worker-node.cjs'));
    w.unref();  // idle, it must not keep the process alive; busy, the back end refs it
    let errorHandler = () => {};
    w.on('error', (e) => errorHandler(e));
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      onMessage: (f) => w.on('message', f),
      onError: (f) => { errorHandler = f; },
      terminate: () => w.terminate(),
      ref: () => w.ref(),
      unref: () => w.unref(),
    };
  },
  async singleInit(opts) {
    return {
      scriptPath: file(opts, 'iopddl-single.js'),
      wasmBinary: opts.singleWasmBinary ? bytes(opts.singleWasmBinary) : readFileSync(file(opts, 'iopddl-single.wasm')),
    };
  },
};

/** Starts a solver: a WebAssembly module with its own thread pool. */
export function createSolver(options) {
  return createSolverOn(platform, options);
}
