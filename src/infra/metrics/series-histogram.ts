import type { Metric, Registry } from 'prom-client';

/** One label set's counts; `buckets[i]` counts observations in bucket i alone (exposed cumulatively). */
interface Series {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** What an observation goes to: one label set, resolved once. */
export interface HistogramSeries {
  observe(value: number): void;
}

/**
 * A Prometheus histogram whose label sets are resolved once, for the one
 * observed on every request: an observation is a bucket search and three
 * additions. prom-client's own histogram converts, validates and hashes the
 * labels object on each call, even through a child (with the timing around
 * it, about 7 % of the CPU of a warm `GET /me`, BENCHMARKS.md). It registers
 * in a prom-client registry and is exposed in the same text format.
 */
export class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();
  readonly #bounds: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    bounds: readonly number[],
    registry: Registry,
  ) {
    this.#bounds = [...bounds].sort((a, b) => a - b);
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of `labels` (kept in the given key order), created on first use. */
  series(labels: Record<string, string>): HistogramSeries {
    const key = Object.entries(labels).join('\u0000');
    let s = this.#series.get(key);
    if (!s) this.#series.set(key, (s = { labels: { ...labels }, buckets: new Float64Array(this.#bounds.length), sum: 0, count: 0 }));
    const series = s;
    const bounds = this.#bounds;
    return {
      observe(value: number) {
        if (!Number.isFinite(value)) return;
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            series.buckets[i]! += 1;
            break;
          }
        }
        series.sum += value;
        series.count += 1;
      },
    };
  }

  /** The registry's view: `_bucket` (cumulative, `le` first, then `+Inf`), `_sum` and `_count` per series. */
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.#series.values()) {
      let below = 0;
      this.#bounds.forEach((le, i) => {
        below += s.buckets[i]!;
        values.push({ labels: { le, ...s.labels }, value: below, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
