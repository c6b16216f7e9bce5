import { describe, expect, it } from 'vitest';
import { bindListener } from '../../src/boot.js';

describe('the health probes while the database is opened and migrated', () => {
  it('answer at once (alive, not ready) while other requests wait for the start', async () => {
    const listener = await bindListener({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${listener.port}`;
    try {
      const live = await fetch(`${base}/livez`, { signal: AbortSignal.timeout(2_000) });
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) });
      expect(ready.status).toBe(503);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(await ready.json()).toEqual({ status: 'unavailable', problems: ['starting: opening and migrating the database'] });

      // Anything else is held until Podtext serves, then answered by it.
      let answered = false;
      const held = fetch(`${base}/api/v1/me`).then(async (res) => {
        answered = true;
        return res.status;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      listener.serve((_req, res) => res.writeHead(204).end());
      expect(await held).toBe(204);
    } finally {
      await new Promise((resolve) => listener.server.close(resolve));
    }
  });
});
