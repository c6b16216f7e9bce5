import { describe, expect, it } from 'vitest';
import { parsePocketsphinx5Output, readContinuousOutput } from './sphinx-output.js';

// Recorded from Debian 12's pocketsphinx_continuous 5prealpha (`-time yes`):
// two utterances of a flite recording, the second after five seconds of silence.
const CONTINUOUS = `the weather was warm
<s> 0.120 0.180 0.999100
the 0.190 0.320 0.991436
weather 0.330 0.640 0.985899
was(2) 0.650 0.840 0.926715
<sil> 0.850 0.900 0.553348
warm 0.900 1.110 0.023715
[NOISE] 1.120 1.300 0.500000
</s> 1.310 1.330 1.000000
my father
<s> 7.880 8.000 0.999800
<sil> 8.010 8.210 0.975015
my 8.220 8.350 0.998801
father 8.360 8.750 0.999700
</s> 8.760 8.900 1.000000
`;

// pocketsphinx 5 writes one JSON object per utterance (fields per its manual page:
// b = start s, d = duration s, p = probability, t = text, w = words).
const PS5 = [
  '{"b":0.120,"d":1.210,"p":0.412,"t":"the weather was warm","w":[{"b":0.120,"d":0.060,"p":0.999,"t":"<s>"},{"b":0.190,"d":0.130,"p":0.991,"t":"the"},{"b":0.330,"d":0.310,"p":0.986,"t":"weather"},{"b":0.650,"d":0.190,"p":0.927,"t":"was(2)"},{"b":0.900,"d":0.210,"p":0.024,"t":"warm"},{"b":1.310,"d":0.020,"p":1.000,"t":"</s>"}]}',
  '{"b":7.880,"d":1.020,"p":0.998,"t":"my father","w":[{"b":7.880,"d":0.120,"p":1.000,"t":"<s>"},{"b":8.010,"d":0.200,"p":0.975,"t":"<sil>"},{"b":8.220,"d":0.130,"p":0.999,"t":"my"},{"b":8.360,"d":0.390,"p":1.000,"t":"father"},{"b":8.760,"d":0.140,"p":1.000,"t":"</s>"}]}',
  '{"b":9.000,"d":0.010,"p":1.000,"t":"","w":[]}',
].join('\n');

const EXPECTED = [
  { w: 'the', s: 0.19, e: 0.32 },
  { w: 'weather', s: 0.33, e: 0.64 },
  { w: 'was', s: 0.65, e: 0.84 },
  { w: 'warm', s: 0.9, e: 1.11 },
  { w: 'my', s: 8.22, e: 8.35 },
  { w: 'father', s: 8.36, e: 8.75 },
];

describe('sphinx output', () => {
  it('pocketsphinx_continuous: words with times, fillers and pronunciation numbers dropped', () => {
    expect(readContinuousOutput(CONTINUOUS).words).toEqual(EXPECTED);
  });

  // Abridged from the same decoder's output on a 30 s chunk of a flite episode cut
  // mid-phrase (words between "train" and "evening" left out): the first utterance
  // is reported 1.5 s late (it is heard from 0.33 s), ending after the second starts,
  // so sorting by time used to interleave "seven o'clock every evening" with "part
  // twenty six".
  const LATE_FIRST = `our twenty five the train to say he leaves at seven o'clock every evening
<s> 1.680 2.000 1.000100
our(3) 2.010 2.160 0.167930
twenty 2.170 2.560 0.998301
five 2.570 3.100 0.998201
[SPEECH] 3.110 3.400 0.911001
the 3.410 3.510 0.203196
train 3.520 3.860 0.706636
evening 6.200 6.560 0.990000
</s> 6.570 6.810 1.000000
our twenty six
<s> 5.150 5.170 1.000000
our(3) 5.180 5.300 0.274186
twenty 5.310 5.730 0.999700
six 5.740 6.130 0.957332
</s> 6.140 6.300 1.000000
`;

  it('moves back an utterance reported ending after the next one starts, so the words stay in spoken order', () => {
    const words = readContinuousOutput(LATE_FIRST, 30).words;
    expect(words.map((w) => w.w).join(' ')).toBe('our twenty five the train evening our twenty six');
    expect(words[0]).toEqual({ w: 'our', s: 0.35, e: 0.5 });
    for (let i = 1; i < words.length; i++) expect(words[i]!.s).toBeGreaterThanOrEqual(words[i - 1]!.s);
    expect(words.find((w) => w.w === 'evening')!.e).toBeLessThanOrEqual(5.15);
  });

  it('moves back a last utterance reported past the end of the audio', () => {
    // Shaped on another cut of that episode, where one utterance came out at 13.98–31.88 s in a 20 s file.
    const late = `library opens\n<s> 13.980 14.000 0.99\nlibrary 14.010 14.400 0.9\nopens 30.000 31.500 0.9\n</s> 31.580 31.880 1.0\n`;
    const words = readContinuousOutput(late, 20).words;
    expect(words.map((w) => w.s)).toEqual([2.13, 18.12]);
    expect(words[1]!.e).toBeLessThanOrEqual(20);
    // Times that fit are left as they are.
    expect(readContinuousOutput(CONTINUOUS, 10).words).toEqual(EXPECTED);
  });

  it('tells how far back a reported time was moved, for the spotted names of the same utterance', () => {
    const output = readContinuousOutput(LATE_FIRST, 30);
    expect(output.shiftAt(2.2)).toBeCloseTo(1.66, 2);
    expect(output.shiftAt(7)).toBe(0);
    expect(readContinuousOutput(CONTINUOUS, 10).shiftAt(1)).toBe(0);
  });

  it('pocketsphinx 5 JSON lines: the same words', () => {
    expect(parsePocketsphinx5Output(PS5)).toEqual(EXPECTED);
  });

  it('nothing recognised: no words', () => {
    expect(readContinuousOutput('').words).toEqual([]);
    expect(parsePocketsphinx5Output('not json\n{"b":0,"d":0.01,"p":1,"t":"","w":[]}')).toEqual([]);
  });
});
