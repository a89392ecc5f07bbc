// Type declarations for require('iopddl-wasm'). The same API as the ES module;
// the error class itself is not exported here: test `err.code` (or `err.name`).
import type { CreateSolverOptions, Solver } from './index.js';

export type {
  CreateSolverOptions, EpochStart, Evaluation, ImprovementPoint, IopddlErrorCode, LoadOptions, Problem, ProblemInput, ProblemJson,
  JudgeOptions, ProblemSummary, Progress, SolveOptions, SolveResult, SolveStats, Solver, SweepOptions, SweepPoint,
  SweepResult, UsageProfile,
} from './index.js';

export declare const VERSION: string;
export declare const FORBIDDEN_COST: bigint;
export declare const DEFAULT_TIME_LIMIT_MS: number;
export declare function createSolver(options?: CreateSolverOptions): Promise<Solver>;
