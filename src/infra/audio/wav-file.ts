import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { AudioError } from './audio-error.js';

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Bytes per sample frame (all channels). */
  blockAlign: number;
  /** Byte offset of the first PCM sample. */
  dataOffset: number;
  /** Bytes of PCM data actually present in the file. */
  dataBytes: number;
  durationSeconds: number;
}

/** One stretch of a recording, in seconds from its start. */
export interface Chunk {
  index: number;
  startSeconds: number;
  endSeconds: number;
}

/**
 * Reads the header of a PCM WAV file (as written by {@link decodeToPcm}).
 * Chunks before `data` (LIST, fact, …) are skipped; a data size of
 * 0xFFFFFFFF or one past the end of the file (a writer that was cut off) is
 * replaced by what the file really holds.
 */
export async function readWavInfo(file: string): Promise<WavInfo> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await fh.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
      throw new AudioError('not_audio', 'not a RIFF/WAVE file', { file });
    }
    let pos = 12;
    let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'durationSeconds'> | null = null;
    while (pos + 8 <= head.length) {
      const id = head.toString('latin1', pos, pos + 4);
      const length = head.readUInt32LE(pos + 4);
      const body = pos + 8;
      if (id === 'fmt ' && body + 16 <= head.length) {
        const formatTag = head.readUInt16LE(body);
        // 1 = PCM; 0xFFFE = WAVE_FORMAT_EXTENSIBLE, which ffmpeg uses for >2 channels.
        if (formatTag !== 1 && formatTag !== 0xfffe) {
          throw new AudioError('not_audio', 'WAV is not PCM', { file, formatTag });
        }
        fmt = {
          channels: head.readUInt16LE(body + 2),
          sampleRate: head.readUInt32LE(body + 4),
          blockAlign: head.readUInt16LE(body + 12),
          bitsPerSample: head.readUInt16LE(body + 14),
        };
      } else if (id === 'data') {
        if (!fmt || fmt.blockAlign === 0 || fmt.sampleRate === 0) {
          throw new AudioError('not_audio', 'WAV has no usable fmt chunk before data', { file });
        }
        const available = size - body;
        const declared = length === 0xffffffff ? available : Math.min(length, available);
        const dataBytes = declared - (declared % fmt.blockAlign);
        return {
          ...fmt,
          dataOffset: body,
          dataBytes,
          durationSeconds: dataBytes / fmt.blockAlign / fmt.sampleRate,
        };
      }
      pos = body + length + (length % 2);
    }
    throw new AudioError('not_audio', 'WAV has no data chunk in its first 64 KiB', { file });
  } finally {
    await fh.close();
  }
}

/** A canonical 44-byte PCM WAV header. */
export function wavHeader(info: Pick<WavInfo, 'sampleRate' | 'channels' | 'bitsPerSample'>, dataBytes: number): Buffer {
  const blockAlign = info.channels * (info.bitsPerSample / 8);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(info.channels, 22);
  h.writeUInt32LE(info.sampleRate, 24);
  h.writeUInt32LE(info.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(info.bitsPerSample, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/**
 * Copies the samples of `chunk` out of a PCM WAV into a WAV of its own,
 * reading only that byte range (no ffmpeg run). Times are clamped to the
 * recording; the copy is written under a temporary name and renamed, so a
 * reader never sees half a file.
 *
 * @returns the duration of the written file in seconds.
 */
export async function extractChunk(wavFile: string, chunk: Chunk, outFile: string): Promise<number> {
  const info = await readWavInfo(wavFile);
  const frameAt = (seconds: number): number =>
    Math.min(Math.max(0, Math.round(seconds * info.sampleRate)), info.dataBytes / info.blockAlign);
  const first = frameAt(chunk.startSeconds);
  const last = Math.max(first, frameAt(chunk.endSeconds));
  const bytes = (last - first) * info.blockAlign;
  const pcm = Buffer.alloc(bytes);
  const src = await open(wavFile, 'r');
  try {
    await src.read(pcm, 0, bytes, info.dataOffset + first * info.blockAlign);
  } finally {
    await src.close();
  }
  const partial = `${outFile}.${randomUUID()}.part`;
  try {
    const out = await open(partial, 'w');
    try {
      await out.writev([wavHeader(info, bytes), pcm]);
    } finally {
      await out.close();
    }
    await rename(partial, outFile);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return bytes / info.blockAlign / info.sampleRate;
}
