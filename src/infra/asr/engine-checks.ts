import { CommandInterrupted, runCommand, type RunCommandOptions, type RunCommandResult } from '../audio/run-command.js';
import { readWavInfo, type WavInfo } from '../audio/wav-file.js';
import { AsrError } from './asr-engine.js';

/**
 * The header of the WAV an engine was given. Engines take what decodeToPcm
 * writes (16 kHz mono 16-bit PCM); anything else is a caller's mistake,
 * reported as an AsrError before an engine process is started.
 */
export async function readPcmWav(file: string): Promise<WavInfo> {
  let info: WavInfo;
  try {
    info = await readWavInfo(file);
  } catch (err) {
    throw new AsrError('failed', `cannot read ${file} as WAV: ${(err as Error).message}`);
  }
  checkPcmWav(info);
  return info;
}

function checkPcmWav(info: WavInfo): void {
  if (info.sampleRate !== 16_000 || info.channels !== 1 || info.bitsPerSample !== 16) {
    throw new AsrError(
      'failed',
      `expected 16 kHz mono 16-bit PCM, got ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample} bit`,
    );
  }
}

/** `en-US` matches `en`: engines know languages, not regions. */
export function languageMatches(asked: string, supported: string): boolean {
  const base = (tag: string): string => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return base(asked) === base(supported);
}

/** Why a program could not be started, for `available()` and `unavailable` errors. */
export function spawnFailure(binary: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${binary} not found`;
  if (code === 'EACCES') return `${binary} is not executable`;
  return `${binary} could not be started: ${(err as Error | undefined)?.message ?? String(err)}`;
}

/**
 * Runs an engine program: a program that cannot be started is `unavailable`,
 * an aborted run is `aborted` (AsrErrors both); a stop signal from outside
 * passes through as `CommandInterrupted`. Everything else is the caller's to judge.
 */
export async function runEngine(binary: string, args: readonly string[], opts: RunCommandOptions): Promise<RunCommandResult> {
  let run: RunCommandResult;
  try {
    run = await runCommand(binary, args, opts);
  } catch (err) {
    if (err instanceof CommandInterrupted) throw err;
    throw new AsrError('unavailable', spawnFailure(binary, err));
  }
  if (run.aborted) throw new AsrError('aborted', 'transcription aborted');
  return run;
}
