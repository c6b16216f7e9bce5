import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speak } from '../../audio/speak.js';

/** An MP3 of `text` spoken by flite (cached across test files by speak()). */
export async function spokenMp3(text: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'podtext-jobs-'));
  const file = join(dir, 'speech.mp3');
  await speak(text, file, { format: 'mp3' });
  return readFile(file);
}
