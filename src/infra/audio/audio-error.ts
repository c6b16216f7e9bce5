/**
 * Why an audio file could not be used. `not_audio` and `too_long` are facts
 * about the file (retrying will not help); `decode_failed` may be a
 * transient problem of this machine (timeout, killed ffmpeg) as well.
 */
export type AudioErrorCode = 'not_audio' | 'too_long' | 'decode_failed';

export class AudioError extends Error {
  constructor(
    readonly code: AudioErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AudioError';
  }
}
