/**
 * Why an audio file could not be used. `too_long` and `damaged` (most of the
 * file does not decode) are facts about the file: retrying will not help.
 * `not_audio` may be a host's passing error page, and `decode_failed` a
 * transient problem of this machine (timeout, killed ffmpeg).
 */
export type AudioErrorCode = 'not_audio' | 'too_long' | 'damaged' | 'decode_failed';

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
