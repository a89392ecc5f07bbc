// Browser entry (and any bundler's default): the generated files are found
// beside this module through import.meta.url, the form bundlers understand.
// Threads need a cross-origin isolated page (COOP: same-origin, COEP:
// require-corp); without it the single-threaded build runs in a Worker.
import { createSolverOn } from './core.mjs';
import { loadClassicScript } from './shared.mjs';

export { DEFAULT_TIME_LIMIT_MS, FORBIDDEN_COST, IopddlError, VERSION } from './core.mjs';

const defaultUrls = {
  'iopddl.js': () => new URL('./iopddl.js', import.meta.url).href,
  'iopddl.wasm': () => new URL('./iopddl.wasm', import.meta.url).href,
  'iopddl.worker.js': () => new URL('./iopddl.worker.js', import.meta.url).href,
  'iopddl-single.js': () => new URL('./iopddl-single.js', import.meta.url).href,
  'iopddl-single.wasm': () => new URL('./iopddl-single.wasm', import.meta.url).href,
};

function url(opts, name) {
  if (opts.locateFile) return String(opts.locateFile(name));
  if (opts.baseUrl) return new URL(name, opts.baseUrl).href;
  // Every file has a literal new URL(...) above, the form bundlers copy; any
  // other name is looked up beside the module's script.
  return defaultUrls[name] ? defaultUrls[name]() : new URL(name, defaultUrls['iopddl.js']()).href;
}

function threadSupport() {
  if (typeof SharedArrayBuffer === 'undefined' || globalThis.crossOriginIsolated === false) {
    return {
      ok: false,
      reason: 'the page is not cross-origin isolated, so SharedArrayBuffer is unavailable ' +
        '(serve it with Cross-Origin-Opener-Policy: same-origin and ' +
        'Cross-Origin-Embedder-Policy: require-corp to use threads)',
    };
  }
  try {
    // eslint-disable-next-line no-new
    new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  } catch (e) {
    return { ok: false, reason: 'this browser has no WebAssembly threads (shared memory)' };
  }
  return { ok: true };
}

// A bundler may inline a small file as a data: URL (Vite does so below 4 KB,
// which catches iopddl.worker.js). A Worker started from a data: URL has an
// opaque origin, and under COEP it may not load the module's script: start
// it from a Blob URL of the same text instead, which has the page's origin.
// Real URLs are used as they are.
function workerUrl(u) {
  if (!u.startsWith('data:')) return u;
  const comma = u.indexOf(',');
  const meta = u.slice(5, comma);
  const body = u.slice(comma + 1);
  const text = /;base64$/.test(meta) ? atob(body) : decodeURIComponent(body);
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}

const platform = {
  cores: () => (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 1,
  threadSupport,
  async threadedModule(opts) {
    const main = url(opts, 'iopddl.js');
    const factory = await loadClassicScript(main, 'createIopddlModule');
    const args = {
      locateFile: (name) => (name.endsWith('.worker.js') ? workerUrl(url(opts, name)) : url(opts, name)),
      mainScriptUrlOrBlob: main,  // what the thread Workers import
    };
    if (opts.wasmBinary) args.wasmBinary = opts.wasmBinary;
    return { factory, args };
  },
  createSingleWorker(opts) {
    // A module Worker: it imports shared.mjs, as the main thread does.
    const w = opts.locateFile || opts.baseUrl
      ? new Worker(url(opts, 'single-worker.mjs'), { type: 'module' })
      : new Worker(new URL('./single-worker.mjs', import.meta.url), { type: 'module' });
    let errorHandler = () => {};
    w.onerror = (e) => { e.preventDefault && e.preventDefault(); errorHandler(e); };
    return {
      post: (m, transfer) => w.postMessage(m, transfer || []),
      onMessage: (f) => { w.onmessage = (e) => f(e.data); },
      onError: (f) => { errorHandler = f; },
      terminate: () => w.terminate(),
    };
  },
  async singleInit(opts) {
    const init = { scriptUrl: url(opts, 'iopddl-single.js'), wasmUrl: url(opts, 'iopddl-single.wasm') };
    if (opts.singleWasmBinary) init.wasmBinary = opts.singleWasmBinary;
    return init;
  },
};

/** Starts a solver: threads when the page allows them, else one thread in a Worker. */
export function createSolver(options) {
  return createSolverOn(platform, options);
}
