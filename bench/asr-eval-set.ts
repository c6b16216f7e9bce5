/**
 * The labelled speech-recognition evaluation set, made on demand: flite's
 * voices read varied passages (news, interview, numbers, guests' names),
 * brought to podcast loudness, some with light room noise or music under
 * them, MP3-encoded at 64 or 128 kbit/s, then decoded back to the 16 kHz WAV
 * the engines take. Nothing is stored in the repository but this code; the
 * audio is cached under the system temp directory by content.
 *
 * Passages are split: `tuning` ones may be used to choose settings,
 * `heldout` ones only to report them.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type EvalVoice = 'rms' | 'slt' | 'awb' | 'kal16';
export type Mix = 'clean' | 'noise' | 'music';
export type Split = 'tuning' | 'heldout';

export interface EvalPassage {
  id: string;
  kind: 'news' | 'interview' | 'numbers' | 'names';
  split: Split;
  text: string;
  /** For `names` passages: the names spoken, which the show's vocabulary lists. */
  names?: string[];
}

export interface EvalClip {
  id: string;
  voice: EvalVoice;
  passage: EvalPassage;
  mix: Mix;
  kbps: 64 | 128;
  /** 16 kHz mono 16-bit PCM. */
  wav: string;
}

/** Numbers are written as spoken: the reference is what a listener hears. */
export const PASSAGES: EvalPassage[] = [
  {
    id: 'news-1',
    kind: 'news',
    split: 'tuning',
    text:
      'The city council voted last night to close the old bridge for repairs. ' +
      'Drivers will have to use the ring road for most of the summer. ' +
      'Shop owners on the high street say they are worried about losing trade. ' +
      'The work is expected to finish before the schools open again in the autumn.',
  },
  {
    id: 'news-2',
    kind: 'news',
    split: 'heldout',
    text:
      'Heavy rain caused flooding in several towns along the coast on Monday. ' +
      'Emergency services helped families leave their homes during the night. ' +
      'The weather is expected to improve later in the week. ' +
      'Farmers say the wet spring has already damaged much of the harvest.',
  },
  {
    id: 'interview-1',
    kind: 'interview',
    split: 'tuning',
    text:
      'So tell me, how did you first get into cooking? ' +
      'Well, my grandmother ran a small cafe, and I spent every weekend in her kitchen. ' +
      'She never used a recipe, she just tasted everything as she went. ' +
      'I think that taught me more than any school could.',
  },
  {
    id: 'interview-2',
    kind: 'interview',
    split: 'heldout',
    text:
      'What was the hardest part of writing the book? ' +
      'Honestly, it was finding the time, because I was still working full time at the hospital. ' +
      'I wrote most of it early in the morning before my shift started. ' +
      'My family were very patient with me.',
  },
  {
    id: 'numbers-1',
    kind: 'numbers',
    split: 'tuning',
    text:
      'The company sold four hundred and twenty thousand phones in the first quarter. ' +
      'That is about fifteen percent more than last year. ' +
      'The new model costs six hundred and ninety nine dollars. ' +
      'Sales in Europe grew by nearly a third.',
  },
  {
    id: 'numbers-2',
    kind: 'numbers',
    split: 'heldout',
    text:
      'The train leaves at seven forty five and arrives just after ten. ' +
      'A return ticket costs thirty two pounds, or twenty one with a railcard. ' +
      'About three million people used the line last year. ' +
      'The journey takes two hours and fifteen minutes.',
  },
  {
    id: 'names-1',
    kind: 'names',
    split: 'tuning',
    names: ['Siobhan Kearney', 'Marcus Webb'],
    text:
      'Welcome back to the show. My guest today is Siobhan Kearney, a transport planner from Dublin. ' +
      'Later on, Marcus Webb joins us to talk about trains. ' +
      'Siobhan Kearney, thank you for coming in.',
  },
  {
    id: 'names-2',
    kind: 'names',
    split: 'heldout',
    names: ['Chidi Okonkwo', 'Aoife Mulcahy'],
    text:
      'Hello and welcome. Our guest this week is Chidi Okonkwo, a marine biologist. ' +
      'In the second half, Aoife Mulcahy tells us about sleep. ' +
      'Chidi Okonkwo, welcome to the programme.',
  },
];

export const VOICES: EvalVoice[] = ['rms', 'slt', 'awb', 'kal16'];

/**
 * Which mix and bit rate a voice reads a passage with: rotated so every
 * voice meets every condition and every passage is heard clean by someone.
 */
function condition(voiceIndex: number, passageIndex: number): { mix: Mix; kbps: 64 | 128 } {
  const k = (voiceIndex + passageIndex) % 4;
  return [
    { mix: 'clean', kbps: 64 },
    { mix: 'clean', kbps: 128 },
    { mix: 'noise', kbps: 64 },
    { mix: 'music', kbps: 128 },
  ][k] as { mix: Mix; kbps: 64 | 128 };
}

/** Light pink noise (a room) or a soft chord that swells (a music bed), 25 dB or so under the voice. */
function bed(mix: Mix): string | null {
  if (mix === 'noise') return 'anoisesrc=color=pink:amplitude=0.03:seed=7:sample_rate=16000';
  if (mix === 'music') {
    return "aevalsrc='0.02*(sin(2*PI*220*t)+sin(2*PI*277.2*t)+sin(2*PI*329.6*t))*(0.6+0.4*sin(2*PI*0.25*t))':s=16000";
  }
  return null;
}

const cacheDir = join(tmpdir(), 'podtext-asr-eval');

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

/** Speaks, mixes, encodes and decodes one clip, unless the cache has it. */
async function makeClip(voice: EvalVoice, passage: EvalPassage, mix: Mix, kbps: 64 | 128): Promise<string> {
  const source = bed(mix);
  const key = createHash('sha256').update(`v2\n${voice}\n${mix}\n${kbps}\n${source}\n${passage.text}`).digest('hex').slice(0, 20);
  const wav = join(cacheDir, `${passage.id}-${voice}-${mix}-${kbps}-${key}.wav`);
  if (await exists(wav)) return wav;
  await mkdir(cacheDir, { recursive: true });
  const scratch = join(cacheDir, `${key}.${process.pid}`);
  try {
    await writeFile(`${scratch}.txt`, passage.text);
    await run('flite', ['-voice', voice, '-f', `${scratch}.txt`, '-o', `${scratch}.flite.wav`]);
    // Podcast loudness (−16 LUFS) first, then the bed under it, then the MP3 a feed would carry.
    const voiceChain = '[0:a]aresample=16000,aformat=channel_layouts=mono,loudnorm=I=-16:TP=-1.5:LRA=11,aresample=16000[v]';
    const graph = source ? `${voiceChain};[1:a]aformat=channel_layouts=mono[b];[v][b]amix=inputs=2:duration=first:normalize=0[m]` : voiceChain;
    await run('ffmpeg', [
      '-nostdin', '-v', 'error', '-y',
      '-i', `${scratch}.flite.wav`,
      ...(source ? ['-f', 'lavfi', '-i', source] : []),
      '-filter_complex', graph, '-map', source ? '[m]' : '[v]',
      '-ac', '1', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', `${kbps}k`, `${scratch}.mp3`,
    ]);
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', `${scratch}.mp3`, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', `${scratch}.out.wav`]);
    await rename(`${scratch}.out.wav`, wav);
  } finally {
    for (const suffix of ['.txt', '.flite.wav', '.mp3', '.out.wav']) await rm(`${scratch}${suffix}`, { force: true });
  }
  return wav;
}

/** Every clip of the set (4 voices × 8 passages), made or taken from the cache, one at a time. */
export async function evalClips(voices: readonly EvalVoice[] = VOICES): Promise<EvalClip[]> {
  const clips: EvalClip[] = [];
  for (const voice of voices) {
    const vi = VOICES.indexOf(voice);
    for (const [pi, passage] of PASSAGES.entries()) {
      const { mix, kbps } = condition(vi, pi);
      const wav = await makeClip(voice, passage, mix, kbps);
      clips.push({ id: `${passage.id}-${voice}`, voice, passage, mix, kbps, wav });
    }
  }
  return clips;
}

/** The vocabulary a show's feed would give for the `names` passages: every guest's name. */
export function showVocabulary(): string[] {
  return PASSAGES.flatMap((p) => p.names ?? []);
}
