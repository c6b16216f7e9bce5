/**
 * Thrown when a publisher transcript cannot be read. The message names the
 * format and, where known, the line, so it can be logged or shown as is.
 */
export class TranscriptParseError extends Error {
  constructor(
    message: string,
    readonly format: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${format}: ${message}` : `${format} line ${line}: ${message}`);
    this.name = 'TranscriptParseError';
  }
}
