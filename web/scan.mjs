// Reads the per-node arrays of a contest problem (problem.nodes.intervals,
// costs and usages) straight from the JSON bytes, for the page's node table.
//
// The package validates and solves the problem but does not hand its arrays
// back to JavaScript, so the page reads the few it shows itself. This runs
// after the package has accepted the same bytes, so the input is known to be
// valid; it still never loops on bad input (it throws instead). It skips
// everything else (the edge matrices, most of the bytes) with a tight scan,
// and never builds a JSON object tree: 93 MB take a few hundred milliseconds.

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, MINUS = 0x2d;
const LBRACE = 0x7b, RBRACE = 0x7d, LBRACKET = 0x5b, RBRACKET = 0x5d;

function isSpace(c) {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Integer lists, flattened: list i is values[offsets[i] .. offsets[i+1]).
 * Values beyond 2^53 are held approximately in `values` and exactly (as
 * decimal strings) in `exact`, keyed by their flat index.
 */
export class IntLists {
  constructor(offsets, values, exact) {
    this.offsets = offsets;
    this.values = values;
    this.exact = exact;
  }

  get length() {
    return this.offsets.length - 1;
  }
}

class Scanner {
  constructor(bytes) {
    this.b = bytes;
    this.i = 0;
  }

  fail(what) {
    throw new Error(`node data: ${what} at byte ${this.i}`);
  }

  ws() {
    const b = this.b;
    let i = this.i;
    while (i < b.length && isSpace(b[i])) ++i;
    this.i = i;
  }

  peek() {
    this.ws();
    if (this.i >= this.b.length) this.fail('unexpected end');
    return this.b[this.i];
  }

  expect(c) {
    if (this.peek() !== c) this.fail(`expected '${String.fromCharCode(c)}'`);
    ++this.i;
  }

  // A string at this.i (the opening quote); returns its text.
  string() {
    const b = this.b;
    const start = ++this.i;
    let escaped = false;
    let i = start;
    for (;;) {
      if (i >= b.length) { this.i = i; this.fail('unterminated string'); }
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) { escaped = true; ++i; }
      ++i;
    }
    this.i = i + 1;
    const raw = b.subarray(start, i);
    if (!escaped) {
      if (raw.length > 64) return new TextDecoder().decode(raw);
      let s = '';
      for (let k = 0; k < raw.length; ++k) s += String.fromCharCode(raw[k]);
      return s;
    }
    return JSON.parse(`"${new TextDecoder().decode(raw)}"`);
  }

  // Skips any value: strings, numbers, literals, and whole objects or arrays
  // by bracket depth (strings inside are skipped as units).
  skip() {
    const b = this.b;
    const c = this.peek();
    if (c === QUOTE) { this.string(); return; }
    let i = this.i;
    if (c !== LBRACE && c !== LBRACKET) {
      while (i < b.length) {
        const d = b[i];
        if (d === COMMA || d === RBRACE || d === RBRACKET || isSpace(d)) break;
        ++i;
      }
      this.i = i;
      return;
    }
    let depth = 0;
    for (; i < b.length; ++i) {
      const d = b[i];
      if (d === LBRACKET || d === LBRACE) {
        ++depth;
      } else if (d === RBRACKET || d === RBRACE) {
        if (--depth === 0) { this.i = i + 1; return; }
      } else if (d === QUOTE) {
        for (++i; i < b.length && b[i] !== QUOTE; ++i) if (b[i] === BACKSLASH) ++i;
      }
    }
    this.i = i;
    this.fail('unterminated array or object');
  }

  // Calls onKey(key) for each member of the object at this.i; onKey must
  // consume the value.
  object(onKey) {
    this.expect(LBRACE);
    if (this.peek() === RBRACE) { ++this.i; return; }
    for (;;) {
      if (this.peek() !== QUOTE) this.fail('expected a key');
      const key = this.string();
      this.expect(COLON);
      onKey(key);
      const c = this.peek();
      ++this.i;
      if (c === RBRACE) return;
      if (c !== COMMA) this.fail("expected ',' or '}'");
    }
  }

  // An array of arrays of integers.
  intLists() {
    const b = this.b;
    const offsets = [0];
    const values = [];
    const exact = new Map();
    this.expect(LBRACKET);
    if (this.peek() === RBRACKET) {
      ++this.i;
      return new IntLists(Int32Array.from(offsets), new Float64Array(0), exact);
    }
    for (;;) {
      this.expect(LBRACKET);
      if (this.peek() === RBRACKET) {
        ++this.i;
      } else {
        for (;;) {
          this.ws();
          let i = this.i;
          const start = i;
          let neg = false;
          if (b[i] === MINUS) { neg = true; ++i; }
          let v = 0;
          const digits = i;
          while (i < b.length && b[i] >= 0x30 && b[i] <= 0x39) v = v * 10 + (b[i++] - 0x30);
          if (i === digits) { this.i = i; this.fail('expected an integer'); }
          if (i - digits > 15) {
            let s = '';
            for (let k = start; k < i; ++k) s += String.fromCharCode(b[k]);
            exact.set(values.length, BigInt(s).toString());
            v = Number(s);
          } else if (neg) {
            v = -v;
          }
          values.push(v);
          this.i = i;
          const c = this.peek();
          ++this.i;
          if (c === RBRACKET) break;
          if (c !== COMMA) this.fail("expected ',' or ']'");
        }
      }
      offsets.push(values.length);
      const c = this.peek();
      ++this.i;
      if (c === RBRACKET) break;
      if (c !== COMMA) this.fail("expected ',' or ']'");
    }
    return new IntLists(Int32Array.from(offsets), Float64Array.from(values), exact);
  }
}

/**
 * Reads problem.nodes.{intervals, costs, usages} from JSON bytes (not gzip).
 * Returns { intervals, costs, usages } as IntLists (missing ones are null).
 */
export function scanNodes(bytes) {
  const s = new Scanner(bytes);
  const out = { intervals: null, costs: null, usages: null };
  s.object((key) => {
    if (key !== 'problem') { s.skip(); return; }
    s.object((pkey) => {
      if (pkey !== 'nodes') { s.skip(); return; }
      s.object((nkey) => {
        if (nkey === 'intervals' || nkey === 'costs' || nkey === 'usages') out[nkey] = s.intLists();
        else s.skip();
      });
    });
  });
  return out;
}

/** True for gzip bytes (magic 1f 8b), as the package recognises them. */
export function isGzip(bytes) {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Inflates gzip bytes with the platform's DecompressionStream. */
export async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
