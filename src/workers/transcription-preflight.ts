import type { AsrEngine } from '../infra/asr/asr-engine.js';
import { runCommand } from '../infra/audio/run-command.js';

/** What the transcription workers need from the machine, and what is missing. */
export interface Preflight {
  ok: boolean;
  /** One line per missing part, saying what to install. */
  problems: string[];
  fastOk: boolean;
  fastProblem?: string;
}

async function hasProgram(name: string): Promise<boolean> {
  try {
    const run = await runCommand(name, ['-version'], { timeoutMs: 10_000 });
    return run.exitCode === 0;
  } catch {
    return false;
  }
}

/**
 * Checks ffmpeg, ffprobe and the lanes' engines before any task is claimed,
 * so a machine without them says what to install instead of failing every
 * episode. The API keeps serving either way.
 */
export async function checkTranscriptionTools(engines: { standard: AsrEngine; fast: AsrEngine }): Promise<Preflight> {
  const problems: string[] = [];
  const missing = [];
  for (const program of ['ffmpeg', 'ffprobe']) if (!(await hasProgram(program))) missing.push(program);
  if (missing.length > 0) problems.push(`${missing.join(' and ')} not found (Debian/Ubuntu: apt install ffmpeg; macOS: brew install ffmpeg)`);
  const standard = await engines.standard.available();
  if (!standard.ok) problems.push(`standard-lane engine ${engines.standard.name}: ${standard.reason}`);
  const fast = engines.fast === engines.standard ? standard : await engines.fast.available();
  return { ok: problems.length === 0, problems, fastOk: fast.ok, fastProblem: fast.ok ? undefined : `fast-lane engine ${engines.fast.name}: ${fast.reason}` };
}
