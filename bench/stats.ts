/** Small helpers for the bench: timing and percentiles (medians, since these machines are noisy). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round(sorted[index] as number);
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export async function sample(runs: number, fn: () => Promise<unknown> | unknown): Promise<{ p50: number; p95: number; runs: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push((await time(fn)).ms);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), runs };
}

/** Like `sample`, for runs with untimed setup: `fn` returns the milliseconds that count. */
export async function sampleTimed(runs: number, fn: () => Promise<number>): Promise<{ p50: number; p95: number; runs: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await fn());
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), runs };
}
