// The package's inputs as pieces of bytes, on the main thread: a parsed object,
// a JSON string, bytes, a Blob or a stream, read as they are needed.

function encodeJson(value) {
  let sawBigInt = false;
  const marker = '\u0000iopddl-bigint:';
  let text = JSON.stringify(value, (key, v) => {
    if (typeof v === 'bigint') {
      sawBigInt = true;
      return marker + v.toString();
    }
    return v;
  });
  if (text === undefined) throw new TypeError('the input is not JSON-serialisable');
  // Costs given as BigInt go out as plain JSON integers, exactly.
  if (sawBigInt) text = text.replace(/"\\u0000iopddl-bigint:(-?\d+)"/g, '$1');
  return new TextEncoder().encode(text);
}

export const PIECE = 4 << 20;  // bytes handed to the module at a time

const isBuffer = (x) => x instanceof ArrayBuffer ||
  (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer);

function asBytes(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (isBuffer(chunk)) return new Uint8Array(chunk);
  if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
  throw new TypeError(`a stream gave a ${typeof chunk}: expected bytes or strings`);
}

function* slices(bytes) {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, Math.min(bytes.length, at + PIECE));
}

// The first bytes of a stream of pieces (up to two, enough for gzip's magic
// number), read ahead, and the same pieces from the start.
export async function peeked(pieces) {
  const it = typeof pieces[Symbol.asyncIterator] === 'function' ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  const ahead = [];
  let head = [];
  let done = false;
  while (head.length < 2) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    ahead.push(r.value);
    head = head.concat(Array.from(r.value.subarray(0, 2 - head.length)));
  }
  const close = async () => {
    if (!done && typeof it.return === 'function') await it.return();
  };
  return {
    head,
    close,  // for pieces never read
    pieces: (async function* () {
      try {
        yield* ahead;
        if (done) return;
        for (;;) {
          const r = await it.next();
          if (r.done) {
            done = true;
            return;
          }
          yield r.value;
        }
      } finally {
        await close();
      }
    })(),
  };
}

// `owned`: the bytes are ours (encoded here), so pieces may be moved to a Worker.
const inMemory = (bytes, owned) => ({ pieces: slices(bytes), total: bytes.length, owned });

// A web ReadableStream's chunks as pieces (a long chunk cut at PIECE). A
// stream of our own (`own`) is cancelled when the reader stops early.
async function* streamPieces(stream, own) {
  const reader = stream.getReader();
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      done = next.done;
      if (!done) yield* slices(asBytes(next.value));
    }
  } finally {
    if (own && !done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

// Any accepted input as pieces of bytes, read as they are needed: bytes the
// caller gave are sliced, not copied; a Blob or a stream is read a piece at a
// time, so it is never held whole. `total`: the input's size when known;
// `owned`: false only for the caller's own bytes.
export function inputPieces(input) {
  if (input == null) throw new TypeError('load() needs an input: an object, a JSON string, bytes, a Blob or a stream');
  if (ArrayBuffer.isView(input) || isBuffer(input)) return inMemory(asBytes(input), false);
  if (typeof input === 'string') return inMemory(new TextEncoder().encode(input), true);
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    // Through the Blob's stream, which a browser fills from its own process
    // while the module parses what came before; a slice at a time, each
    // awaited, left the reading and the parse to take turns.
    return { pieces: streamPieces(input.stream(), true), total: input.size, owned: true };
  }
  if (typeof input.getReader === 'function') {  // a web ReadableStream
    return { pieces: streamPieces(input, false), owned: true };
  }
  if (typeof input[Symbol.asyncIterator] === 'function') {  // a Node stream, an async generator
    return {
      pieces: (async function* () {
        for await (const chunk of input) yield* slices(asBytes(chunk));
      })(),
      owned: true,
    };
  }
  if (typeof input === 'object') {
    const bytes = encodeJson(input);
    return inMemory(bytes, true);
  }
  throw new TypeError(`load() cannot read a ${typeof input}: give an object, a JSON string, bytes, a Blob or a stream`);
}
