import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../audio/run-command.js';
import type { AsrWord } from './asr-engine.js';

/**
 * The show's own words for pocketsphinx. The general language model rarely
 * has a guest's name, so the decoder cannot output it however clearly it is
 * said. A keyword-spotting pass (`-kws`) looks for each vocabulary phrase
 * with its own threshold, and what it finds replaces the words the language
 * model put at that time. Words missing from the dictionary get their
 * pronunciation from flite's letter-to-sound rules (`t2p`).
 */

/** One phrase to spot: how it is written, its dictionary words and how many phones it has. */
export interface SpotPhrase {
  text: string;
  words: string[];
  phones: number;
}

export interface PreparedVocabulary {
  /** The dictionary with the missing words added. */
  dictFile: string;
  /** The `-kws` file: one phrase a line with its threshold. */
  kwsFile: string;
  phrases: SpotPhrase[];
}

/** Phrases shorter than this many phones are spotted everywhere ("Tom" in "tomorrow"): left out. */
const MIN_PHONES = 5;
/** flite's phones that the en-us model spells differently. */
const PHONE_MAP: Record<string, string> = { ax: 'AH' };
const cacheRoot = join(tmpdir(), 'podtext-sphinx-vocabulary');

/** Threshold for a phrase of `phones` phones: longer phrases pile up more score, so they need a lower one. */
export function spotThreshold(phones: number): string {
  return `1e-${Math.min(50, 2 * phones + 2)}`;
}

/** A pronunciation from `t2p`, in the en-us dictionary's phones; null when t2p fails. */
export async function letterToSound(word: string, t2p = 't2p'): Promise<string[] | null> {
  try {
    const run = await runCommand(t2p, [word], { timeoutMs: 10_000 });
    if (run.exitCode !== 0) return null;
    const phones = run.stdout
      .trim()
      .split(/\s+/)
      .filter((p) => p && p !== 'pau')
      .map((p) => p.replace(/\d$/, ''))
      .map((p) => PHONE_MAP[p] ?? p.toUpperCase());
    return phones.length > 0 && phones.every((p) => /^[A-Z]+$/.test(p)) ? phones : null;
  } catch {
    return null;
  }
}

/** Words of a phrase as the dictionary spells them: lower case letters and apostrophes. */
export function phraseWords(phrase: string): string[] {
  return phrase
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z']+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** Reads a sphinx dictionary into word → phone count (first pronunciation). */
export async function readDictionary(dictFile: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await readFile(dictFile, 'utf8')).split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 2 || parts[0].includes('(')) continue;
    out.set(parts[0], parts.length - 1);
  }
  return out;
}

/**
 * Writes (or finds, cached by content under the temp directory) the
 * extended dictionary and keyword file for a vocabulary.
 */
export async function prepareVocabulary(
  vocabulary: readonly string[],
  dictFile: string,
  dictionary: Map<string, number>,
): Promise<PreparedVocabulary | null> {
  const additions = new Map<string, string[]>();
  const phrases: SpotPhrase[] = [];
  const seen = new Set<string>();
  for (const text of vocabulary) {
    const words = phraseWords(text);
    const key = words.join(' ');
    if (words.length === 0 || words.length > 4 || seen.has(key)) continue;
    seen.add(key);
    let phones = 0;
    let ok = true;
    for (const w of words) {
      const known = dictionary.get(w) ?? additions.get(w)?.length;
      if (known !== undefined) {
        phones += known;
        continue;
      }
      const sounds = await letterToSound(w);
      if (!sounds) {
        ok = false;
        break;
      }
      additions.set(w, sounds);
      phones += sounds.length;
    }
    if (ok && phones >= MIN_PHONES) phrases.push({ text: text.trim(), words, phones });
  }
  if (phrases.length === 0) return null;
  const kws = phrases.map((p) => `${p.words.join(' ')} /${spotThreshold(p.phones)}/`).join('\n') + '\n';
  const extra = [...additions].map(([w, p]) => `${w} ${p.join(' ')}`).join('\n');
  const key = createHash('sha256').update(`${dictFile}\n${kws}\n${extra}`).digest('hex').slice(0, 20);
  const dir = join(cacheRoot, key);
  const prepared = { dictFile: join(dir, 'dict'), kwsFile: join(dir, 'kws'), phrases };
  if (await exists(prepared.kwsFile)) return prepared;
  await mkdir(dir, { recursive: true });
  const base = await readFile(dictFile, 'utf8');
  const suffix = `${process.pid}.${Date.now()}`;
  await writeFile(`${prepared.dictFile}.${suffix}`, `${base.replace(/\n?$/, '\n')}${extra}${extra ? '\n' : ''}`);
  await rename(`${prepared.dictFile}.${suffix}`, prepared.dictFile);
  await writeFile(`${prepared.kwsFile}.${suffix}`, kws);
  await rename(`${prepared.kwsFile}.${suffix}`, prepared.kwsFile);
  return prepared;
}

/** One keyword-spotting detection: the phrase's dictionary words and where it was heard. */
export interface Detection {
  words: string[];
  s: number;
  e: number;
  score: number;
}

/** Reads `pocketsphinx_continuous -kws … -time yes` output: `phrase start end score` lines. */
export function parseDetections(stdout: string): Detection[] {
  const out: Detection[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^([a-z' ]+?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s*$/.exec(line.trim());
    if (m) out.push({ words: m[1].trim().split(/\s+/), s: Number(m[2]), e: Number(m[3]), score: Number(m[4]) });
  }
  return out;
}

/**
 * Puts spotted phrases into the recognised words: longer phrases first, one
 * detection per stretch of time; the words the language model put there
 * (their middle inside the detection) give way to the phrase as the
 * vocabulary writes it, its words spread evenly over the detection.
 */
export function mergeDetections(words: AsrWord[], detections: Detection[], phrases: SpotPhrase[]): AsrWord[] {
  const byKey = new Map(phrases.map((p) => [p.words.join(' '), p]));
  const ordered = [...detections].sort((a, b) => b.words.length - a.words.length || b.score - a.score);
  const taken: Detection[] = [];
  for (const d of ordered) {
    if (d.e <= d.s || !byKey.has(d.words.join(' '))) continue;
    if (taken.some((t) => d.s < t.e && t.s < d.e)) continue;
    taken.push(d);
  }
  if (taken.length === 0) return words;
  const kept = words.filter((w) => !taken.some((d) => (w.s + w.e) / 2 >= d.s && (w.s + w.e) / 2 <= d.e));
  for (const d of taken) {
    const written = byKey.get(d.words.join(' '))!.text.split(/\s+/);
    const step = (d.e - d.s) / written.length;
    written.forEach((w, i) => kept.push({ w, s: round(d.s + i * step), e: round(d.s + (i + 1) * step) }));
  }
  return kept.sort((a, b) => a.s - b.s || a.e - b.e);
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}
