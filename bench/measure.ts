/**
 * Small measuring helpers shared by the benchmarks: percentiles, a peak-RSS sampler, and one way
 * of printing a figure next to its target. Benchmarks only print; nothing here fails a run.
 */
import os from 'node:os';

/** The p-th percentile (0–100) of `values` by nearest rank; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Milliseconds since `t0` (a `performance.now()` reading). */
export function since(t0: number): number {
  return performance.now() - t0;
}

/** A number rounded for printing: `digits` decimals (default 1), thousands separated. */
export function fmt(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Bytes as MB (10⁶ bytes, as the targets are written). */
export function mb(bytes: number): string {
  return `${fmt(bytes / 1e6)} MB`;
}

/** A target a figure is held to: at most or at least `value`. */
export interface Target {
  atMost?: number;
  atLeast?: number;
}

/**
 * Print `label: value unit` with its target and ✓/✗ (or no mark when there is no target).
 * Returns whether the target was met (true when there is none).
 */
export function figure(label: string, value: number, unit: string, target?: Target, digits = 1): boolean {
  let mark = '';
  let met = true;
  if (target?.atMost !== undefined) {
    met = value <= target.atMost;
    mark = `  target ≤ ${fmt(target.atMost, digits)} ${unit}  ${met ? '✓' : '✗'}`;
  } else if (target?.atLeast !== undefined) {
    met = value >= target.atLeast;
    mark = `  target ≥ ${fmt(target.atLeast, digits)} ${unit}  ${met ? '✓' : '✗'}`;
  }
  console.log(`  ${label.padEnd(44)} ${`${fmt(value, digits)} ${unit}`.padStart(16)}${mark}`);
  return met;
}

/** Print a line of context (no target). */
export function note(label: string, text: string): void {
  console.log(`  ${label.padEnd(44)} ${text}`);
}

/** One line saying where the figures were measured: Node, CPUs, load averages. */
export function machineLine(): string {
  const [l1, l5, l15] = os.loadavg().map((l) => l.toFixed(2));
  return `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load ${l1} / ${l5} / ${l15} (1/5/15 min)`;
}

/**
 * Samples the process's resident set size every `intervalMs` (default 100; worker threads share
 * the process, so their memory is included) and keeps the peak since the last `reset()`.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private highest = 0;
  private highestEver = 0;

  constructor(private readonly intervalMs = 100) {}

  /** Start sampling (the timer does not keep the process alive). */
  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  /** Forget the peak so far and start a new phase from the current RSS. */
  reset(): void {
    this.highest = 0;
    this.sample();
  }

  /** The highest RSS seen since `start()` or `reset()`, in bytes (sampled once more now). */
  peak(): number {
    this.sample();
    return this.highest;
  }

  /** The highest RSS seen since `start()`, whatever `reset()` did, in bytes. */
  overallPeak(): number {
    this.sample();
    return this.highestEver;
  }

  /** Stop sampling. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    this.highest = Math.max(this.highest, rss);
    this.highestEver = Math.max(this.highestEver, rss);
  }
}
