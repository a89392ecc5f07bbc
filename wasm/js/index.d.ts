// Type declarations of iopddl-wasm. Costs, usages, usage limits and time points
// are BigInt: they exceed 2^53 (a forbidden entry alone is 10^18).

/** A problem as the contest's JSON describes it (when passed as an object). */
export interface ProblemJson {
  problem: {
    name?: string;
    nodes: {
      /** Half-open live interval [lo, hi) per node. */
      intervals: Array<[number | bigint, number | bigint]>;
      /** One cost per strategy, per node. */
      costs: Array<Array<number | bigint>>;
      /** One memory usage per strategy, per node. */
      usages: Array<Array<number | bigint>>;
    };
    edges: {
      nodes: Array<[number, number]>;
      /** K_u x K_v entries per edge, row-major (s_u * K_v + s_v). */
      costs: Array<Array<number | bigint>>;
    };
    usage_limit?: number | bigint;
  };
}

/**
 * What `load()` accepts: a parsed object, JSON text, bytes, a Blob, a web
 * ReadableStream or an async iterable of bytes (a Node stream), holding JSON
 * or gzip-compressed JSON (recognised by its magic bytes). Everything is fed
 * to the module in pieces of 4 MB: a Blob or stream is never held whole; a
 * string or object is encoded to UTF-8 first.
 */
export type ProblemInput = ProblemJson | object | string | Uint8Array | ArrayBuffer | ArrayBufferView | Blob |
  ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface CreateSolverOptions {
  /**
   * Search threads: the size of the module's thread pool and the default for
   * `solve()`. Default: the machine's logical cores.
   */
  threads?: number;
  /**
   * 'auto' (default): threads where possible (Node; cross-origin isolated
   * pages), else one thread in a Worker, saying so in `threadFallback`.
   * 'threads': fail with ERR_NO_THREADS instead of falling back.
   * 'single': always the single-threaded build in a Worker.
   */
  backend?: 'auto' | 'threads' | 'single';
  /** Where the generated files are: returns a URL (browser) or path (Node) for a file name. */
  locateFile?: (fileName: string) => string;
  /** Browser: base URL of the package's dist/ folder (instead of import.meta.url). */
  baseUrl?: string | URL;
  /** The threaded module's .wasm bytes, if already at hand. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** The single-threaded module's .wasm bytes, if already at hand. */
  singleWasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Threads back end: the most memory the module may grow to, in bytes
   * (64 MiB to 4 GiB; default 4 GiB). Exceeding it fails with ERR_OUT_OF_MEMORY.
   */
  maxMemoryBytes?: number;
  /** true: the module's own messages go to console.warn; a function receives them. */
  debug?: boolean | ((message: string) => void);
}

export interface ProblemSummary {
  name: string;
  nodes: number;
  edges: number;
  /** Strategies over all nodes. */
  strategies: number;
  maxStrategies: number;
  /** Entries of all edge cost matrices. */
  edgeCostEntries: number;
  /** null when the problem has no usage limit. */
  usageLimit: bigint | null;
  /**
   * The least peak usage any assignment has (every node at its least usage):
   * a usage limit below it has no feasible answer.
   */
  leastPeakUsage: bigint;
  /** Earliest interval start and latest interval end; null without nodes. */
  timeSpan: { start: bigint; end: bigint } | null;
  /** Segments of the compressed time axis (between distinct interval endpoints). */
  segments: number;
  /** Bytes given to load() (compressed size for gzip). */
  inputBytes: number;
  gzip: boolean;
  /** Wall time of load(), input encoding and copy included. */
  loadMs: number;
  /** Time the core spent inflating, parsing and validating. */
  parseMs: number;
  /**
   * A fingerprint of everything the input said (16 hex digits): the same for
   * the same problem however it was given, and the same as `iopddl check`'s.
   */
  digest: string;
}

/** Usage over time: usage[k] holds on [time[k], time[k+1]). */
export interface UsageProfile {
  time: bigint[];
  usage: bigint[];
}

export interface Evaluation {
  nodeCost: bigint;
  edgeCost: bigint;
  totalCost: bigint;
  /** Chosen node or edge entries at or above 10^18 (forbidden choices). */
  forbiddenEntries: number;
  /** The highest usage at any time, and the first time point where it occurs. */
  peakUsage: bigint;
  peakTime: bigint | null;
  /** Index of the peak's segment in `profile`; -1 without segments. */
  peakSegment: number;
  usageLimit: bigint | null;
  withinLimit: boolean;
  /** Within the limit and no forbidden entry. */
  feasible: boolean;
  /** Present in `Problem.evaluate()` results (not in solve results: call evaluate for it). */
  profile?: UsageProfile;
}

export interface Progress {
  /** 'start', 'improved', 'bound', 'heartbeat', 'restart' (a new epoch began) or 'done'. */
  event: string;
  elapsedMs: number;
  hasSolution: boolean;
  feasible: boolean;
  /** Exact cost of the best assignment so far. */
  cost: bigint | null;
  /** Proven: no assignment within the limit costs less. */
  lowerBound: bigint | null;
  /** (cost - lowerBound) / cost for a feasible answer. */
  gap: number | null;
  iterations: number;
  /**
   * The search's epoch: 0 until its first restart, one more at each (a search
   * whose best has stalled starts afresh, keeping every answer found). Every
   * event carries it, so a restart between two reports still shows.
   */
  epoch: number;
  /** When the current epoch began (0 for the first), on elapsedMs' clock. */
  epochStartMs: number;
}

/** A name not listed here rejects with a TypeError that names it. */
export interface SolveOptions {
  /** Wall-time budget of the search, in milliseconds. Default 10000. */
  timeLimitMs?: number;
  /** Search threads for this solve. Default: the solver's `threads`. */
  threads?: number;
  /** Random seed (0 to 2^64-1). Default 1. */
  seed?: number | bigint;
  /**
   * Stop after this many search rounds per thread (0: only the time limit).
   * With one thread and a fixed seed the answer is then the same every run.
   */
  maxRounds?: number;
  /**
   * Solve at this usage limit instead of the file's (a device with more or less
   * memory); null: no limit. An integer from 0 to 2^63 - 1 (BigInt, or a safe
   * integer number). Below the problem's `leastPeakUsage` nothing fits: the
   * result is the least-violating answer, not feasible. The problem itself is
   * unchanged, so solves at different limits may run at once.
   */
  usageLimit?: bigint | number | null;
  /**
   * A warm start: one strategy index per node, such as an earlier result's
   * `assignment`. The search starts from it (repaired if it does not fit) and
   * no progress report or result is worse than it. A wrong length or a
   * strategy out of range rejects with ERR_INVALID_ASSIGNMENT.
   */
  start?: ArrayLike<number>;
  /**
   * Search parameters by name (the core's table: `iopddl --list-params`), for
   * example `{ restarts: 0, schedule_floor: 0.1 }`. An unknown name or a value out of
   * range rejects with ERR_INVALID_PARAMS.
   */
  params?: Record<string, number>;
  /** Aborting stops the search; the promise resolves with the best answer so far. */
  signal?: AbortSignal;
  /** Called on the caller's thread during the solve, several times a second. */
  onProgress?: (progress: Progress) => void;
  /** Least time between heartbeat progress calls (improvements always come). Default 100. */
  progressIntervalMs?: number;
  /**
   * Single-threaded back end only: with a signal, the search runs in slices of
   * this length so that an abort is seen between slices. The slices are one
   * resumable solve: nothing restarts between them. Default 1000.
   */
  sliceMs?: number;
}

export interface ImprovementPoint {
  ms: number;
  cost: bigint;
  feasible: boolean;
}

/** A restart: a new epoch starts every thread afresh (the incumbent keeps every epoch's answers). */
export interface EpochStart {
  /** When the new epoch began, from the solve's start. */
  ms: number;
  /** Its number (the first epoch is 0 and has no record). */
  epoch: number;
  /** Ended on the opening's clock (the probe_epochs parameter) rather than by a stall. */
  opening: boolean;
  /** When the ended epoch began. */
  endedFromMs: number;
  /** Its best's last fall of at least restart_min_fall of the cost (or its start): a value close to ms means it was cut off while still falling. */
  endedLastFallMs: number;
  /** Its best within the limit; null when it had none. */
  endedBestCost: bigint | null;
}

export type MechanismName =
  | 'groupMove'
  | 'penalisedRounding'
  | 'eliminationBeliefs'
  | 'eliminationRounding'
  | 'eliminationBest'
  | 'eliminationUnpriced'
  | 'connectedWindow'
  | 'timeWindow'
  | 'ejection'
  | 'tradeWindow'
  | 'repairWindow'
  | 'partWindow'
  | 'partCrossover'
  | 'epochCrossover'
  | 'merge'
  | 'restart'
  | 'roundingRefresh'
  | 'proofSearch';

export interface NodeData {
  /** n + 1 entries: node i's strategies are entries strategyOffsets[i] .. strategyOffsets[i + 1] - 1. */
  strategyOffsets: Float64Array;
  costs: BigInt64Array;
  usages: BigInt64Array;
  /** Node i is alive on [intervalStarts[i], intervalEnds[i]). */
  intervalStarts: BigInt64Array;
  intervalEnds: BigInt64Array;
}

export interface MechanismCount {
  tried: number;
  improved: number;
  /** Time spent in it, all threads (0 for group moves: too many and too short to time). */
  seconds: number;
  /** Its share (0-1) of the time all mechanisms took. */
  share: number;
  /** The fall in cost it produced in what it worked on (a thread's best answer), all threads; approximate above 2^53. */
  fall: number;
  /** fall / seconds (0 when not timed). */
  fallPerSecond: number;
}

export interface SolveStats {
  /** Outer search rounds, all threads. */
  rounds: number;
  /** Message-passing iterations (forward and backward pass), both search roles. */
  messagePasses: number;
  /** Large-neighbourhood windows solved by elimination. */
  windows: number;
  localMoves: number;
  repairs: number;
  improvements: number;
  /** With a round budget and several threads the threads keep step: the milliseconds they waited for each other at the rounds' meetings, all threads (0 otherwise). */
  meetingWaitMs: number;
  /** Strategies before and removed by the exact reductions; nodes left with one. */
  strategiesTotal: number;
  strategiesRemoved: number;
  nodesFixed: number;
  /** Groups of nodes tied by bijective edges (they move together), the nodes in them, and the node count of the problem with each group contracted (0 when none is tied). */
  tiedGroups: number;
  tiedNodes: number;
  contractedNodes: number;
  /** Per search mechanism (the core's src/mechanisms.h): how often it was tried and how often it improved what it worked on. */
  mechanisms: Record<MechanismName, MechanismCount>;
  reduceMs: number;
  firstFeasibleMs: number | null;
  /** Time the core's solve() took. */
  solverMs: number;
  /** Single-threaded back end with a signal: how many slices ran. */
  slices: number;
  history: ImprovementPoint[];
  /** Every restart of the search, in order: when the new epoch began and how the one it ended went. */
  epochs: EpochStart[];
}

/** The limit evaluate() and resultOf() judge an assignment against. */
export interface JudgeOptions {
  /** Another usage limit than the file's (null: none), as solve()'s usageLimit. */
  usageLimit?: bigint | number | null;
}

export interface SolveResult {
  /** One strategy index per node; empty when no answer was found (hasSolution false). */
  assignment: number[];
  hasSolution: boolean;
  /** Exact total cost of the assignment; null without one. */
  cost: bigint | null;
  /** Within the usage limit and free of forbidden entries. */
  feasible: boolean;
  /** Cost split and peak usage of the assignment; null without one. */
  evaluation: Evaluation | null;
  /** Proven lower bound on the optimum, when the solver has one. */
  /** The usage limit the answer was judged against: the file's, or solve()'s usageLimit (null: none). */
  usageLimit: bigint | null;
  lowerBound: bigint | null;
  gap: number | null;
  /** The exact reductions proved that no feasible assignment exists. */
  provenInfeasible: boolean;
  /** Feasible and equal to the lower bound: nothing cheaper exists. */
  provenOptimal: boolean;
  /** The signal was aborted: this is the best answer found until then. */
  aborted: boolean;
  /** Wall time of the solve() call. */
  elapsedMs: number;
  backend: 'threads' | 'single';
  /** Threads the search used. */
  threads: number;
  threadsRequested: number;
  /** Why fewer threads than asked for can run here (e.g. a page without cross-origin isolation); null otherwise. */
  threadFallback: string | null;
  stats: SolveStats;
}

export interface LoadOptions {
  /** Names the input in error messages (default 'input'). */
  source?: string;
  /**
   * Aborting rejects the load with an IopddlError of code ERR_ABORTED (its
   * `cause` is the signal's reason) before the next piece is parsed; what was
   * parsed is freed.
   */
  signal?: AbortSignal;
  /** Called after each piece (4 MB) is parsed; `bytesTotal` is null for a stream. */
  onProgress?: (progress: LoadProgress) => void;
}

export interface LoadProgress {
  /** Input bytes parsed so far (compressed bytes for gzip). */
  bytesRead: number;
  /** The input's size when known (bytes, a Blob, a file), else null. */
  bytesTotal: number | null;
}

export interface SweepOptions {
  /** The limits to solve at (any order; repeats dropped). Not with `points`. */
  limits?: ReadonlyArray<bigint | number>;
  /** How many limits the sweep chooses, 1 to 1000. Default 9. Not with `limits`. */
  points?: number;
  /** The whole sweep's time, shared out over its solves. Default as solve()'s. */
  timeLimitMs?: number;
  /** Search threads of each solve. Default: the solver's `threads`. */
  threads?: number;
  seed?: number | bigint;
  /** A round budget for each solve (0: none); with one thread and a seed, the answers repeat. */
  maxRounds?: number;
  params?: Record<string, number>;
  /**
   * Aborting stops the solve running and the rest get no time; the promise
   * resolves with every point, those not yet solved barely searched (each
   * keeps its smaller neighbour's plan). Single back end: seen between
   * slices (`sliceMs`).
   */
  signal?: AbortSignal;
  /**
   * Single-threaded back end only: with a signal, the sweep runs in slices of
   * this length so that an abort is seen between slices. The slices are one
   * resumable sweep: nothing restarts between them. Default 1000.
   */
  sliceMs?: number;
  /** Each point as it is solved (not in order of limit; its cost may still fall and its bound rise). */
  onPoint?: (point: SweepPoint) => void;
}

export interface SweepPoint {
  limit: bigint;
  /** A plan within the limit was found. */
  feasible: boolean;
  /** The plan's exact cost (the least-violating plan's when none fits). */
  cost: bigint;
  /** Proven: nothing within the limit costs less (null: none). */
  lowerBound: bigint | null;
  /** (cost - lowerBound) / cost when feasible with a bound, else null. */
  gap: number | null;
  peakUsage: bigint;
  /** The point's solve, in seconds. */
  seconds: number;
  /** Into the point's solve (null: none found). */
  firstFeasibleMs: number | null;
  provenOptimal: boolean;
  provenInfeasible: boolean;
  /** The plan is the smaller limit's (cheaper than what the point's solve found). */
  fromNeighbour: boolean;
  /** One strategy per node: `problem.resultOf(assignment)` gives the views' result. */
  assignment: number[];
}

export interface SweepResult {
  /** Every node at its least usage: no plan peaks lower. */
  leastPeak: bigint;
  /** The cheapest plan found without a limit (when the sweep chose the points). */
  freePlan: { cost: bigint; peakUsage: bigint; lowerBound: bigint | null } | null;
  /** By limit, increasing. */
  points: SweepPoint[];
  aborted: boolean;
  elapsedMs: number;
  backend: 'threads' | 'single';
}

export interface Problem {
  readonly summary: ProblemSummary;
  readonly disposed: boolean;
  /**
   * The problem's per-node arrays, exact (64-bit integers as BigInt): strategy
   * s of node i is entry strategyOffsets[i] + s of costs and usages. Copies:
   * they stay valid after dispose().
   */
  nodeData(): Promise<NodeData>;
  /**
   * Exact cost split, peak and usage profile of an assignment (rejects with
   * ERR_INVALID_ASSIGNMENT), judged against the file's usage limit or
   * `usageLimit` (as solve()'s: a sweep's point at its own limit).
   */
  evaluate(assignment: ArrayLike<number | bigint>, options?: JudgeOptions): Promise<Evaluation>;
  /**
   * A result for an assignment given, not searched (a solution read from a
   * file): as solve()'s, with the exact evaluation, no lower bound and zero
   * counts (rejects with ERR_INVALID_ASSIGNMENT), judged as evaluate() judges.
   */
  resultOf(assignment: ArrayLike<number | bigint>, options?: JudgeOptions): Promise<SolveResult>;
  solve(options?: SolveOptions): Promise<SolveResult>;
  /**
   * Memory against cost: the core's sweep (as `iopddl sweep`) at the given
   * limits, or at `points` limits from the least peak any plan has to the peak
   * of the cheapest plan without a limit (the file's limit among them). Costs
   * and bounds never rise as the limit grows.
   */
  sweep(options?: SweepOptions): Promise<SweepResult>;
  /** Frees the problem in the module (running solves keep their own reference). */
  dispose(): void;
}

export interface Solver {
  readonly backend: 'threads' | 'single';
  readonly threads: number;
  /** Why the solver runs on one thread although more were asked for; null otherwise. */
  readonly threadFallback: string | null;
  readonly version: string;
  readonly disposed: boolean;
  /**
   * Loads a problem. Rejects with an IopddlError (code ERR_INVALID_INPUT) whose
   * message names the field and index, as the native CLI's does; with
   * ERR_ABORTED when `options.signal` aborts first.
   */
  load(input: ProblemInput, options?: LoadOptions): Promise<Problem>;
  /**
   * Node.js: loads the file at `path` (JSON or gzip), read in pieces: it is
   * never held whole. Rejects with ERR_IO when it cannot be read; in a browser
   * it throws a TypeError (give load() a File instead).
   */
  loadFile(path: string | URL, options?: LoadOptions): Promise<Problem>;
  /**
   * Reads a solution text (its last line [s0, s1, ...], so a whole CLI output
   * works). Rejects with ERR_INVALID_ASSIGNMENT naming what is wrong.
   */
  parseSolution(text: string, options?: { source?: string }): Promise<Int32Array>;
  /** Bytes of WebAssembly memory the module holds now. */
  memoryBytes(): number;
  /** Stops running solves and ends the module's threads or Worker. */
  dispose(): Promise<void>;
}

export type IopddlErrorCode =
  | 'ERR_INVALID_INPUT'
  | 'ERR_IO'
  | 'ERR_INVALID_ASSIGNMENT'
  | 'ERR_ABORTED'
  | 'ERR_OUT_OF_MEMORY'
  | 'ERR_DISPOSED'
  | 'ERR_NO_THREADS'
  | 'ERR_MODULE_LOAD'
  | 'ERR_MODULE_CRASHED'
  | 'ERR_INVALID_PARAMS'
  | 'ERR_SOLVER';

export declare class IopddlError extends Error {
  readonly name: 'IopddlError';
  readonly code: IopddlErrorCode;
}

export declare const VERSION: string;
/** Node and edge entries at or above this are forbidden choices (the core's kForbidden, 10^18). */
export declare const FORBIDDEN_COST: bigint;
/** The time limit solve() applies when none is given (the core's default), in milliseconds. */
export declare const DEFAULT_TIME_LIMIT_MS: number;

/** Starts a solver: the WebAssembly module and its thread pool. */
export declare function createSolver(options?: CreateSolverOptions): Promise<Solver>;
