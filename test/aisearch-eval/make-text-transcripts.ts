/**
 * Builds the evaluation transcripts that start from text rather than audio:
 * the two podcast scripts (one speaker per line) and a publisher-style
 * transcript of Sense and Sensibility chapter 2. Times come from a seeded
 * speaking-rate model, so the output is the same on every run; the JSON is
 * committed and tests never run this.
 *
 * Usage: `npx tsx test/aisearch-eval/make-text-transcripts.ts`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchableSegment, SearchableTranscript } from '../../src/core/aisearch/searchable-transcript.js';
import { seededRandom } from '../../src/core/seeded-random.js';

const here = dirname(fileURLToPath(import.meta.url));

type WordMode = 'recognised' | 'estimated' | 'none';

/** Seconds one spoken word takes: a base plus a little per letter, jittered. */
function wordSeconds(word: string, rand: () => number): number {
  return 0.12 + 0.055 * word.replace(/[^\p{L}\p{N}]/gu, '').length + 0.08 * rand();
}

/** Times a list of (speaker, text) lines, one segment each. */
export function timeLines(lines: { speaker: string | null; text: string }[], seed: number, mode: WordMode): SearchableTranscript {
  const rand = seededRandom(seed);
  let t = 1.5;
  const segments: SearchableSegment[] = lines.map(({ speaker, text }) => {
    const start = t;
    const spoken = text.split(/\s+/).filter(Boolean);
    const words = spoken.map((w) => {
      const s = Math.round(t * 100) / 100;
      t += wordSeconds(w, rand);
      return { w, s };
    });
    const end = Math.round(t * 100) / 100;
    t += 0.3 + 0.6 * rand();
    return {
      start: Math.round(start * 100) / 100,
      end,
      text,
      speaker,
      // Estimated times are spread evenly over the segment, as an aligner without audio would.
      words:
        mode === 'none'
          ? []
          : mode === 'recognised'
            ? words
            : spoken.map((w, i) => ({ w, s: Math.round((start + ((end - start) * i) / spoken.length) * 100) / 100 })),
    };
  });
  return { segments, language: 'en', wordTimesEstimated: mode === 'estimated' };
}

function scriptLines(file: string): { speaker: string | null; text: string }[] {
  return readFileSync(join(here, 'sources', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const m = /^([A-Z]+):\s*(.*)$/.exec(l.trim());
      if (!m) throw new Error(`no speaker: ${l}`);
      return { speaker: m[1][0] + m[1].slice(1).toLowerCase(), text: m[2] };
    });
}

/** Paragraphs cut into segments of at most two sentences, like a publisher's caption file. */
function proseLines(file: string): { speaker: null; text: string }[] {
  const out: { speaker: null; text: string }[] = [];
  for (const para of readFileSync(join(here, 'sources', file), 'utf8').split(/\n\s*\n/)) {
    const sentences = para.replace(/\s+/g, ' ').trim().match(/[^.!?]+[.!?]+["”]?\s*|[^.!?]+$/g) ?? [];
    for (let i = 0; i < sentences.length; i += 2) {
      const text = sentences.slice(i, i + 2).join('').trim();
      if (text) out.push({ speaker: null, text });
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outputs: [string, SearchableTranscript][] = [
    ['commute-podcast.json', timeLines(scriptLines('commute-podcast.txt'), 41, 'recognised')],
    ['kitchen-podcast.json', timeLines(scriptLines('kitchen-podcast.txt'), 12, 'none')],
    ['sense-ch2-publisher.json', timeLines(proseLines('sense-ch2.txt'), 2, 'estimated')],
  ];
  for (const [name, doc] of outputs) {
    writeFileSync(join(here, 'transcripts', name), JSON.stringify(doc, null, 1) + '\n');
    console.log(`${name}: ${doc.segments.length} segments, ${Math.round(doc.segments.at(-1)?.end ?? 0)} s`);
  }
}
