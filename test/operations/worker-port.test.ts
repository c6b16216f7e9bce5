import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../jobs/support/wait.js';
import { type PodtextProcess, spawnPodtext } from './support/podtext-process.js';

const TOKEN = 'worker-metrics-token';
let worker: PodtextProcess | undefined;
afterEach(async () => {
  await worker?.dispose();
  worker = undefined;
});

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text() };
}

describe('a ROLE=worker process on PORT', () => {
  it('serves /livez, /readyz and its own /metrics (behind METRICS_TOKEN), nothing else, and reports draining on SIGTERM', async () => {
    worker = await spawnPodtext('worker', { WORKERS: '1', METRICS_TOKEN: TOKEN, SHUTDOWN_DELAY_SECONDS: '1' });
    const started = worker.logLines().find((l) => typeof l.msg === 'string' && l.msg.includes('is serving'));
    expect(started).toMatchObject({ role: 'worker', url: worker.url, pid: worker.child.pid });
    expect(worker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(worker.url).not.toMatch(/:0$/);

    expect(await get(`${worker.url}/livez`)).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(await get(`${worker.url}/readyz`)).toEqual({ status: 200, body: '{"status":"ready"}' });
    expect((await get(`${worker.url}/metrics`)).status).toBe(401);
    const metrics = await get(`${worker.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(metrics.status).toBe(200);
    // This process's own counters, and the deployment's gauges read from the database.
    expect(metrics.body).toContain('podtext_http_request_duration_seconds_count{method="GET",route="/livez",status="200"} 1');
    expect(metrics.body).toMatch(/^podtext_tasks\{/m);
    expect(metrics.body).toMatch(/^process_resident_memory_bytes /m);

    // No API, site or GraphQL on a worker.
    for (const path of ['/api/v1/me', '/graphql', '/', '/openapi.json']) {
      const res = await get(`${worker.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'not_found' } });
    }

    worker.child.kill('SIGTERM');
    const draining = await waitFor(async () => {
      const r = await get(`${worker!.url}/readyz`).catch(() => undefined);
      return r?.status === 503 ? r : undefined;
    }, 5000, 'readiness 503');
    expect(JSON.parse(draining.body)).toEqual({ status: 'draining', problems: ['shutting down'] });
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('"msg":"stopped"');
  }, 90_000);
});
