import { describe, expect, it } from 'vitest';
import type { AsrResult } from '../../src/infra/asr/asr-engine.js';
import type { Chunk } from '../../src/infra/audio/wav-file.js';
import { transcribeChunks } from '../../src/workers/transcription-chunks.js';
import { SlotPool } from '../../src/workers/transcription-slots.js';

const chunks: Chunk[] = Array.from({ length: 8 }, (_, i) => ({ index: i, startSeconds: i * 30, endSeconds: i * 30 + 30 }));

/** A stand-in recogniser that takes `ms` per chunk and records how many run at once. */
function slowEngine(ms: number) {
  let running = 0;
  let peak = 0;
  const run = async (chunk: Chunk): Promise<AsrResult> => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, ms));
    running -= 1;
    return { words: [{ w: `w${chunk.index}`, s: 1, e: 2 }], text: `w${chunk.index}`, engine: 'sphinx', model: 'en-us', language: 'en' };
  };
  return { run, peak: () => peak };
}

describe('chunks borrow idle slots of the pool', () => {
  it('a task on a pool of 3 with an empty queue runs 3 chunks at once and gives the slots back', async () => {
    const pool = new SlotPool(3);
    pool.take();
    pool.queueEmpty = true;
    const engine = slowEngine(40);
    const started = Date.now();
    const { results, borrowedSeconds } = await transcribeChunks(chunks, engine.run, { lender: pool, signal: new AbortController().signal });
    expect(engine.peak()).toBe(3);
    expect(Date.now() - started).toBeLessThan(8 * 40);
    expect(results.map((r) => r.text)).toEqual(chunks.map((c) => `w${c.index}`));
    expect(borrowedSeconds).toBeGreaterThan(0);
    expect(pool.free()).toBe(2);
  });

  it('no borrowing while the queue has work: waiting tasks keep their slots', async () => {
    const pool = new SlotPool(3);
    pool.take();
    pool.queueEmpty = false;
    const engine = slowEngine(5);
    const { borrowedSeconds } = await transcribeChunks(chunks, engine.run, { lender: pool, signal: new AbortController().signal });
    expect(engine.peak()).toBe(1);
    expect(borrowedSeconds).toBe(0);
  });

  it('the first failure stops the rest and is thrown; lent slots come back', async () => {
    const pool = new SlotPool(2);
    pool.take();
    pool.queueEmpty = true;
    let calls = 0;
    const failing = async (chunk: Chunk, signal: AbortSignal): Promise<AsrResult> => {
      calls += 1;
      if (chunk.index === 1) throw new Error('engine crashed');
      await new Promise((r) => setTimeout(r, 30));
      if (signal.aborted) throw new Error('aborted');
      return { words: [], text: '', engine: 'sphinx', model: 'en-us', language: 'en' };
    };
    await expect(transcribeChunks(chunks, failing, { lender: pool, signal: new AbortController().signal })).rejects.toThrow('engine crashed');
    expect(calls).toBeLessThan(chunks.length);
    expect(pool.free()).toBe(1);
  });
});
