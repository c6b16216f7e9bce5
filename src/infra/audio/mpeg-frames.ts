/** Bitrates in kbit/s by [MPEG-1 or not][layer bits 3 (I), 2 (II), 1 (III)][bitrate index]. */
const KBPS: Record<'v1' | 'v2', Record<number, readonly number[]>> = {
  v1: {
    3: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  },
  v2: {
    3: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    1: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  },
};

/** Sample rates in Hz by version bits (3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5) and rate index. */
const RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * Length in bytes of the MPEG audio frame (layer I, II or III) whose header
 * starts at `i`, or null when no valid header is there (free-format frames,
 * whose length the header does not give, included).
 */
export function mpegFrameLength(head: Uint8Array, i: number): number | null {
  if (i + 4 > head.length || head[i] !== 0xff || (head[i + 1] & 0xe0) !== 0xe0) return null;
  const version = (head[i + 1] >> 3) & 3;
  const layer = (head[i + 1] >> 1) & 3;
  const rate = RATES[version]?.[(head[i + 2] >> 2) & 3];
  const kbps = KBPS[version === 3 ? 'v1' : 'v2'][layer]?.[head[i + 2] >> 4];
  if (layer === 0 || !rate || !kbps) return null;
  const padding = (head[i + 2] >> 1) & 1;
  if (layer === 3) return (Math.floor((12 * kbps * 1000) / rate) + padding) * 4;
  const perFrame = layer === 1 && version !== 3 ? 72 : 144;
  return Math.floor((perFrame * kbps * 1000) / rate) + padding;
}

/**
 * Offset of the first of two MPEG audio frames in a row (same version, layer
 * and sample rate) within `head`, or null. Files cut out of a stream, or
 * glued together by an ad stitcher, start with the tail of a frame; players
 * and ffmpeg resynchronise on the next frame, and so does this. Two frames
 * that agree are not found by chance in text.
 */
export function findMpegFrames(head: Uint8Array): number | null {
  for (let i = 0; i + 4 <= head.length; i++) {
    const length = mpegFrameLength(head, i);
    if (length === null) continue;
    const next = i + length;
    if (mpegFrameLength(head, next) !== null && head[next + 1] === head[i + 1] && (head[next + 2] & 0x0c) === (head[i + 2] & 0x0c)) {
      return i;
    }
  }
  return null;
}
