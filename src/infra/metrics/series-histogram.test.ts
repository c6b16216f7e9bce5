import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesHistogram } from './series-histogram.js';

const BOUNDS = [0.001, 0.005, 0.1, 1, 10];

describe('SeriesHistogram', () => {
  it('is exposed exactly as prom-client exposes its own histogram of the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const fast = new SeriesHistogram('t_seconds', 'Timings.', BOUNDS, ours);
    const reference = new Histogram({ name: 't_seconds', help: 'Timings.', labelNames: ['method', 'route', 'status'], buckets: BOUNDS, registers: [theirs] });
    const observations: [Record<'method' | 'route' | 'status', string>, number][] = [
      [{ method: 'GET', route: '/api/v1/me', status: '200' }, 0.0004],
      [{ method: 'GET', route: '/api/v1/me', status: '200' }, 0.005],
      [{ method: 'GET', route: '/api/v1/me', status: '200' }, 0.02],
      [{ method: 'POST', route: '/graphql', status: '401' }, 3],
      [{ method: 'POST', route: '/graphql', status: '401' }, 42],
      [{ method: 'GET', route: 'unmatched', status: '404' }, 0.1],
    ];
    for (const [labels, value] of observations) {
      fast.series(labels).observe(value);
      reference.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('counts one series per label set, however often it is looked up, and forgets on reset', async () => {
    const registry = new Registry();
    const h = new SeriesHistogram('u_seconds', 'U.', BOUNDS, registry);
    h.series({ route: '/a' }).observe(0.002);
    h.series({ route: '/a' }).observe(0.003);
    h.series({ route: '/a' }).observe(Number.NaN);
    const text = await registry.metrics();
    expect(text).toContain('u_seconds_bucket{le="0.005",route="/a"} 2');
    expect(text).toContain('u_seconds_count{route="/a"} 2');
    h.reset();
    expect(await registry.metrics()).not.toContain('u_seconds_count');
  });
});
