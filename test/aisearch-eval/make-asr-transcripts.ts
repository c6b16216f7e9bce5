/**
 * Rebuilds the speech-recognition transcripts of the evaluation set from the
 * public-domain passages in `sources/`: flite speaks each passage, ffmpeg
 * resamples it to 16 kHz mono and pocketsphinx transcribes it. The output is
 * real recogniser output (lowercase, unpunctuated, with its own errors), not
 * hand-written noise. Needs the Debian packages flite, ffmpeg and pocketsphinx
 * with pocketsphinx-en-us; the JSON it writes is committed, so tests never
 * run it.
 *
 * Usage: `npx tsx test/aisearch-eval/make-asr-transcripts.ts`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchableTranscript, SearchableSegment } from '../../src/core/aisearch/searchable-transcript.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Which passage is spoken by which flite voice; different voices give different errors. */
const jobs = [
  { source: 'sense-ch1.txt', voice: 'slt', out: 'sense-ch1-asr.json' },
  { source: 'sense-ch12.txt', voice: 'rms', out: 'sense-ch12-asr.json' },
  { source: 'sense-ch13.txt', voice: 'kal16', out: 'sense-ch13-asr.json' },
];

const fillers = new Set(['<s>', '</s>', '<sil>', '[speech]', '[noise]', '<unk>']);

/** A pause this long (seconds) ends a segment once the segment has some length. */
const pauseSeconds = 0.25;
const minSegmentSeconds = 4;
const maxSegmentSeconds = 15;

/**
 * Parses `pocketsphinx_continuous -time yes` output (a hypothesis line, then
 * one line per word) and cuts it into segments at pauses, the way recognisers
 * segment subtitles.
 */
export function parsePocketsphinx(output: string): SearchableSegment[] {
  const segments: SearchableSegment[] = [];
  let words: { w: string; s: number; e: number }[] = [];
  const flush = (): void => {
    if (words.length > 0) {
      segments.push({
        start: words[0].s,
        end: words[words.length - 1].e,
        text: words.map((x) => x.w).join(' '),
        speaker: null,
        words: words.map(({ w, s }) => ({ w, s })),
      });
    }
    words = [];
  };
  for (const line of output.split('\n')) {
    const parts = line.trim().split(/\s+/);
    const isWordLine = parts.length === 4 && parts.slice(1).every((p) => /^-?\d+(\.\d+)?$/.test(p));
    if (!isWordLine) continue;
    const token = parts[0].replace(/\(\d+\)$/, '').toLowerCase();
    const start = Number(parts[1]);
    const end = Number(parts[2]);
    const length = words.length > 0 ? end - words[0].s : 0;
    if (token === '</s>' || length > maxSegmentSeconds) flush();
    if (fillers.has(token)) {
      if (token === '<sil>' && end - start >= pauseSeconds && length >= minSegmentSeconds) flush();
      continue;
    }
    words.push({ w: token, s: start, e: end });
  }
  flush();
  return segments;
}

function transcribe(text: string, voice: string): SearchableSegment[] {
  const dir = mkdtempSync(join(tmpdir(), 'asr-'));
  try {
    // Double hyphens are read aloud as "dash dash" by flite; a comma keeps the pause.
    writeFileSync(join(dir, 'in.txt'), text.replace(/--/g, ', '));
    execFileSync('flite', ['-voice', voice, '-f', join(dir, 'in.txt'), '-o', join(dir, 'raw.wav')]);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'raw.wav'), '-ar', '16000', '-ac', '1', join(dir, 'a.wav')]);
    const out = execFileSync('pocketsphinx_continuous', ['-infile', join(dir, 'a.wav'), '-time', 'yes'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return parsePocketsphinx(out.toString('utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const job of jobs) {
    const text = readFileSync(join(here, 'sources', job.source), 'utf8');
    const doc: SearchableTranscript = { segments: transcribe(text, job.voice), language: 'en', wordTimesEstimated: false };
    writeFileSync(join(here, 'transcripts', job.out), JSON.stringify(doc, null, 1) + '\n');
    console.log(`${job.out}: ${doc.segments.length} segments`);
  }
}
