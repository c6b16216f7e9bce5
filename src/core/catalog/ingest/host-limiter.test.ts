import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createHostLimiter, hostOf, mapWithConcurrency } from './host-limiter.js';

describe('host limiter', () => {
  it('keeps at most perHost tasks running per host, and others independent', async () => {
    const limiter = createHostLimiter(2);
    const active = new Map<string, number>();
    const peak = new Map<string, number>();
    const task = (host: string) =>
      limiter.run(host, async () => {
        active.set(host, (active.get(host) ?? 0) + 1);
        peak.set(host, Math.max(peak.get(host) ?? 0, active.get(host)!));
        await sleep(5);
        active.set(host, active.get(host)! - 1);
        return host;
      });
    const hosts = [...Array(10).fill('a.example'), ...Array(3).fill('b.example')];
    expect(await Promise.all(hosts.map(task))).toEqual(hosts);
    expect(peak.get('a.example')).toBe(2);
    expect(peak.get('b.example')).toBe(2);
  });

  it('frees the slot when a task throws', async () => {
    const limiter = createHostLimiter(1);
    await expect(limiter.run('h', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await limiter.run('h', async () => 'ok')).toBe('ok');
  });

  it('starts a task someone waits for before queued background ones, and gives up on it past its wait', async () => {
    const limiter = createHostLimiter(1);
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const busy = limiter.run('h', () => gate);
    const background = [1, 2].map((n) => limiter.run('h', async () => void order.push(`background ${n}`)));
    const urgent = limiter.run('h', async () => void order.push('urgent'), { urgent: true });
    const impatient = limiter.run('h', async () => void order.push('impatient'), { urgent: true, maxWaitMs: 20 });
    // Podtext's own queue is full: try again (503 with Retry-After), not a bad query.
    await expect(impatient).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/busy/), details: { retryAfter: 60 } });
    open();
    await Promise.all([busy, urgent, ...background]);
    expect(order).toEqual(['urgent', 'background 1', 'background 2']);
    // The one that gave up left no slot taken.
    expect(await limiter.run('h', async () => 'free')).toBe('free');
  });

  it('keys URLs by host and port', () => {
    expect(hostOf('https://Feeds.Example.com/a.xml')).toBe('feeds.example.com');
    expect(hostOf('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080');
  });

  it('maps with bounded concurrency, in order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 4, 2, 3], 2, async (n) => {
      peak = Math.max(peak, ++inFlight);
      await sleep(n);
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });
});
