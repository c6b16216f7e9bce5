import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The reliability catalogue's checks at their full size, where CI runs them
 * smaller: the ledger model test at 200 runs × up to 1,000 commands (CI: up to
 * 40); 20 SIGKILLs of worker processes at seeded-random stages (CI: 5, every
 * stage once). 1,000 tasks × 8 workers without a double claim runs at full
 * size in CI too and is repeated here. Needs BENCH_DATABASE_URL (a PostgreSQL
 * server) for the claim race and the kills; without it those files are
 * skipped and the report says so. PODTEXT_CHAOS_SEED replays the kills' stages.
 */
const CHECKS: { name: string; file: string }[] = [
  { name: 'ledger model, 200 runs × up to 1,000 commands', file: 'src/core/ledger.test.ts' },
  { name: '1,000 tasks × 8 workers in two processes, no double claim (PostgreSQL)', file: 'test/chaos/claim-race.test.ts' },
  { name: '20 SIGKILLs of worker processes at seeded-random stages, each reclaimed after its lease, settled and charged once (PostgreSQL)', file: 'test/chaos/worker-kills.test.ts' },
];

/** The kills' own account of the run (seed, stages hit, reclaim delays), printed by the test. */
function killSummary(output: string): string[] {
  const m = /WORKER-KILLS (\{.*\})/.exec(output);
  if (!m) return [];
  const s = JSON.parse(m[1]!) as { seed: number; kills: number; leaseSeconds: number; hit: Record<string, number>; reclaimed: number; settledBeforeKill: number; reclaimAfterLeaseSeconds: { min: number; max: number }; killPhaseSeconds: number; seconds: number };
  const hit = Object.entries(s.hit).map(([stage, n]) => `${stage} ${n}`).join(', ');
  return [
    '',
    `Worker kills: seed ${s.seed} (replay: PODTEXT_CHAOS_SEED=${s.seed}), ${s.kills} kills, stages hit: ${hit}; lease ${s.leaseSeconds} s;`,
    `${s.reclaimed} claimed again ${s.reclaimAfterLeaseSeconds.min.toFixed(1)}–${s.reclaimAfterLeaseSeconds.max.toFixed(1)} s after the lease ran out, ${s.settledBeforeKill} already stored when killed;`,
    `every episode settled, unlocked and charged once; kills done in ${s.killPhaseSeconds} s, all settled in ${s.seconds} s.`,
  ];
}

function runVitest(file: string, env: Record<string, string>): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now();
  const repo = fileURLToPath(new URL('..', import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file], { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

export async function runChaosBench(): Promise<string[]> {
  const env: Record<string, string> = { PODTEXT_CHAOS_FULL: '1' };
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const lines = ['## Reliability checks at full size', '| check | result | seconds |', '|---|---|---|'];
  let failed = 0;
  const notes: string[] = [];
  for (const check of CHECKS) {
    const r = await runVitest(check.file, env);
    const skipped = /\d+ skipped/.test(r.output) && !/\d+ passed/.test(r.output);
    const result = r.code !== 0 ? 'FAILED' : skipped ? 'skipped (no BENCH_DATABASE_URL)' : 'passed';
    if (r.code !== 0) {
      failed++;
      console.error(r.output.slice(-4000));
    }
    lines.push(`| ${check.name} | ${result} | ${r.seconds.toFixed(0)} |`);
    notes.push(...killSummary(r.output));
  }
  lines.push(...notes);
  if (failed) throw new Error(`${failed} check(s) failed:\n${lines.join('\n')}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runChaosBench()).join('\n'));
}
