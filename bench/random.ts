/** The benchmarks' one source of randomness: seeded, so every run generates the same data. */

/**
 * A small seeded pseudo-random stream (a 32-bit xorshift with a multiplicative finaliser). Good
 * enough for test data, never for anything secret. Seed 0 is mapped to a fixed non-zero state.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9 || 0x2545f491;
  }

  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return (Math.imul(this.state, 0x2c1b3c6d) >>> 0) / 0x1_0000_0000;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi] (both inclusive). */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** True with probability p (0–1). */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A standard normal sample (Box–Muller; one of the pair is thrown away for simplicity). */
  gaussian(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
