import { open } from 'node:fs/promises';
import { findMpegFrames } from './mpeg-frames.js';

/**
 * ffmpeg demuxers we let read a downloaded file. Each reads the one file it
 * is given; none follows references to other files or URLs the way the
 * playlist demuxers (hls, concat, dash, image2 sequences) do, which is why
 * ffmpeg is never allowed to choose the demuxer itself.
 */
export type AudioDemuxer =
  | 'mp3'
  | 'aac'
  | 'mov'
  | 'ogg'
  | 'wav'
  | 'flac'
  | 'matroska'
  | 'asf'
  | 'aiff'
  | 'amr'
  | 'caf';

const SNIFF_BYTES = 64 * 1024;

/**
 * Recognises the container of a local file from its first bytes.
 * Returns null for anything that is not a known audio container (text,
 * HTML, playlists, images, empty files).
 */
export async function sniffAudioFile(file: string): Promise<AudioDemuxer | null> {
  const fh = await open(file, 'r');
  try {
    let offset = 0;
    let sawId3 = false;
    // A file may carry more than one ID3v2 tag in front (re-tagged uploads).
    for (let i = 0; i < 4; i++) {
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, offset);
      const bytes = head.subarray(0, bytesRead);
      const tag = id3TagLength(bytes);
      if (tag > 0) {
        sawId3 = true;
        offset += tag;
        continue;
      }
      const found = sniffContainer(bytes);
      if (found) return found;
      // An ID3 tag is only ever written in front of MPEG audio (or rarely AAC/FLAC, matched above).
      return sawId3 && bytesRead > 0 ? 'mp3' : null;
    }
    return null;
  } finally {
    await fh.close();
  }
}

/** Length in bytes of an ID3v2 tag at the start of `head`, footer included; 0 if none. */
export function id3TagLength(head: Uint8Array): number {
  if (head.length < 10 || ascii(head, 0, 3) !== 'ID3') return 0;
  const size = [6, 7, 8, 9].map((i) => head[i]);
  if (size.some((b) => b >= 0x80)) return 0;
  const body = (size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3];
  const hasFooter = (head[5] & 0x10) !== 0;
  return 10 + body + (hasFooter ? 10 : 0);
}

/** The demuxer for the container whose first bytes are `head`, or null. */
export function sniffContainer(head: Uint8Array): AudioDemuxer | null {
  if (head.length < 4) return null;
  const at = (offset: number, text: string): boolean => ascii(head, offset, text.length) === text;
  if ((at(0, 'RIFF') || at(0, 'RF64')) && at(8, 'WAVE')) return 'wav';
  if (at(0, 'OggS')) return 'ogg';
  if (at(0, 'fLaC')) return 'flac';
  if (at(0, 'caff')) return 'caf';
  if (at(0, '#!AMR')) return 'amr';
  if (at(0, 'FORM') && (at(8, 'AIFF') || at(8, 'AIFC'))) return 'aiff';
  if (['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip'].some((box) => at(4, box))) return 'mov';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'matroska';
  if (head[0] === 0x30 && head[1] === 0x26 && head[2] === 0xb2 && head[3] === 0x75) return 'asf';
  return sniffMpegAudio(head);
}

/**
 * MPEG audio and ADTS AAC have no signature, only a frame sync. Some encoders
 * pad the start with zero bytes, so leading zeros are skipped (bounded); a
 * file that starts inside a frame is MPEG audio when two whole frames follow.
 */
function sniffMpegAudio(head: Uint8Array): AudioDemuxer | null {
  let i = 0;
  while (i < head.length && i < 4096 && head[i] === 0) i++;
  return frameAt(head, i) ?? (findMpegFrames(head) === null ? null : 'mp3');
}

/** The demuxer of the MPEG audio or ADTS frame header at `i`, or null. */
function frameAt(head: Uint8Array, i: number): AudioDemuxer | null {
  if (i + 4 > head.length) return null;
  const [b0, b1, b2] = [head[i], head[i + 1], head[i + 2]];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const layer = (b1 >> 1) & 3;
  if (layer === 0) {
    // ADTS: 12-bit sync, MPEG version bit, layer always 0.
    const sampleRateIndex = (b2 >> 2) & 0x0f;
    return (b1 & 0xf0) === 0xf0 && sampleRateIndex < 13 ? 'aac' : null;
  }
  const version = (b1 >> 3) & 3;
  const bitrateIndex = b2 >> 4;
  const sampleRateIndex = (b2 >> 2) & 3;
  if (version === 1 || bitrateIndex === 0x0f || sampleRateIndex === 3) return null;
  return 'mp3';
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (offset + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}
