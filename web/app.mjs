// The page: file input and drop, summary, solve controls, live progress,
// result, node table and downloads. The solver lives in worker.mjs; this
// thread only draws.
import { CurveChart, StepChart, compact, escapeHtml, tickFormatter } from './chart.mjs';

const $ = (id) => document.getElementById(id);
const nf = new Intl.NumberFormat('en-US');
const PAGE_SIZE = 25;

// ------------------------------------------------------------------ formatting

function fmtInt(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'bigint') return v.toLocaleString('en-US');
  if (typeof v === 'string') return BigInt(v).toLocaleString('en-US');
  return nf.format(Math.round(v));
}

function fmtMs(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

function fmtBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 2 : 1)} MB`;
}

function fmtGap(g) {
  if (g === null || g === undefined) return '—';
  if (g <= 0) return '0%';
  const pct = g * 100;
  return `${pct >= 1 ? pct.toFixed(2) : pct.toPrecision(3)}%`;
}

function fmtPct(part, whole) {
  if (!whole) return '';
  const p = (Number(part) / Number(whole)) * 100;
  if (p > 99.5 && part !== whole) return `${Math.min(p, 99.9).toFixed(1)}%`;
  return `${p < 10 && p > 0 ? p.toFixed(1) : p.toFixed(0)}%`;
}

function safeFileName(s) {
  return (String(s || 'solution').replace(/\.json(\.gz)?$|\.gz$/i, '').replace(/[^\w.-]+/g, '_').slice(0, 80)) || 'solution';
}

// ------------------------------------------------------------------ state

const state = {
  info: null,           // the worker's 'ready' message
  seq: 0,
  loadId: 0,
  pendingFile: null,    // dropped before the solver was ready
  problem: null,        // { summary, name, bytes, gzip }
  solving: null,        // { id, t0, timeLimitMs, cost: {xs, ys}, bound: {xs, ys}, last }
  result: null,         // the worker's 'result' message, plus the problem name
  sweeping: null,       // { id, t0, timeLimitMs, points (live, by limit), stopping }
  sweep: null,          // the worker's 'sweep-result' message (every point with its plan)
  selected: -1,         // the sweep point shown as the result
  table: null,
};

const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
worker.onmessage = (e) => handle(e.data);
worker.onerror = (e) => {
  if (e.preventDefault) e.preventDefault();
  fatal(`The solver could not start: ${e.message || 'its Worker failed to load'}.`);
};

const costChart = new StepChart($('cost-chart'), {
  yTitle: 'cost',
  xTickFormat: (ticks, step) => (step < 0.1
    ? (v) => `${Math.round(v * 1000)} ms`
    : tickFormatter(ticks, step, ' s')),
  empty: 'The best cost appears here as the search finds answers',
  ariaLabel: 'Best cost over time',
  formatHoverX: (x) => fmtMs(x * 1000),
  formatHoverY: (y) => fmtInt(y),
});
const usageChart = new StepChart($('usage-chart'), {
  yTitle: 'memory in use',
  yFromZero: true,
  empty: 'No usage profile',
  ariaLabel: 'Memory usage over time',
  formatHoverX: (x) => `time ${fmtInt(Math.floor(x))}`,
  formatHoverY: (y) => fmtInt(y),
});

const sweepChart = new CurveChart($('sweep-chart'), {
  empty: 'Run the sweep: each point appears as it is solved',
  ariaLabel: 'Cost against usage limit',
  formatY: null,
  onPick: (k) => showSweepPoint(k),
  describe: (k) => {
    const p = sweepPoints()[k];
    if (!p) return '';
    return `<div class="readout-x">limit ${escapeHtml(fmtInt(p.limit))}</div>` +
      `<div>${p.feasible ? `cost <b>${escapeHtml(fmtInt(p.cost))}</b>` : '<b>nothing fits</b>'}</div>` +
      `<div>bound <b>${escapeHtml(fmtInt(p.lowerBound))}</b></div>` +
      `<div>peak <b>${escapeHtml(fmtInt(p.peakUsage))}</b></div>`;
  },
});

function fatal(text) {
  const el = $('fatal');
  el.textContent = text;
  el.hidden = false;
  const engine = $('engine');
  engine.className = 'engine failed';
  $('engine-text').textContent = 'Solver unavailable';
}

// ------------------------------------------------------------------ messages

function handle(m) {
  switch (m.type) {
    case 'ready': return onReady(m);
    case 'loading': return m.id === state.loadId && onLoading(m);
    case 'loaded': return m.id === state.loadId && onLoaded(m);
    case 'details': return m.id === state.loadId && onDetails(m);
    case 'progress': return state.solving && m.id === state.solving.id && onProgress(m.progress);
    case 'sweep-point': return state.sweeping && m.id === state.sweeping.id && onSweepPoint(m.point);
    case 'sweep-result': return state.sweeping && m.id === state.sweeping.id && onSweepResult(m);
    case 'result':
      if (m.fromFile) return m.id === state.solutionId && onSolutionShown(m);
      if (m.fromSweep !== undefined) return m.id === state.planId && onPlanShown(m);
      return state.solving && m.id === state.solving.id && onResult(m);
    case 'error': return onError(m);
    default: return undefined;
  }
}

function onReady(info) {
  state.info = info;
  const engine = $('engine');
  const single = info.backend !== 'threads';
  engine.className = `engine ${single ? 'fallback' : 'ready'}`;
  $('engine-text').textContent = single
    ? 'WebAssembly · 1 thread'
    : `WebAssembly · ${info.threads} thread${info.threads === 1 ? '' : 's'}`;
  $('version').textContent = info.version;
  // The time limit starts at the package's default (the field is empty until then).
  if ($('time-limit').value === '') $('time-limit').value = String(info.defaultTimeLimitMs / 1000);
  const threads = $('threads');
  if (single) {
    threads.value = '1';
    threads.max = '1';
    threads.disabled = true;
    $('threads-unit').textContent = 'threads need cross-origin isolation';
  } else {
    threads.max = String(info.threads);
    threads.value = String(info.threads);
    $('threads-unit').textContent = `of ${info.cores} core${info.cores === 1 ? '' : 's'}`;
  }
  if (single || !info.isolated) {
    $('isolation-note').hidden = false;
    if (info.threadFallback) {
      $('isolation-text').textContent = `${info.threadFallback.replace(/^running on one thread: /, '')
        .replace(/^./, (c) => c.toUpperCase()).replace(/\s*\(serve it with.*\)$/, '')}.`;
    }
  }
  $('dropzone').disabled = false;
  $('example-button').disabled = false;
  if (state.pendingFile) {
    const f = state.pendingFile;
    state.pendingFile = null;
    loadFile(f);
  }
}

function onError(m) {
  if (m.op === 'init') {
    fatal(`The solver could not start: ${m.message}`);
  } else if (m.op === 'load' && m.id === state.loadId) {
    showLoadError(m);
  } else if (m.op === 'solution' && m.id === state.solutionId) {
    setLoadStatus('');
    showSolutionError(m.message);
  } else if (m.op === 'sweep' && state.sweeping && m.id === state.sweeping.id) {
    finishSweeping();
    $('sweep-error').textContent = `The sweep failed: ${m.message}`;
    $('sweep-error').hidden = false;
  } else if (m.op === 'plan' && m.id === state.planId) {
    $('sweep-error').textContent = `This plan cannot be shown: ${m.message}`;
    $('sweep-error').hidden = false;
  } else if (m.op === 'solve' && state.solving && m.id === state.solving.id) {
    finishSolving();
    const fe = $('form-error');
    fe.textContent = `The solver failed: ${m.message}`;
    fe.hidden = false;
  }
}

// ------------------------------------------------------------------ loading

async function loadFile(file) {
  if (!state.info) {
    state.pendingFile = file;
    setLoadStatus(`Waiting for the solver to start before reading ${file.name}…`, true);
    return;
  }
  if (await looksLikeSolution(file)) openSolution(file);
  else startLoad({ file, name: file.name }, file.name, file.size);
}

// A solution file (text starting with '[' or with the CLI's '#' progress
// lines), told apart from a problem (JSON starting with '{', or gzip) by its
// first bytes: the page's thread reads only those.
async function looksLikeSolution(file) {
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  for (const b of head) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x5b || b === 0x23;
  }
  return false;
}

// Evaluates a solution of the loaded problem and shows it as the result; the
// solve form can then start from it.
function openSolution(file) {
  $('solution-error').hidden = true;
  if (!state.problem) {
    showLoadError({
      code: 'ERR_NO_PROBLEM',
      message: `${file.name} looks like a solution ([s0, s1, ...]). Load its problem first, then drop the solution to evaluate it and solve from it.`,
    });
    return;
  }
  if (state.solving) {
    showSolutionError('A search is running: stop it before opening a solution.');
    return;
  }
  const id = ++state.seq;
  state.solutionId = id;
  setLoadStatus(`Reading the solution ${file.name}…`, true);
  worker.postMessage({ op: 'solution', id, file, name: file.name });
}

function showSolutionError(text) {
  $('solution-error').textContent = `This solution cannot be used: ${text}`;
  $('solution-error').hidden = false;
}

function onSolutionShown(m) {
  setLoadStatus('');
  $('solution-error').hidden = true;
  state.result = { ...m, name: state.problem ? state.problem.name : 'solution' };
  renderResult();
  $('from-shown').disabled = false;
  $('from-shown').checked = true;
  const r = m.result;
  announce(`Solution ${m.fromFile}: cost ${fmtInt(r.cost)}, ${r.feasible ? 'feasible' : 'not feasible'}.`);
}

function loadExample() {
  startLoad({ url: new URL('example.json', document.baseURI).href, name: 'example.json' }, 'the example', null);
}

function startLoad(msg, label, size) {
  const id = ++state.seq;
  state.loadId = id;
  if (state.solving) finishSolving();
  if (state.sweeping) finishSweeping();
  state.problem = null;
  state.result = null;
  $('from-shown').checked = false;
  $('from-shown').disabled = true;
  $('solution-error').hidden = true;
  state.table = null;
  $('load-error').hidden = true;
  $('summary').hidden = true;
  $('solve-card').hidden = true;
  $('sweep-card').hidden = true;
  $('result-card').hidden = true;
  $('nodes-card').hidden = true;
  $('howto').hidden = true;
  setLoadStatus(`Reading ${label}${size != null ? ` (${fmtBytes(size)})` : ''}…`, true);
  state.loading = { label, t0: performance.now() };
  worker.postMessage({ op: 'load', id, ...msg });
}

function setLoadStatus(text, busy) {
  const el = $('load-status');
  el.innerHTML = text ? `${busy ? '<span class="spinner" aria-hidden="true"></span>' : ''}<span>${escapeHtml(text)}</span>` : '';
}

// Bytes read and parsed so far (they go together: each piece is parsed as it
// arrives), on the bar and in words.
function onLoading(m) {
  if (m.stage !== 'progress' || !state.loading) return;
  const bar = $('load-progress');
  bar.hidden = false;
  if (m.bytesTotal) {
    bar.max = m.bytesTotal;
    bar.value = m.bytesRead;
    const pct = Math.floor((100 * m.bytesRead) / m.bytesTotal);
    setLoadStatus(`Reading and parsing ${state.loading.label}: ${fmtBytes(m.bytesRead)} of ${fmtBytes(m.bytesTotal)} (${pct} %)…`, true);
  } else {
    bar.removeAttribute('value');
    setLoadStatus(`Reading and parsing ${state.loading.label}: ${fmtBytes(m.bytesRead)}…`, true);
  }
}

function showLoadError(m) {
  setLoadStatus('');
  $('load-progress').hidden = true;
  const label = state.loading ? state.loading.label : 'This file';
  $('load-error-title').textContent = m.code === 'ERR_INVALID_INPUT' ? `${label} is not a valid problem.`
    : m.code === 'ERR_OUT_OF_MEMORY' ? `${label} is too large for this browser tab.`
      : `${label} could not be loaded.`;
  $('load-error-text').textContent = m.code === 'ERR_OUT_OF_MEMORY'
    ? `${m.message}\n\nA browser tab's WebAssembly memory stops at 4 GB. The command-line solver, built from the ` +
      `same core, has no such limit:\n\n  iopddl ${label} 300`
    : m.message;
  $('load-error').hidden = false;
  $('dropzone').classList.remove('compact');
  $('howto').hidden = false;
}

function onLoaded(m) {
  const s = m.summary;
  state.problem = { summary: s, name: s.name || state.loading.label };
  setLoadStatus('');
  $('load-progress').hidden = true;
  $('s-name').textContent = s.name || '(unnamed)';
  $('s-source').textContent = `${state.loading.label} · ${fmtBytes(s.inputBytes)}${s.gzip ? ', gzip' : ''}`;
  $('s-source').title = `digest ${s.digest} (the same as iopddl check's)`;
  $('s-source').dataset.digest = s.digest;
  $('s-nodes').textContent = fmtInt(s.nodes);
  $('s-edges').textContent = fmtInt(s.edges);
  $('s-strategies').innerHTML = `${fmtInt(s.strategies)}<small>up to ${fmtInt(s.maxStrategies)} per node</small>`;
  $('s-limit').innerHTML = s.usageLimit === null ? 'none<small>no memory limit</small>' : escapeHtml(fmtInt(s.usageLimit));
  $('s-span').innerHTML = s.timeSpan === null ? '—'
    : `${escapeHtml(fmtInt(s.timeSpan.start))} – ${escapeHtml(fmtInt(s.timeSpan.end))}<small>${fmtInt(s.segments)} segments</small>`;
  state.problem.loadText = `Loaded in ${fmtMs(m.totalMs)}: read, ${s.gzip ? 'inflated, ' : ''}parsed and ` +
    'checked piece by piece as it arrived.';
  $('s-load').textContent = `${state.problem.loadText} Reading node details for the table…`;
  $('summary').hidden = false;
  $('dropzone').classList.add('compact');
  resetSolvePanel();
  resetSweepPanel();
  $('solve-card').hidden = false;
  $('sweep-card').hidden = false;
  announce(`Loaded ${s.name || 'the problem'}: ${fmtInt(s.nodes)} nodes, ${fmtInt(s.edges)} edges.`);
}

function onDetails(m) {
  if (!state.problem) return;
  state.problem.detailsError = m.error || null;
  $('s-load').textContent = `${state.problem.loadText} ` +
    (m.error ? `Node details unavailable (${m.error}).`
      : `Node details for the table read in ${fmtMs(m.ms)}.`);
}

// ------------------------------------------------------------------ solving

function resetSolvePanel() {
  $('m-cost').textContent = '—';
  $('m-cost-sub').innerHTML = '&nbsp;';
  $('m-bound').textContent = '—';
  $('m-gap').textContent = '—';
  $('m-elapsed').textContent = '—';
  $('m-elapsed-sub').innerHTML = '&nbsp;';
  setProgress(0);
  $('solve-state').hidden = true;
  $('form-error').hidden = true;
  costChart.update({ series: [], refs: [], xMin: 0, xMax: 1 });
}

function setProgress(fraction) {
  const pct = Math.max(0, Math.min(100, fraction * 100));
  $('progress-bar').style.width = `${pct}%`;
  $('progress').setAttribute('aria-valuenow', String(Math.round(pct)));
}

function readControls() {
  const errors = [];
  const tl = Number($('time-limit').value);
  const okTl = Number.isFinite(tl) && tl >= 0.1 && tl <= 3600;
  $('time-limit').setAttribute('aria-invalid', String(!okTl));
  if (!okTl) errors.push('the time limit must be between 0.1 and 3600 seconds');
  const th = Number($('threads').value);
  const maxTh = Number($('threads').max) || 1;
  const okTh = Number.isInteger(th) && th >= 1 && th <= maxTh;
  $('threads').setAttribute('aria-invalid', String(!okTh));
  if (!okTh) errors.push(`threads must be a whole number from 1 to ${maxTh}`);
  const seedText = $('seed').value.trim();
  const okSeed = /^\d{1,20}$/.test(seedText) && BigInt(seedText) < (1n << 64n);
  $('seed').setAttribute('aria-invalid', String(!okSeed));
  if (!okSeed) errors.push('the seed must be a whole number from 0 to 2^64 − 1');
  const params = parseParams($('params').value);
  $('params').setAttribute('aria-invalid', String(!!params.error));
  if (params.error) errors.push(params.error);
  return { errors, timeLimitMs: Math.round(tl * 1000), threads: th, seed: okSeed ? BigInt(seedText) : 0n, params: params.values };
}

// The search parameters field: name=value pairs apart by spaces or commas,
// as the CLI's --set. Only the form is checked here; the names and ranges
// are the core's (the package rejects an unknown name or a value out of
// range, and the page shows its message).
function parseParams(text) {
  const values = Object.create(null);
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(item);
    if (!m) return { values, error: `search parameter “${item}”: write name=value` };
    const v = Number(m[2]);
    if (!Number.isFinite(v)) return { values, error: `search parameter ${m[1]}: “${m[2]}” is not a number` };
    if (m[1] in values) return { values, error: `search parameter ${m[1]} is given twice` };
    values[m[1]] = v;
  }
  return { values, error: null };
}

function startSolve() {
  if (!state.problem || state.solving) return;
  const c = readControls();
  const fe = $('form-error');
  if (c.errors.length) {
    fe.textContent = `Check the settings: ${c.errors.join('; ')}.`;
    fe.hidden = false;
    return;
  }
  fe.hidden = true;
  // Read before the form is disabled for the search.
  const fromShown = !$('from-shown').disabled && $('from-shown').checked;
  const id = ++state.seq;
  state.solving = {
    id, t0: performance.now(), timeLimitMs: c.timeLimitMs,
    cost: { xs: [], ys: [] }, bound: { xs: [], ys: [] }, last: null, stopping: false,
    restarts: [], liveEpoch: 0,
  };
  resetSolvePanel();
  setSolvingUi(true);
  $('result-card').hidden = true;
  $('nodes-card').hidden = true;
  const badge = $('solve-state');
  badge.className = 'badge running';
  badge.textContent = 'Searching';
  badge.hidden = false;
  state.timer = setInterval(tick, 100);
  tick();
  announce('Solving.');
  worker.postMessage({ op: 'solve', id, timeLimitMs: c.timeLimitMs, threads: c.threads, seed: c.seed, params: c.params, fromShown });
}

function setSolvingUi(on) {
  $('solve-button').disabled = on || !!state.sweeping;
  $('sweep-button').disabled = on || !!state.sweeping;
  $('stop-button').disabled = !on;
  $('stop-button').lastChild.textContent = ' Stop';
  for (const id of ['time-limit', 'seed', 'params']) $(id).disabled = on;
  $('from-shown').disabled = on || !state.result || !state.result.result.hasSolution;
  $('threads').disabled = on || (state.info && state.info.backend !== 'threads');
}

function stopSolve() {
  if (state.sweeping) return stopSweep();
  const s = state.solving;
  if (!s || s.stopping) return;
  s.stopping = true;
  $('stop-button').disabled = true;
  $('stop-button').lastChild.textContent = ' Stopping…';
  $('solve-state').textContent = 'Stopping';
  worker.postMessage({ op: 'stop', id: s.id });
}

function finishSolving() {
  clearInterval(state.timer);
  state.timer = null;
  state.solving = null;
  setSolvingUi(false);
}

function tick() {
  const s = state.solving;
  if (!s) return;
  const ms = performance.now() - s.t0;
  $('m-elapsed').textContent = fmtMs(ms);
  $('m-elapsed-sub').textContent = `of ${fmtMs(s.timeLimitMs)}`;
  setProgress(ms / s.timeLimitMs);
  drawCostChart(Math.min(ms, s.timeLimitMs) / 1000, Math.max(s.timeLimitMs / 1000, ms / 1000));
}

function onProgress(p) {
  const s = state.solving;
  s.last = p;
  const t = p.elapsedMs / 1000;
  if (p.feasible && p.cost !== null) {
    const y = Number(p.cost);
    const ys = s.cost.ys;
    if (!ys.length || ys[ys.length - 1] !== y) { s.cost.xs.push(t); ys.push(y); }
  }
  if (p.lowerBound !== null) {
    const y = Number(p.lowerBound);
    const ys = s.bound.ys;
    if (!ys.length || ys[ys.length - 1] !== y) { s.bound.xs.push(t); ys.push(y); }
  }
  // A restart shows as it happens (every report carries the epoch, so one
  // missed between two reports still does); the result's list replaces these.
  if (p.epoch > s.liveEpoch) {
    s.liveEpoch = p.epoch;
    s.restarts.push(restartMark(p.epochStartMs, p.epoch, null));
  }
  showLive(p.cost, p.feasible, p.hasSolution, p.lowerBound, p.gap);
}

// A restart as a mark on the cost chart: when epoch `epoch` began, and, once
// the solve's record has it, the best of the epoch it ended.
function restartMark(ms, epoch, endedBestCost) {
  return {
    x: ms / 1000,
    label: '↺',
    title: `restart: epoch ${epoch} began` + (endedBestCost === null ? '' : `; the one before had ${fmtInt(endedBestCost)}`),
  };
}

function showLive(cost, feasible, hasSolution, bound, gap) {
  $('m-cost').textContent = hasSolution ? fmtInt(cost) : '—';
  $('m-cost-sub').textContent = !hasSolution ? 'no answer yet' : feasible ? 'feasible' : 'over the limit (still repairing)';
  $('m-bound').textContent = fmtInt(bound);
  $('m-gap').textContent = feasible ? fmtGap(gap) : '—';
}

// The y range follows the best cost: a first answer far above it, or a lower
// bound far below it, would flatten everything that matters, so they are left
// off the scale (and said so above the chart).
function costRange(cost, bound) {
  const n = cost.ys.length;
  if (!n) return null;
  const best = cost.ys[n - 1];
  const mag = Math.max(Math.abs(best), 1);
  let hi = best;
  for (const y of cost.ys) if (y > hi && (best <= 0 || y <= 2 * best)) hi = y;
  const spread = hi - best;
  const b = bound.ys.length ? bound.ys[bound.ys.length - 1] : null;
  let lo;
  let boundShown = false;
  if (b !== null && best - b <= Math.max(3 * spread, 0.25 * mag)) {
    lo = Math.min(b, best);
    boundShown = true;
  } else {
    lo = best - Math.max(spread * 0.15, mag * 0.005);
  }
  if (hi - lo < mag * 0.01) {
    const pad = Math.max(mag * 0.02, 1);
    return { range: [lo - pad, hi + pad], boundShown };
  }
  hi = Math.max(hi, best + (best - lo) * 0.25);
  const pad = (hi - lo) * 0.08;
  return { range: [lo - pad, hi + pad], boundShown };
}

function drawCostChart(now, xMax) {
  const s = state.solving;
  const r = costRange(s.cost, s.bound);
  const notes = [];
  if (r && s.cost.ys[0] > r.range[1]) {
    notes.push(`first answer ${fmtInt(s.cost.ys[0])} at ${fmtMs(s.cost.xs[0] * 1000)} is above the scale`);
  }
  if (r && !r.boundShown && s.bound.ys.length) {
    notes.push(`lower bound ${fmtInt(s.bound.ys[s.bound.ys.length - 1])} is below it`);
  }
  const note = $('cost-note');
  note.textContent = notes.join('; ');
  note.hidden = !notes.length;
  const range = r && r.range;
  costChart.update({
    xMin: 0,
    xMax: Math.max(xMax, 1e-3),
    yRange: range,
    series: [
      { xs: s.bound.xs, ys: s.bound.ys, color: '--series-bound', dash: [5, 4], width: 1.75, label: 'lower bound', xEnd: now },
      { xs: s.cost.xs, ys: s.cost.ys, color: '--series-cost', label: 'best cost', xEnd: now, dot: true },
    ],
    refs: [],
    marks: s.restarts,
    ariaLabel: s.restarts.length
      ? `Best cost over time; the search restarted ${s.restarts.length} time${s.restarts.length > 1 ? 's' : ''}, at ${s.restarts.map((m) => fmtMs(m.x * 1000)).join(', ')}`
      : 'Best cost over time',
  });
}

function onResult(m) {
  const s = state.solving;
  const r = m.result;
  finishSolving();
  const elapsed = r.elapsedMs / 1000;
  // The exact history of improvements replaces the sampled one.
  const hist = r.stats.history.filter((h) => h.feasible);
  if (hist.length) {
    s.cost.xs = hist.map((h) => h.ms / 1000);
    s.cost.ys = hist.map((h) => Number(h.cost));
  }
  if (r.lowerBound !== null && s.bound.ys[s.bound.ys.length - 1] !== Number(r.lowerBound)) {
    s.bound.xs.push(Math.min(elapsed, r.stats.solverMs / 1000));
    s.bound.ys.push(Number(r.lowerBound));
  }
  // Each restart (a new epoch, every thread afresh) as a mark on the chart.
  s.restarts = r.stats.epochs.map((e) => restartMark(e.ms, e.epoch, e.endedBestCost));
  state.solving = s;  // for drawCostChart
  drawCostChart(elapsed, elapsed);
  state.solving = null;
  $('m-elapsed').textContent = fmtMs(r.elapsedMs);
  $('m-elapsed-sub').textContent = m.stopped ? 'stopped' : r.provenOptimal ? 'stopped early: optimal' : `limit ${fmtMs(m.options.timeLimitMs)}`;
  setProgress(1);
  showLive(r.cost, r.feasible, r.hasSolution, r.lowerBound, r.gap);
  const badge = $('solve-state');
  badge.className = `badge ${m.stopped ? 'warn' : 'ok'}`;
  badge.textContent = m.stopped ? 'Stopped' : 'Done';
  state.result = { ...m, name: state.problem ? state.problem.name : 'solution' };
  renderResult();
  $('from-shown').disabled = !r.hasSolution;
  announce(r.hasSolution
    ? `Solved${m.stopped ? ' (stopped)' : ''}: cost ${fmtInt(r.cost)}, ${r.feasible ? 'feasible' : 'not feasible'}${r.provenOptimal ? ', proven optimal' : ''}.`
    : 'The search ended without an answer.');
}

// ------------------------------------------------------------------ memory vs cost

// The points drawn: the final ones (with plans) or those solved so far.
function sweepPoints() {
  if (state.sweeping) return state.sweeping.points;
  return state.sweep ? state.sweep.sweep.points : [];
}

function resetSweepPanel() {
  state.sweep = null;
  state.selected = -1;
  $('sweep-state').hidden = true;
  $('sweep-error').hidden = true;
  $('sweep-status').textContent = '';
  $('sweep-download').disabled = true;
  drawSweep();
}

function startSweep() {
  if (!state.problem || state.solving || state.sweeping) return;
  const c = readControls();
  const n = Number($('sweep-points').value);
  const okN = Number.isInteger(n) && n >= 1 && n <= 50;
  $('sweep-points').setAttribute('aria-invalid', String(!okN));
  if (!okN) c.errors.push('the points must be a whole number from 1 to 50');
  const fe = $('sweep-error');
  if (c.errors.length) {
    fe.textContent = `Check the settings: ${c.errors.join('; ')}.`;
    fe.hidden = false;
    return;
  }
  resetSweepPanel();
  const id = ++state.seq;
  state.sweeping = { id, t0: performance.now(), timeLimitMs: c.timeLimitMs, count: n, points: [], stopping: false };
  setSweepingUi(true);
  const badge = $('sweep-state');
  badge.className = 'badge running';
  badge.textContent = 'Sweeping';
  badge.hidden = false;
  state.sweepTimer = setInterval(sweepStatus, 200);
  sweepStatus();
  drawSweep();
  announce('Sweeping the usage limit.');
  worker.postMessage({ op: 'sweep', id, points: n, timeLimitMs: c.timeLimitMs, threads: c.threads, seed: c.seed, params: c.params });
}

function setSweepingUi(on) {
  $('sweep-button').disabled = on || !!state.solving;
  $('solve-button').disabled = on || !!state.solving;
  $('sweep-stop').disabled = !on;
  $('sweep-stop').lastChild.textContent = ' Stop';
  $('stop-button').disabled = !on && !state.solving;
  $('sweep-points').disabled = on;
  for (const id of ['time-limit', 'seed', 'params']) $(id).disabled = on;
  $('threads').disabled = on || (state.info && state.info.backend !== 'threads');
}

function stopSweep() {
  const s = state.sweeping;
  if (!s || s.stopping) return;
  s.stopping = true;
  $('sweep-stop').disabled = true;
  $('sweep-stop').lastChild.textContent = ' Stopping…';
  $('stop-button').disabled = true;
  $('sweep-state').textContent = 'Stopping';
  worker.postMessage({ op: 'stop', id: s.id });
}

function finishSweeping() {
  clearInterval(state.sweepTimer);
  state.sweepTimer = null;
  state.sweeping = null;
  setSweepingUi(false);
}

function sweepStatus() {
  const s = state.sweeping;
  if (!s) return;
  $('sweep-status').textContent = `${s.points.length} of ${s.count} point${s.count === 1 ? '' : 's'} solved · ` +
    `${fmtMs(performance.now() - s.t0)} of ${fmtMs(s.timeLimitMs)}`;
}

function onSweepPoint(point) {
  const pts = state.sweeping.points;
  let at = pts.findIndex((q) => q.limit >= point.limit);
  if (at < 0) at = pts.length;
  if (pts[at] && pts[at].limit === point.limit) pts[at] = point;
  else pts.splice(at, 0, point);
  sweepStatus();
  drawSweep();
}

function onSweepResult(m) {
  const stopped = m.stopped;
  finishSweeping();
  state.sweep = m;
  const r = m.sweep;
  const badge = $('sweep-state');
  badge.className = `badge ${stopped ? 'warn' : 'ok'}`;
  badge.textContent = stopped ? 'Stopped' : 'Done';
  badge.hidden = false;
  const proven = r.points.filter((p) => p.provenOptimal).length;
  $('sweep-status').textContent = `${r.points.length} point${r.points.length === 1 ? '' : 's'} in ${fmtMs(r.elapsedMs)}` +
    `${stopped ? ' (stopped: the points not yet solved had little or no time)' : ''}; ${proven} proven optimal. ` +
    `No plan peaks below ${fmtInt(r.leastPeak)}` +
    (r.freePlan ? `; without a limit the cheapest found costs ${fmtInt(r.freePlan.cost)} at a peak of ${fmtInt(r.freePlan.peakUsage)}.` : '.');
  $('sweep-download').disabled = !r.points.length;
  drawSweep();
  announce(`Sweep ${stopped ? 'stopped' : 'done'}: ${r.points.length} points.`);
}

function drawSweep() {
  const pts = sweepPoints();
  const limit = state.problem ? state.problem.summary.usageLimit : null;
  sweepChart.update({
    points: pts.map((p) => ({
      x: Number(p.limit), cost: Number(p.cost), bound: p.lowerBound === null ? null : Number(p.lowerBound), feasible: p.feasible,
    })),
    ref: limit === null ? null : { x: Number(limit), label: `file's limit ${compact(Number(limit))}` },
    selected: state.selected,
    ariaLabel: pts.length ? `Cost against usage limit: ${pts.length} points, from ${fmtInt(pts[0].limit)} to ${fmtInt(pts[pts.length - 1].limit)}` : undefined,
  });
  const rows = pts.map((p, k) => {
    const fits = p.feasible;
    const status = p.provenInfeasible ? 'nothing fits' : !fits ? 'none found' : p.provenOptimal ? 'optimal' : '';
    const fileLimit = limit !== null && p.limit === limit;
    return `<tr class="${k === state.selected ? 'selected' : ''}"><td class="num">${fmtInt(p.limit)}${fileLimit ? '<span class="of"> (the file\'s)</span>' : ''}</td>` +
      `<td class="num">${fits ? fmtInt(p.cost) : '—'}</td><td class="num">${fmtInt(p.lowerBound)}</td>` +
      `<td class="num">${fits ? fmtGap(p.gap) : escapeHtml(status)}</td><td class="num">${fmtInt(p.peakUsage)}</td>` +
      `<td class="num">${fmtMs(p.seconds * 1000)}</td>` +
      `<td>${state.sweep && !state.sweeping ? `<button type="button" class="btn btn-small" data-point="${k}">Show</button>` : ''}` +
      `${fits && status ? ` <span class="of">${escapeHtml(status)}</span>` : ''}</td></tr>`;
  });
  $('sweep-rows').innerHTML = rows.join('') ||
    '<tr><td class="empty" colspan="7">No points yet.</td></tr>';
}

// A point's plan in the result views (cost split, memory chart, node table,
// downloads), judged at the point's limit.
function showSweepPoint(k) {
  if (!state.sweep || state.sweeping || state.solving) return;
  const p = state.sweep.sweep.points[k];
  if (!p) return;
  state.selected = k;
  drawSweep();
  const id = ++state.seq;
  state.planId = id;
  worker.postMessage({
    op: 'plan', id, assignment: p.assignment, limit: p.limit, lowerBound: p.lowerBound, gap: p.gap,
    provenOptimal: p.provenOptimal, options: state.sweep.options,
  });
}

function onPlanShown(m) {
  state.result = { ...m, name: state.problem ? state.problem.name : 'solution' };
  renderResult();
  $('from-shown').disabled = false;
  const r = m.result;
  announce(`Plan at limit ${fmtInt(m.fromSweep)}: cost ${fmtInt(r.cost)}, ${r.feasible ? 'feasible' : 'not feasible'}.`);
}

function sweepJson() {
  const { sweep: r, options } = state.sweep;
  const str = (v) => (v === null || v === undefined ? null : String(v));
  const s = state.problem.summary;
  return `${JSON.stringify({
    problem: state.problem.name,
    fileLimit: str(s.usageLimit),
    leastPeak: str(r.leastPeak),
    freePlan: r.freePlan && { cost: str(r.freePlan.cost), peakUsage: str(r.freePlan.peakUsage), lowerBound: str(r.freePlan.lowerBound) },
    stoppedEarly: !!state.sweep.stopped,
    elapsedMs: Math.round(r.elapsedMs),
    timeLimitMs: options.timeLimitMs,
    threads: options.threads,
    seed: str(options.seed),
    solver: `iopddl-wasm ${state.info ? state.info.version : ''}`.trim(),
    points: r.points.map((p) => ({
      limit: str(p.limit), feasible: p.feasible, cost: str(p.cost), lowerBound: str(p.lowerBound), gap: p.gap,
      peakUsage: str(p.peakUsage), seconds: p.seconds, firstFeasibleMs: p.firstFeasibleMs,
      provenOptimal: p.provenOptimal, provenInfeasible: p.provenInfeasible, fromNeighbour: p.fromNeighbour,
      assignment: p.assignment,
    })),
  }, null, 1).replace(/\[\s+((?:-?\d+,\s+)*-?\d+)\s+\]/g, (all, list) => `[${list.replace(/\s+/g, ' ')}]`)}\n`;
}

// ------------------------------------------------------------------ result

function badge(text, kind, title) {
  return `<span class="badge ${kind}"${title ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(text)}</span>`;
}

function renderResult() {
  const { result: r, evaluation: ev, profile, columns, stopped } = state.result;
  const card = $('result-card');
  const badges = [];
  if (!r.hasSolution) {
    badges.push(badge(r.provenInfeasible ? 'Proven infeasible' : 'No answer', 'bad'));
  } else {
    badges.push(r.feasible ? badge('Feasible', 'ok') : badge('Infeasible', 'bad',
      ev && !ev.withinLimit ? 'over the usage limit' : 'uses a forbidden choice'));
    if (r.provenOptimal) badges.push(badge('Proven optimal', 'ok'));
    if (r.provenInfeasible) badges.push(badge('Proven infeasible', 'bad'));
  }
  if (stopped) badges.push(badge('Stopped early: best so far', 'warn'));
  if (state.result.fromFile) badges.push(badge(`From ${state.result.fromFile}`, 'neutral', 'evaluated, not searched'));
  if (state.result.fromSweep !== undefined) {
    badges.push(badge(`Sweep point: limit ${fmtInt(state.result.fromSweep)}`, 'neutral', 'judged at that limit'));
  }
  if (state.result.startedFromShown) badges.push(badge('Warm start', 'neutral', 'started from the answer shown before'));
  $('result-badges').innerHTML = badges.join('');
  card.hidden = false;
  if (!r.hasSolution || !ev) {
    $('r-total').textContent = '—';
    $('nodes-card').hidden = true;
    return;
  }
  $('r-total').textContent = fmtInt(ev.totalCost);
  $('r-node').textContent = `${fmtInt(ev.nodeCost)} · ${fmtPct(ev.nodeCost, ev.totalCost) || '0%'}`;
  $('r-edge').textContent = `${fmtInt(ev.edgeCost)} · ${fmtPct(ev.edgeCost, ev.totalCost) || '0%'}`;
  const total = Number(ev.totalCost) || 1;
  $('r-split-node').style.width = `${(Number(ev.nodeCost) / total) * 100}%`;
  $('r-split-edge').style.width = `${(Number(ev.edgeCost) / total) * 100}%`;

  const limit = ev.usageLimit;
  $('r-peak').textContent = fmtInt(ev.peakUsage);
  const bar = $('r-peak-bar');
  if (limit !== null) {
    const frac = Number(ev.peakUsage) / Math.max(1, Number(limit));
    bar.style.width = `${Math.min(100, frac * 100)}%`;
    bar.classList.toggle('over', !ev.withinLimit);
    $('r-peak-sub').textContent = `${fmtPct(ev.peakUsage, limit)} of the limit ${fmtInt(limit)}` +
      (ev.peakTime !== null ? `, first reached at time ${fmtInt(ev.peakTime)}` : '') +
      (ev.withinLimit ? '' : ': over the limit');
  } else {
    bar.style.width = '100%';
    bar.classList.remove('over');
    $('r-peak-sub').textContent = `No usage limit${ev.peakTime !== null ? `; reached at time ${fmtInt(ev.peakTime)}` : ''}.`;
  }
  $('r-bound').textContent = fmtInt(r.lowerBound);
  $('r-gap').textContent = fmtGap(r.gap);
  const searched = !state.result.fromFile && state.result.fromSweep === undefined;
  $('r-time').textContent = searched ? fmtMs(r.elapsedMs) : '—';
  $('r-threads').textContent = searched ? `${r.threads}${r.backend === 'single' ? ' (no isolation)' : ''}` : '—';
  $('r-rounds').textContent = searched ? fmtInt(r.stats.rounds) : '—';
  const epochs = searched ? r.stats.epochs : [];
  $('r-restarts').textContent = searched ? fmtInt(epochs.length) : '—';
  $('r-restarts').title = epochs.map((e) => `epoch ${e.epoch} began at ${fmtMs(e.ms)}` +
    (e.opening ? ' (the opening\'s clock)' : `: epoch ${e.epoch - 1} last fell at ${fmtMs(e.endedLastFallMs)}`) +
    (e.endedBestCost === null ? '' : `, its best ${fmtInt(e.endedBestCost)}`)).join('\n');

  const n = columns.strategy.length;
  const preview = [];
  let len = 1;
  for (let i = 0; i < n && len < 400; ++i) { const t = String(columns.strategy[i]); preview.push(t); len += t.length + 2; }
  $('r-line').textContent = `[${preview.join(', ')}${preview.length < n ? ', …' : ''}]`;
  $('r-line').title = `${fmtInt(n)} strategy indices, one per node`;

  if (profile && profile.usage.length) {
    const xs = profile.time.subarray(0, profile.usage.length);
    const xEnd = profile.time[profile.time.length - 1];
    usageChart.update({
      xMin: profile.time[0],
      xMax: xEnd > profile.time[0] ? xEnd : profile.time[0] + 1,
      series: [{ xs, ys: profile.usage, xEnd, color: '--series-usage', fill: true, label: 'usage' }],
      refs: limit !== null ? [{ y: Number(limit), label: `limit ${fmtInt(limit)}`, color: '--series-limit' }] : [],
      ariaLabel: `Memory usage over time: peak ${fmtInt(ev.peakUsage)}${limit !== null ? ` against a limit of ${fmtInt(limit)}` : ''}`,
    });
  } else {
    usageChart.update({ series: [], refs: [], xMin: 0, xMax: 1 });
  }
  setupTable(columns, ev);
}

// ------------------------------------------------------------------ node table

function setupTable(cols, ev) {
  const n = cols.strategy.length;
  let maxCost = 0;
  const forbidden = state.info.forbiddenCost;  // the core's, through the worker's 'ready'
  if (cols.cost) for (let i = 0; i < n; ++i) if (cols.cost[i] < forbidden && cols.cost[i] > maxCost) maxCost = cols.cost[i];
  state.table = { cols, n, maxCost, order: null, page: 0, peakTime: ev && ev.peakTime !== null ? Number(ev.peakTime) : null };
  const hasDetails = !!cols.cost;
  $('details-note').hidden = hasDetails;
  if (!hasDetails) {
    $('details-note').textContent = 'Costs, usages and intervals of single nodes are unavailable: ' +
      `${(state.problem && state.problem.detailsError) || 'the node details could not be read'}.`;
  }
  $('node-sort').disabled = !hasDetails;
  const peakOption = $('node-filter').querySelector('option[value="peak"]');
  peakOption.disabled = !(cols.lo && state.table.peakTime !== null);
  if (peakOption.disabled && $('node-filter').value === 'peak') $('node-filter').value = 'all';
  $('nodes-card').hidden = false;
  applyTable();
}

function parseQuery(q) {
  const text = q.trim().replace(/\s*[-–]\s*/g, '-');
  if (!text) return { ranges: null };
  const ranges = [];
  for (const tok of text.split(/[\s,;]+/).filter(Boolean)) {
    let m;
    if ((m = /^#?(\d+)$/.exec(tok))) ranges.push([Number(m[1]), Number(m[1])]);
    else if ((m = /^#?(\d+)-#?(\d+)$/.exec(tok))) ranges.push([Math.min(+m[1], +m[2]), Math.max(+m[1], +m[2])]);
    else return { ranges: [], invalid: tok };
  }
  return { ranges };
}

function applyTable() {
  const t = state.table;
  if (!t) return;
  const { cols, n } = t;
  const q = parseQuery($('node-search').value);
  $('node-search').setAttribute('aria-invalid', String(!!q.invalid));
  const peak = $('node-filter').value === 'peak' && cols.lo && t.peakTime !== null;
  const out = new Int32Array(n);
  let k = 0;
  const alive = (i) => !peak || (cols.lo[i] <= t.peakTime && t.peakTime < cols.hi[i]);
  if (q.ranges === null) {
    for (let i = 0; i < n; ++i) if (alive(i)) out[k++] = i;
  } else if (q.ranges.length) {
    const seen = new Uint8Array(n);
    for (const [a, b] of q.ranges) {
      for (let i = a; i <= b && i < n; ++i) if (!seen[i] && alive(i)) { seen[i] = 1; out[k++] = i; }
    }
  }
  let order = out.subarray(0, k);
  const sort = $('node-sort').value;
  if (sort === 'index' && q.ranges && q.ranges.length > 1) order.sort();
  else if (sort === 'cost' && cols.cost) order = order.sort((a, b) => cols.cost[b] - cols.cost[a] || a - b);
  else if (sort === 'usage' && cols.usage) order = order.sort((a, b) => cols.usage[b] - cols.usage[a] || a - b);
  t.order = order;
  t.page = 0;
  t.invalid = q.invalid || null;
  const total = `${fmtInt(n)} node${n === 1 ? '' : 's'}`;
  $('nodes-count').textContent = k === n ? total : `${fmtInt(k)} of ${total} shown`;
  renderTable();
}

function renderTable() {
  const t = state.table;
  const { cols, order } = t;
  const pages = Math.max(1, Math.ceil(order.length / PAGE_SIZE));
  t.page = Math.min(Math.max(0, t.page), pages - 1);
  const start = t.page * PAGE_SIZE;
  const end = Math.min(order.length, start + PAGE_SIZE);
  const rows = [];
  for (let r = start; r < end; ++r) {
    const i = order[r];
    const s = cols.strategy[i];
    let costCell = '—';
    let barCell = '';
    let usageCell = '—';
    let interval = '—';
    if (cols.cost) {
      const c = cols.cost[i];
      const exact = cols.exactCost && cols.exactCost.get(i);
      const text = exact ? fmtInt(exact) : fmtInt(c);
      const forbidden = c >= state.info.forbiddenCost;
      costCell = forbidden ? `<span class="forbidden" title="a forbidden choice">${text}</span>` : text;
      const w = forbidden ? 0 : t.maxCost > 0 ? Math.max(c > 0 ? 1 : 0, (c / t.maxCost) * 100) : 0;
      barCell = `<span class="cbar"><span style="width:${w.toFixed(1)}%"></span></span>`;
      usageCell = fmtInt(cols.usage[i]);
    }
    if (cols.lo) interval = `[${fmtInt(cols.lo[i])}, ${fmtInt(cols.hi[i])})`;
    rows.push(`<tr><td class="num">${i}</td><td class="num">${s}${cols.count ? `<span class="of"> / ${cols.count[i]}</span>` : ''}</td>` +
      `<td class="num">${costCell}</td><td>${barCell}</td><td class="num">${usageCell}</td><td class="num">${interval}</td></tr>`);
  }
  if (!rows.length) {
    const why = t.invalid ? `“${escapeHtml(t.invalid)}” is not a node number or range (e.g. 42 or 100-120).` : 'No node matches.';
    rows.push(`<tr><td class="empty" colspan="6">${why}</td></tr>`);
  }
  $('node-rows').innerHTML = rows.join('');
  $('page-info').textContent = order.length
    ? `${fmtInt(start + 1)}–${fmtInt(end)} of ${fmtInt(order.length)} · page ${fmtInt(t.page + 1)} of ${fmtInt(pages)}`
    : 'No rows';
  $('page-first').disabled = $('page-prev').disabled = t.page === 0;
  $('page-next').disabled = $('page-last').disabled = t.page >= pages - 1;
}

function gotoPage(p) {
  if (!state.table) return;
  state.table.page = p;
  renderTable();
}

// ------------------------------------------------------------------ downloads

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function solutionLine() {
  return `[${Array.from(state.result.columns.strategy).join(', ')}]\n`;
}

function solutionJson() {
  const { result: r, evaluation: ev, options, columns } = state.result;
  const str = (v) => (v === null || v === undefined ? null : String(v));
  return `${JSON.stringify({
    problem: state.result.name,
    nodes: columns.strategy.length,
    cost: str(ev.totalCost),
    nodeCost: str(ev.nodeCost),
    edgeCost: str(ev.edgeCost),
    feasible: r.feasible,
    peakUsage: str(ev.peakUsage),
    peakTime: str(ev.peakTime),
    usageLimit: str(ev.usageLimit),
    lowerBound: str(r.lowerBound),
    gap: r.gap,
    provenOptimal: r.provenOptimal,
    stoppedEarly: !!state.result.stopped,
    elapsedMs: Math.round(r.elapsedMs),
    timeLimitMs: options.timeLimitMs,
    threads: r.threads,
    seed: str(options.seed),
    solver: `iopddl-wasm ${state.info ? state.info.version : ''}`.trim(),
    assignment: Array.from(columns.strategy),
  }, null, 2).replace(/\[\s+((?:\d+,\s+)*\d+)\s+\]/, (all, list) => `[${list.replace(/\s+/g, ' ')}]`)}\n`;
}

// ------------------------------------------------------------------ a11y helper

function announce(text) {
  const el = $('solve-announce');
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}

// ------------------------------------------------------------------ wiring

const fileInput = $('file-input');
$('dropzone').addEventListener('click', () => fileInput.click());
fileInput.addEventListener('change', () => {
  const f = fileInput.files && fileInput.files[0];
  if (f) loadFile(f);
  fileInput.value = '';
});
$('example-button').addEventListener('click', loadExample);
$('solve-form').addEventListener('submit', (e) => { e.preventDefault(); startSolve(); });
$('stop-button').addEventListener('click', stopSolve);
$('sweep-form').addEventListener('submit', (e) => { e.preventDefault(); startSweep(); });
$('sweep-stop').addEventListener('click', stopSweep);
$('sweep-rows').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-point]');
  if (b) showSweepPoint(Number(b.dataset.point));
});
$('sweep-download').addEventListener('click', () => {
  if (state.sweep) download(`${safeFileName(state.problem.name)}.sweep.json`, sweepJson(), 'application/json');
});
$('download-txt').addEventListener('click', () => {
  if (state.result) download(`${safeFileName(state.result.name)}.solution.txt`, solutionLine(), 'text/plain');
});
$('download-json').addEventListener('click', () => {
  if (state.result) download(`${safeFileName(state.result.name)}.solution.json`, solutionJson(), 'application/json');
});

let searchTimer = 0;
$('node-search').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(applyTable, 120);
});
$('node-search').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { clearTimeout(searchTimer); applyTable(); }
});
$('node-filter').addEventListener('change', applyTable);
$('node-sort').addEventListener('change', applyTable);
$('page-first').addEventListener('click', () => gotoPage(0));
$('page-prev').addEventListener('click', () => gotoPage(state.table.page - 1));
$('page-next').addEventListener('click', () => gotoPage(state.table.page + 1));
$('page-last').addEventListener('click', () => gotoPage(Infinity));

// Drop a file anywhere on the window.
let dragDepth = 0;
const hasFiles = (e) => !!e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
function showOverlay(on) {
  $('drop-overlay').hidden = !on;
  document.body.classList.toggle('dragging', on);
}
window.addEventListener('dragenter', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  if (dragDepth++ === 0) showOverlay(true);
});
window.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
});
window.addEventListener('dragleave', (e) => {
  if (!hasFiles(e)) return;
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) showOverlay(false);
});
window.addEventListener('drop', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  dragDepth = 0;
  showOverlay(false);
  const f = e.dataTransfer.files && e.dataTransfer.files[0];
  if (f) loadFile(f);
});

// For tests and the curious: the page's state, read-only.
window.iopddlPage = {
  get ready() { return !!state.info; },
  get info() { return state.info; },
  get solving() { return !!state.solving; },
  get result() { return state.result; },
  get sweeping() { return !!state.sweeping; },
  get sweep() { return state.sweep && state.sweep.sweep; },
  // Where the sweep's points are drawn (CSS pixels in the chart's canvas).
  get sweepPositions() { return sweepChart.positions.map((p) => ({ ...p })); },
  solutionLine: () => (state.result ? solutionLine() : null),
};

// The solver starts once the page knows it will not reload for isolation
// (isolation.js); at once when there is nothing to wait for.
// ?memory=MB caps the solver's memory below the browser's 4 GB (64 to 4096).
const memoryParam = new URLSearchParams(location.search).get('memory');
Promise.resolve(window.iopddlIsolation).then(() => worker.postMessage({
  op: 'init', id: 0, ...(memoryParam === null ? {} : { memoryMB: Number(memoryParam) }),
}));
