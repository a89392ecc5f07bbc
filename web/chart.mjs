// A small canvas chart for step series: the best cost over time and the memory
// usage profile. Axes with round ticks, a horizontal reference line (the usage
// limit), a hover read-out, sharp on high-DPI screens, redrawn on resize.
// Series longer than the plot is wide are reduced to their per-pixel maximum,
// so a profile of 100,000 segments draws as fast as one of 100.

const SI = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z'];

/** Compact number: 1234567 -> "1.23M" (3 significant digits). */
export function compact(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a < 1000) return trimZeros(a >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toPrecision(3));
  let u = 0;
  let x = a;
  while (x >= 999.5 && u < SI.length - 1) { x /= 1000; ++u; }
  const s = x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
  return (v < 0 ? '-' : '') + trimZeros(s) + SI[u];
}

function trimZeros(s) {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Round tick values covering [lo, hi], about `count` of them. */
export function niceTicks(lo, hi, count) {
  if (!(hi > lo)) return { ticks: [lo], step: 1 };
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const ticks = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return { ticks, step };
}

/** Tick labels with just enough digits to tell neighbouring ticks apart. */
export function tickFormatter(ticks, step, unit) {
  const maxAbs = Math.max(...ticks.map(Math.abs));
  let u = 0;
  if (!unit) while (maxAbs / 1000 ** u >= 999.5 && u < SI.length - 1) ++u;
  const scale = 1000 ** u;
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step / scale) + 1e-9)));
  return (v) => (v === 0 ? `0${unit || ''}` : `${(v / scale).toFixed(decimals)}${SI[u]}${unit || ''}`);
}

function css(el, name, fallback) {
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}

// One straight line in a colour, width, dash pattern and opacity (the
// reference lines, the marks, the hover line), leaving the context as it was.
function strokeLine(ctx, x0, y0, x1, y1, { color, width = 1, dash = [], alpha = 1 }) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.globalAlpha = alpha;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.restore();
}

function upperBound(xs, x) {
  // index of the last point with xs[i] <= x, or -1
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

// What both charts share: a canvas and a read-out in the host, redrawn on
// the next frame after a change, a resize or a switch of colour scheme.
class CanvasChart {
  constructor(host, opts) {
    this.host = host;
    this.opts = opts;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'chart-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', opts.ariaLabel || 'chart');
    this.readout = document.createElement('div');
    this.readout.className = 'chart-readout';
    this.readout.hidden = true;
    host.append(this.canvas, this.readout);
    this.ctx = this.canvas.getContext('2d');
    this.frame = 0;
    this.resizeObserver = new ResizeObserver(() => this.schedule());
    this.resizeObserver.observe(host);
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => this.schedule());
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  // Sizes the canvas to its host at the device's pixel ratio and clears it;
  // the host's size and the theme's colours and font, or null when hidden.
  begin() {
    const { canvas, ctx, host } = this;
    const w = host.clientWidth;
    const h = host.clientHeight;
    if (w === 0 || h === 0) return null;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const text = css(host, '--chart-text', '#5d6679');
    const grid = css(host, '--chart-grid', '#e8ebf2');
    const font = `12px ${css(document.body, 'font-family', 'system-ui, sans-serif')}`;
    ctx.font = font;
    ctx.textBaseline = 'middle';
    return { w, h, text, grid, font };
  }
}

export class StepChart extends CanvasChart {
  /**
   * @param {HTMLElement} host  an element to draw in (gets a canvas and a read-out)
   * @param {object} opts  { yTitle, xUnit, formatX, xTickFormat(ticks, step), formatY,
   *                         formatHoverX, formatHoverY, yFromZero, empty, ariaLabel }
   */
  constructor(host, opts = {}) {
    super(host, opts);
    this.data = { series: [], refs: [], xMin: 0, xMax: 1 };
    this.hoverX = null;
    this.canvas.addEventListener('pointermove', (e) => {
      const r = this.canvas.getBoundingClientRect();
      this.hoverPx = e.clientX - r.left;
      this.schedule();
    });
    this.canvas.addEventListener('pointerleave', () => {
      this.hoverPx = null;
      this.schedule();
    });
  }

  /**
   * series: [{ xs, ys, color: '--css-var', fill: bool, dash: [..], label, xEnd }]
   *   a step function: ys[i] holds on [xs[i], xs[i+1]), the last value until xEnd (or xMax).
   * refs:   [{ y, label, color }]  horizontal lines.
   * marks:  [{ x, label, title }]  moments (such as the search's restarts): a
   *   dotted vertical line each, its label at the top, its title in the read-out
   *   when the pointer is near it.
   * yRange: [lo, hi] to show (values outside are clipped); default: all data.
   */
  update(data) {
    this.data = Object.assign({ series: [], refs: [], marks: [], xMin: 0, xMax: 1 }, data);
    if (data.ariaLabel) this.canvas.setAttribute('aria-label', data.ariaLabel);
    this.schedule();
  }

  yRange() {
    if (this.data.yRange) return this.data.yRange;
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of this.data.series) {
      for (let i = 0; i < s.ys.length; ++i) {
        const y = s.ys[i];
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
    }
    for (const r of this.data.refs) {
      if (r.y < lo) lo = r.y;
      if (r.y > hi) hi = r.y;
    }
    if (!Number.isFinite(lo)) return null;
    if (this.opts.yFromZero) lo = Math.min(0, lo);
    if (hi === lo) {
      const pad = Math.abs(hi) * 0.05 || 1;
      return [lo - (this.opts.yFromZero && lo === 0 ? 0 : pad), hi + pad];
    }
    const pad = (hi - lo) * 0.08;
    return [this.opts.yFromZero && lo >= 0 ? lo : lo - pad, hi + pad];
  }

  draw() {
    const frame = this.begin();
    if (!frame) return;
    const { ctx, host } = this;
    const { w, h, text, grid, font } = frame;

    const yr = this.yRange();
    if (!yr) {
      ctx.fillStyle = text;
      ctx.textAlign = 'center';
      ctx.fillText(this.opts.empty || 'No data yet', w / 2, h / 2);
      this.readout.hidden = true;
      return;
    }
    const { xMin, xMax } = this.data;
    const yt = niceTicks(yr[0], yr[1], Math.max(2, Math.floor(h / 48)));
    const yLo = Math.min(yr[0], yt.ticks[0]);
    const yHi = Math.max(yr[1], yt.ticks[yt.ticks.length - 1]);
    const yFmt = this.opts.formatY || tickFormatter(yt.ticks, yt.step);
    const yLabels = yt.ticks.map(yFmt);
    const left = Math.ceil(Math.max(...yLabels.map((s) => ctx.measureText(s).width))) + 16;
    const top = 22;
    const right = 16;
    const bottom = 30;
    const pw = Math.max(10, w - left - right);
    const ph = Math.max(10, h - top - bottom);
    const X = (x) => left + ((x - xMin) / (xMax - xMin || 1)) * pw;
    const Y = (y) => top + (1 - (y - yLo) / (yHi - yLo || 1)) * ph;
    this.geom = { left, top, pw, ph, X, Y };

    // Grid and y ticks.
    ctx.strokeStyle = grid;
    ctx.lineWidth = 1;
    ctx.fillStyle = text;
    ctx.textAlign = 'right';
    yt.ticks.forEach((t, i) => {
      if (t < yLo || t > yHi) return;
      const y = Math.round(Y(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + pw, y);
      ctx.stroke();
      ctx.fillText(yLabels[i], left - 8, y);
    });
    // X ticks.
    const xt = niceTicks(xMin, xMax, Math.max(2, Math.floor(pw / 90)));
    const xFmt = this.opts.formatX ||
      (this.opts.xTickFormat ? this.opts.xTickFormat(xt.ticks, xt.step) : tickFormatter(xt.ticks, xt.step, this.opts.xUnit));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of xt.ticks) {
      if (t < xMin || t > xMax) continue;
      const x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = grid;
      ctx.beginPath();
      ctx.moveTo(x, top + ph);
      ctx.lineTo(x, top + ph + 5);
      ctx.stroke();
      ctx.fillText(xFmt(t), Math.min(Math.max(x, left + 12), left + pw - 12), top + ph + 8);
    }
    ctx.strokeStyle = css(host, '--chart-axis', '#c5cad6');
    ctx.beginPath();
    ctx.moveTo(left, Math.round(top + ph) + 0.5);
    ctx.lineTo(left + pw, Math.round(top + ph) + 0.5);
    ctx.stroke();
    // Axis titles.
    ctx.textBaseline = 'alphabetic';
    ctx.font = `600 ${font}`;
    if (this.opts.yTitle) {
      ctx.textAlign = 'left';
      ctx.fillText(this.opts.yTitle, 4, 13);
    }

    // Series.
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top - 2, pw, ph + 4);
    ctx.clip();
    for (const s of this.data.series) this.drawStep(s, X, Y, xMin, xMax, left, pw, top + ph);
    ctx.restore();
    this.drawMarks(X, xMin, xMax, top, ph, font);

    // Reference lines (drawn over the series, labelled at the right).
    ctx.font = `600 ${font}`;
    for (const r of this.data.refs) {
      const color = css(host, r.color, '#e11d48');
      const y = Math.round(Y(r.y)) + 0.5;
      strokeLine(ctx, left, y, left + pw, y, { color, width: 1.5, dash: [6, 4] });
      if (r.label) {
        ctx.textAlign = 'right';
        ctx.textBaseline = 'bottom';
        const tw = ctx.measureText(r.label).width;
        ctx.fillStyle = css(host, '--chart-bg', '#fff');
        ctx.globalAlpha = 0.85;
        ctx.fillRect(left + pw - tw - 10, y - 19, tw + 8, 16);
        ctx.globalAlpha = 1;
        ctx.fillStyle = color;
        ctx.fillText(r.label, left + pw - 6, y - 4);
      }
    }
    this.drawHover(X, Y, xMin, xMax, left, pw, top, ph, text);
  }

  drawStep(s, X, Y, xMin, xMax, left, pw, base) {
    const { ctx, host } = this;
    const n = s.xs.length;
    if (!n) return;
    const color = css(host, s.color, '#4f46e5');
    const xEnd = s.xEnd ?? xMax;
    const path = new Path2D();
    let first = true;
    let firstX = 0;
    let lastX = 0;
    if (n > pw * 2) {
      // One column per pixel: the largest value the step function takes there.
      const cols = Math.ceil(pw);
      const hi = new Float64Array(cols).fill(-Infinity);
      const scale = cols / (xMax - xMin || 1);
      for (let i = 0; i < n; ++i) {
        const a = s.xs[i];
        const b = i + 1 < n ? s.xs[i + 1] : xEnd;
        if (b < xMin || a > xMax) continue;
        let c0 = Math.floor((a - xMin) * scale);
        let c1 = Math.ceil((b - xMin) * scale) - 1;
        c0 = Math.max(0, c0);
        c1 = Math.min(cols - 1, Math.max(c0, c1));
        const y = s.ys[i];
        for (let c = c0; c <= c1; ++c) if (y > hi[c]) hi[c] = y;
      }
      for (let c = 0; c < cols; ++c) {
        if (hi[c] === -Infinity) continue;
        const x0 = left + c;
        const y = Y(hi[c]);
        if (first) { path.moveTo(x0, y); firstX = x0; first = false; } else path.lineTo(x0, y);
        path.lineTo(x0 + 1, y);
        lastX = x0 + 1;
      }
    } else {
      for (let i = 0; i < n; ++i) {
        const x0 = X(Math.max(xMin, s.xs[i]));
        const x1 = X(Math.min(xMax, i + 1 < n ? s.xs[i + 1] : xEnd));
        const y = Y(s.ys[i]);
        if (first) { path.moveTo(x0, y); firstX = x0; first = false; } else path.lineTo(x0, y);
        path.lineTo(x1, y);
        lastX = x1;
      }
    }
    if (first) return;
    if (s.fill) {
      const area = new Path2D(path);
      area.lineTo(lastX, base);
      area.lineTo(firstX, base);
      area.closePath();
      const grad = ctx.createLinearGradient(0, this.geom.top, 0, base);
      grad.addColorStop(0, withAlpha(color, 0.32));
      grad.addColorStop(1, withAlpha(color, 0.07));
      ctx.fillStyle = grad;
      ctx.fill(area);
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = s.width || 2;
    ctx.lineJoin = 'round';
    ctx.setLineDash(s.dash || []);
    ctx.stroke(path);
    ctx.setLineDash([]);
    if (s.dot && n) {
      const x = X(Math.min(xMax, xEnd));
      const y = Y(s.ys[n - 1]);
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(Math.min(x, left + pw), y, 3.5, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  drawMarks(X, xMin, xMax, top, ph, font) {
    const { ctx, host } = this;
    const color = css(host, '--muted', '#6b7280');
    ctx.font = font;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    for (const m of this.data.marks) {
      if (m.x < xMin || m.x > xMax) continue;
      const x = Math.round(X(m.x)) + 0.5;
      strokeLine(ctx, x, top, x, top + ph, { color, dash: [2, 3], alpha: 0.7 });
      if (m.label) {
        ctx.fillStyle = color;
        ctx.fillText(m.label, x, top - 2);
      }
    }
  }

  drawHover(X, Y, xMin, xMax, left, pw, top, ph, text) {
    const { ctx, host, readout } = this;
    if (this.hoverPx == null || this.hoverPx < left || this.hoverPx > left + pw) {
      readout.hidden = true;
      return;
    }
    const x = xMin + ((this.hoverPx - left) / pw) * (xMax - xMin);
    const hx = Math.round(this.hoverPx) + 0.5;
    strokeLine(ctx, hx, top, hx, top + ph, { color: text, alpha: 0.5 });
    const fx = this.opts.formatHoverX || this.opts.formatX || compact;
    const fy = this.opts.formatHoverY || compact;
    const rows = [`<div class="readout-x">${escapeHtml(fx(x))}</div>`];
    for (const s of this.data.series) {
      const i = upperBound(s.xs, x);
      if (i < 0 || (s.xEnd != null && x > s.xEnd)) continue;
      const color = css(host, s.color, '#4f46e5');
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(this.hoverPx, Y(s.ys[i]), 3.5, 0, Math.PI * 2);
      ctx.fill();
      rows.push(`<div><span class="swatch" style="background:${color}"></span>${escapeHtml(s.label || '')} ` +
        `<b>${escapeHtml(fy(s.ys[i], s, i))}</b></div>`);
    }
    for (const m of this.data.marks) {
      if (m.title && Math.abs(X(m.x) - this.hoverPx) <= 4) rows.push(`<div class="readout-mark">${escapeHtml(m.title)}</div>`);
    }
    readout.innerHTML = rows.join('');
    readout.hidden = false;
    const rw = readout.offsetWidth;
    const px = this.hoverPx + 14 + rw > left + pw ? this.hoverPx - 14 - rw : this.hoverPx + 14;
    readout.style.left = `${Math.max(0, px)}px`;
    readout.style.top = `${top + 4}px`;
  }
}

/**
 * Memory against cost: a sweep's points (cost against usage limit, the limit
 * on a log scale), the band of proven bounds between the cost curve (above)
 * and the bound curve (below), a vertical line at the file's own limit, and
 * the points themselves, which can be picked (click or hover).
 *
 * Between two points a and b the cost of a's plan holds on [a, b) (it fits
 * every larger limit) and b's bound holds on (a, b] (it holds at every
 * smaller limit): both curves are steps, so the band is exactly what is known.
 */
export class CurveChart extends CanvasChart {
  /**
   * @param {HTMLElement} host  an element to draw in
   * @param {object} opts  { onPick(index), formatX, formatY, empty, ariaLabel }
   */
  constructor(host, opts = {}) {
    super(host, opts);
    this.data = { points: [], ref: null, selected: -1 };
    this.positions = [];  // [{ index, x, y }] in CSS pixels, of the points drawn
    this.hover = -1;
    const at = (e) => {
      const r = this.canvas.getBoundingClientRect();
      return this.nearest(e.clientX - r.left, e.clientY - r.top);
    };
    this.canvas.addEventListener('pointermove', (e) => {
      const k = at(e);
      this.canvas.style.cursor = k >= 0 ? 'pointer' : '';
      if (k !== this.hover) { this.hover = k; this.schedule(); }
    });
    this.canvas.addEventListener('pointerleave', () => { this.hover = -1; this.schedule(); });
    this.canvas.addEventListener('click', (e) => {
      const k = at(e);
      if (k >= 0 && this.opts.onPick) this.opts.onPick(k);
    });
  }

  // The point within 12 px of (x, y), closest first; -1 for none.
  nearest(x, y) {
    let best = -1;
    let bestD = 144;
    for (const p of this.positions) {
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d <= bestD) { bestD = d; best = p.index; }
    }
    return best;
  }

  /**
   * points: [{ x, cost, bound, feasible }] by x increasing (numbers; bound may be null)
   * ref:    { x, label } a vertical line;  selected: the index drawn as chosen.
   */
  update(data) {
    this.data = Object.assign({ points: [], ref: null, selected: -1 }, data);
    if (data.ariaLabel) this.canvas.setAttribute('aria-label', data.ariaLabel);
    this.schedule();
  }

  draw() {
    const frame = this.begin();
    if (!frame) return;
    const { ctx, host } = this;
    const { w, h, text, grid, font } = frame;
    const pts = this.data.points;
    this.positions = [];
    const feasible = pts.filter((p) => p.feasible);
    if (!pts.length) {
      ctx.fillStyle = text;
      ctx.textAlign = 'center';
      ctx.fillText(this.opts.empty || 'No points yet', w / 2, h / 2);
      this.readout.hidden = true;
      return;
    }
    // x: log of the limit, padded; y: from 0 to the largest feasible cost.
    const xs = pts.map((p) => Math.max(1, p.x));
    if (this.data.ref) xs.push(Math.max(1, this.data.ref.x));
    let lx0 = Math.log10(Math.min(...xs));
    let lx1 = Math.log10(Math.max(...xs));
    const padX = (lx1 - lx0) * 0.04 || 0.05;
    lx0 -= padX;
    lx1 += padX;
    // y: from 0 to the largest feasible cost; on a log scale when the costs
    // span more than a factor of 20 (the least-memory end is often far above
    // the rest), bounds below the least cost then clipped at the bottom.
    let yMax = 0;
    let yMin = Infinity;
    for (const p of feasible) { yMax = Math.max(yMax, p.cost); yMin = Math.min(yMin, p.cost); }
    if (!(yMax > 0)) yMax = 1;
    const logY = yMin > 0 && yMax / yMin > 20;
    let Yv;
    let yTicks;
    let yHi;
    if (logY) {
      let bMin = yMin;
      for (const p of feasible) if (p.bound > 0) bMin = Math.min(bMin, p.bound);
      const ly0 = Math.log10(Math.max(bMin, yMin / 100)) - 0.05;
      const ly1 = Math.log10(yMax) + 0.08;
      yHi = 10 ** ly1;
      yTicks = logTicks(ly0, ly1);
      if (yTicks.length > (h - 66) / 26) yTicks = yTicks.filter((v) => /^1/.test(String(v)));
      Yv = (y) => 1 - (Math.log10(Math.max(y, 10 ** ly0)) - ly0) / (ly1 - ly0);
    } else {
      const yt = niceTicks(0, yMax * 1.08, Math.max(2, Math.floor(h / 48)));
      yHi = Math.max(yMax * 1.08, yt.ticks[yt.ticks.length - 1]);
      yTicks = yt.ticks;
      Yv = (y) => 1 - y / yHi;
    }
    const yFmt = this.opts.formatY || compact;
    const yt = { ticks: yTicks };
    const yLabels = yt.ticks.map(yFmt);
    const left = Math.ceil(Math.max(...yLabels.map((s) => ctx.measureText(s).width))) + 16;
    const top = 22;
    const right = 16;
    const bottom = 44;
    const pw = Math.max(10, w - left - right);
    const ph = Math.max(10, h - top - bottom);
    const X = (x) => left + ((Math.log10(Math.max(1, x)) - lx0) / (lx1 - lx0)) * pw;
    const Y = (y) => top + Yv(y) * ph;

    ctx.strokeStyle = grid;
    ctx.lineWidth = 1;
    ctx.fillStyle = text;
    ctx.textAlign = 'right';
    yt.ticks.forEach((t, i) => {
      if (t > yHi) return;
      const y = Math.round(Y(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + pw, y);
      ctx.stroke();
      ctx.fillText(yLabels[i], left - 8, y);
    });
    // x ticks: 1, 2, 5 times powers of ten within the range (fewer when crowded).
    const ticks = logTicks(lx0, lx1);
    let shown = ticks;
    if (ticks.length > pw / 70) shown = ticks.filter((v) => /^1/.test(String(v)));
    if (shown.length < 2) {
      const { ticks: lin } = niceTicks(10 ** lx0, 10 ** lx1, Math.max(2, Math.floor(pw / 110)));
      shown = lin.filter((v) => v > 0 && Math.log10(v) >= lx0 && Math.log10(v) <= lx1);
    }
    const xFmt = this.opts.formatX || compact;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of shown) {
      const x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = grid;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + ph + 5);
      ctx.stroke();
      ctx.fillText(xFmt(t), x, top + ph + 8);
    }
    ctx.strokeStyle = css(host, '--chart-axis', '#c5cad6');
    ctx.beginPath();
    ctx.moveTo(left, Math.round(top + ph) + 0.5);
    ctx.lineTo(left + pw, Math.round(top + ph) + 0.5);
    ctx.stroke();
    ctx.font = `600 ${font}`;
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillText(logY ? 'cost (log scale)' : 'cost', 4, 13);
    ctx.textAlign = 'center';
    ctx.fillText('usage limit (log scale)', left + pw / 2, h - 4);
    ctx.font = font;

    // The band: cost steps right from each feasible point, bound steps left to each point.
    const costColor = css(host, '--series-cost', '#4f46e5');
    const boundColor = css(host, '--series-bound', '#0d9488');
    const xEnd = 10 ** lx1;
    const { upper, lower, bandLower } = sweepSteps(pts, xEnd);
    if (upper.length && bandLower.length) {
      const band = new Path2D();
      upper.forEach(([x, y], i) => (i ? band.lineTo(X(x), Y(y)) : band.moveTo(X(x), Y(y))));
      for (let i = bandLower.length - 1; i >= 0; --i) band.lineTo(X(bandLower[i][0]), Y(bandLower[i][1]));
      band.closePath();
      ctx.fillStyle = withAlpha(costColor, 0.12);
      ctx.fill(band);
    }
    const stroke = (line, color, dash, width) => {
      if (!line.length) return;
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.setLineDash(dash);
      ctx.beginPath();
      line.forEach(([x, y], i) => (i ? ctx.lineTo(X(x), Y(y)) : ctx.moveTo(X(x), Y(y))));
      ctx.stroke();
      ctx.setLineDash([]);
    };
    stroke(lower, boundColor, [5, 4], 1.75);
    stroke(upper, costColor, [], 2);

    // The file's own limit.
    if (this.data.ref) {
      const color = css(host, '--series-limit', '#e11d48');
      const x = Math.round(X(this.data.ref.x)) + 0.5;
      strokeLine(ctx, x, top, x, top + ph, { color, width: 1.5, dash: [6, 4] });
      ctx.fillStyle = color;
      ctx.font = `600 ${font}`;
      ctx.textBaseline = 'bottom';
      ctx.textAlign = x > left + pw / 2 ? 'right' : 'left';
      ctx.fillText(this.data.ref.label, x + (x > left + pw / 2 ? -4 : 4), top + 12);
      ctx.font = font;
    }

    // The points: filled when feasible, a cross on the axis when nothing fits.
    const bad = css(host, '--series-limit', '#e11d48');
    pts.forEach((p, k) => {
      const x = X(p.x);
      const y = p.feasible ? Y(p.cost) : top + ph;
      this.positions.push({ index: k, x, y });
      const big = k === this.data.selected || k === this.hover;
      ctx.lineWidth = 2;
      if (p.feasible) {
        ctx.fillStyle = costColor;
        ctx.beginPath();
        ctx.arc(x, y, big ? 6 : 4, 0, Math.PI * 2);
        ctx.fill();
        if (k === this.data.selected) {
          ctx.strokeStyle = costColor;
          ctx.beginPath();
          ctx.arc(x, y, 9, 0, Math.PI * 2);
          ctx.stroke();
        }
      } else {
        const r = big ? 6 : 4.5;
        ctx.strokeStyle = bad;
        ctx.beginPath();
        ctx.moveTo(x - r, y - r);
        ctx.lineTo(x + r, y + r);
        ctx.moveTo(x + r, y - r);
        ctx.lineTo(x - r, y + r);
        ctx.stroke();
      }
    });

    const k = this.hover;
    if (k >= 0 && k < pts.length && this.opts.describe) {
      this.readout.innerHTML = this.opts.describe(k);
      this.readout.hidden = false;
      const pos = this.positions[k];
      const rw = this.readout.offsetWidth;
      this.readout.style.left = `${Math.max(0, pos.x + 14 + rw > left + pw ? pos.x - 14 - rw : pos.x + 14)}px`;
      this.readout.style.top = `${top + 4}px`;
    } else {
      this.readout.hidden = true;
    }
  }
}

/**
 * The sweep chart's step functions, as [x, y] vertices: the cost steps right
 * from each feasible point (its plan fits every larger limit, up to the next
 * point, the last up to `xEnd`), the bound steps left to each feasible point
 * (it holds at every smaller limit, down to the point before). The shaded
 * band between them starts at the first feasible point: left of it no cost
 * is known, so `bandLower` is `lower` without what lies left of it.
 * pts: [{ x, cost, bound, feasible }] by x increasing (bound may be null).
 */
export function sweepSteps(pts, xEnd) {
  const upper = [];
  const lower = [];
  let prevX = null;
  for (let k = 0; k < pts.length; ++k) {
    const p = pts[k];
    const next = k + 1 < pts.length ? pts[k + 1].x : xEnd;
    if (p.feasible) upper.push([p.x, p.cost], [next, p.cost]);
    if (p.bound !== null && p.feasible) lower.push([prevX === null ? p.x : prevX, p.bound], [p.x, p.bound]);
    prevX = p.x;
  }
  const bandLower = upper.length ? lower.filter(([x]) => x >= upper[0][0]) : [];
  return { upper, lower, bandLower };
}

// 1, 2 and 5 times the powers of ten between 10^l0 and 10^l1.
function logTicks(l0, l1) {
  const ticks = [];
  for (let e = Math.floor(l0); e <= Math.ceil(l1); ++e) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (Math.log10(v) >= l0 && Math.log10(v) <= l1) ticks.push(v);
    }
  }
  return ticks;
}

function withAlpha(color, a) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (m) {
    const v = parseInt(m[1], 16);
    return `rgba(${v >> 16}, ${(v >> 8) & 255}, ${v & 255}, ${a})`;
  }
  return color;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
