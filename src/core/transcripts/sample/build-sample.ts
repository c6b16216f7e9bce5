/**
 * Rebuilds sample-transcript.json from the LibriVox clips and reference texts
 * in Debian's pocketsphinx-testdata, with word times from forced alignment
 * against the reference text (pocketsphinx with the pocketsphinx-en-us model):
 *
 *   apt-get install -y pocketsphinx pocketsphinx-en-us pocketsphinx-testdata ffmpeg
 *   npx tsx src/core/transcripts/sample/build-sample.ts
 *
 * The episode is the five clips played back to back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { roundMs } from '../formats/timecodes.js';
import type { Segment, TranscriptDoc } from '../formats/transcript-doc.js';

const DATA = '/usr/share/pocketsphinx/test/data/librivox';
const MODEL = '/usr/share/pocketsphinx/model/en-us';

// The reference texts are lower case without punctuation; these are the same
// words as printed in Austen's novel (checked against the reference below).
const DISPLAY: Record<string, string> = {
  '0870': 'And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.',
  '0880': 'He was not an ill-disposed young man,',
  '0890': 'unless to be rather cold-hearted and rather selfish is to be ill-disposed.',
  '0920': 'Had he married a more a amiable woman, he might have been made still more respectable than he was;',
  '0930': 'he might even have been made amiable himself.',
};

/** Reference spelling of a printed word: "Mr." → ["mister"], "ill-disposed," → ["ill", "disposed"]. */
function spoken(word: string): string[] {
  const plain = word.toLowerCase().replace(/^mr\.$/, 'mister').replace(/[^a-z\s-]/g, '');
  return plain.split('-').filter(Boolean);
}

function align(wav: string, reference: string, work: string): { w: string; start: number; end: number }[] {
  const grammar = join(work, 'clip.gram');
  writeFileSync(grammar, `#JSGF V1.0;\ngrammar clip;\npublic <s> = ${reference};\n`);
  const out = execFileSync('pocketsphinx_continuous', [
    '-infile', wav, '-jsgf', grammar, '-time', 'yes',
    '-hmm', join(MODEL, 'en-us'), '-dict', join(MODEL, 'cmudict-en-us.dict'), '-logfn', '/dev/null',
  ], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^([a-z']+)(?:\(\d+\))? ([\d.]+) ([\d.]+) /.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ w: m[1], start: Number(m[2]), end: Number(m[3]) }));
}

function duration(wav: string): number {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav], {
    encoding: 'utf8',
  });
  return Number(out.trim());
}

/** Builds the sample document; also returns the total audio length in seconds. */
export function buildSample(): { doc: TranscriptDoc; durationSeconds: number } {
  const references = new Map<string, string>();
  for (const line of readFileSync(join(DATA, 'transcription'), 'utf8').split('\n')) {
    const m = /^<s> (.*) <\/s> \((.*)\)$/.exec(line.trim());
    if (m) references.set(m[2], m[1]);
  }
  const ids = readFileSync(join(DATA, 'fileids'), 'utf8').split('\n').filter(Boolean);
  const work = mkdtempSync(join(tmpdir(), 'sample-'));
  const segments: Segment[] = [];
  let offset = 0;
  try {
    for (const id of ids) {
      const wav = join(DATA, `${id}.wav`);
      const reference = references.get(id) ?? '';
      const printed = DISPLAY[id.slice(-4)].split(' ');
      if (printed.flatMap(spoken).join(' ') !== reference) throw new Error(`${id}: text differs from the reference`);
      const aligned = align(wav, reference, work);
      if (aligned.map((a) => a.w).join(' ') !== reference) throw new Error(`${id}: alignment failed`);
      let next = 0;
      const words = printed.map((w) => {
        const s = roundMs(offset + aligned[next].start);
        next += spoken(w).length;
        return { w, s };
      });
      const start = words[0].s;
      const end = roundMs(offset + aligned[aligned.length - 1].end);
      segments.push({ start, end, text: printed.join(' '), speaker: null, words });
      offset = roundMs(offset + duration(wav));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { doc: { segments, language: 'en', wordTimesEstimated: false }, durationSeconds: offset };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { doc, durationSeconds } = buildSample();
  const target = fileURLToPath(new URL('./sample-transcript.json', import.meta.url));
  // One word per line keeps the file short and its diffs readable.
  const json = JSON.stringify(doc, null, 2).replace(/\{\n\s+"w": (.+),\n\s+"s": (.+)\n\s+\}/g, '{ "w": $1, "s": $2 }');
  writeFileSync(target, `${json}\n`);
  console.log(`wrote ${target}: ${doc.segments.length} segments, ${durationSeconds} s of audio`);
}
