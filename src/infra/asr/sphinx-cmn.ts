import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The cepstral mean a file starts from. pocketsphinx_continuous (5prealpha)
 * normalises the cepstrum by a running mean that starts at the model's
 * `-cmninit` and is first updated 8 s into an utterance or at its end, so a
 * clip or chunk starts with the mean of the model's training audio, not its
 * own: for LibriVox and flite's voices c0–c3 were 10–20 off. That file's own
 * mean, read from a cheap first pass (a one-word language model: the
 * front end is the same, the search all but empty: 1 % of the decoding's
 * CPU), is handed to the decode as `-cmninit` in a copy of the model's
 * feat.params (the one in the model directory overrides `-cmninit` on the
 * command line). On the evaluation set: tuning 78 → 56 errors of 400 words,
 * held out rms 12 → 11 of 89 and LibriVox 25 → 20 of 71
 * (`bench/asr-tune.ts`, settings `default` against `nocmn`).
 */
const cacheRoot = join(tmpdir(), 'podtext-sphinx-cmn');

/** A language model of one word and its dictionary: a decode that does the front end's work and next to no search. */
const PROBE_LM = '\\data\\\nngram 1=3\n\n\\1-grams:\n-0.5 </s>\n-99 <s>\n-0.5 hello\n\n\\end\\\n';
const PROBE_DICT = 'hello HH AH L OW\n';

export interface CmnProbe {
  lmFile: string;
  dictFile: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${Date.now()}`;
  await writeFile(temp, text);
  await rename(temp, file);
}

/** The probe's language model and dictionary, written once under the temp directory. */
export async function prepareCmnProbe(): Promise<CmnProbe> {
  const dir = join(cacheRoot, createHash('sha256').update(`${PROBE_LM}\n${PROBE_DICT}`).digest('hex').slice(0, 20));
  const probe = { lmFile: join(dir, 'probe.lm'), dictFile: join(dir, 'probe.dict') };
  if ((await exists(probe.lmFile)) && (await exists(probe.dictFile))) return probe;
  await mkdir(dir, { recursive: true });
  await writeAtomic(probe.lmFile, PROBE_LM);
  await writeAtomic(probe.dictFile, PROBE_DICT);
  return probe;
}

/** pocketsphinx arguments for the probe pass; the acoustic model and warp must be the decode's. */
export function cmnProbeArgs(probe: CmnProbe): string[] {
  // -fwdflat stays on: without it the end-of-utterance update (the one a short clip has) is not made.
  // The mean is the front end's, made from every frame whatever the search scores: scoring one
  // frame in 50, one Gaussian each, gave the same mean to two decimals at a twentieth of the CPU.
  return ['-lm', probe.lmFile, '-dict', probe.dictFile, '-bestpath', 'no', '-ds', '50', '-topn', '1', '-maxhmmpf', '10'];
}

/** The mean in one of sphinx's `cmn_live.c … Update to < c0 c1 … >` log lines, or null. */
export function parseCmnUpdate(line: string): number[] | null {
  const m = /Update to\s*<([^>]*)>/.exec(line);
  if (!m) return null;
  const values = m[1].trim().split(/\s+/).map(Number);
  return values.length >= 2 && values.every(Number.isFinite) ? values : null;
}

/** The model's feat.params with `-cmninit` set to `mean`. */
export function featParamsWithCmn(featParams: string, mean: readonly number[]): string {
  const line = `-cmninit ${mean.map((v) => v.toFixed(2)).join(',')}`;
  return /^-cmninit\s.*$/m.test(featParams) ? featParams.replace(/^-cmninit\s.*$/m, line) : `${featParams.replace(/\n?$/, '\n')}${line}\n`;
}

let counter = 0;

/** Writes a feat.params for one decode; the caller removes it. */
export async function writeFeatParams(modelFeatParams: string, mean: readonly number[]): Promise<string> {
  await mkdir(cacheRoot, { recursive: true });
  const file = join(cacheRoot, `feat.${process.pid}.${Date.now()}.${counter++}.params`);
  await writeFile(file, featParamsWithCmn(modelFeatParams, mean));
  return file;
}

/** The model's feat.params text, or null when the model has none. */
export async function readFeatParams(hmmDir: string): Promise<string | null> {
  try {
    return await readFile(join(hmmDir, 'feat.params'), 'utf8');
  } catch {
    return null;
  }
}
