import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { AudioError } from './audio-error.js';
import { sniffAudioFile, type AudioDemuxer } from './container-sniff.js';

export interface LocalAudioInput {
  /** Absolute, symlink-free path of a regular file. */
  path: string;
  /** The demuxer ffmpeg must use for it (never ffmpeg's own guess). */
  demuxer: AudioDemuxer;
  sizeBytes: number;
}

/**
 * Checks that `file` names a non-empty regular local file in a known audio
 * container, before any ffmpeg process sees it. URLs, relative paths,
 * devices, FIFOs and directories are refused, so ffmpeg can only ever be
 * pointed at bytes already on disk.
 */
export async function resolveLocalAudioInput(file: string): Promise<LocalAudioInput> {
  if (!isAbsolute(file)) {
    throw new AudioError('not_audio', 'the input must be an absolute path to a local file', { file });
  }
  let path: string;
  try {
    path = await realpath(file);
  } catch {
    throw new AudioError('not_audio', 'the input file does not exist', { file });
  }
  const info = await stat(path);
  if (!info.isFile()) {
    throw new AudioError('not_audio', 'the input is not a regular file', { file });
  }
  if (info.size === 0) {
    throw new AudioError('not_audio', 'the input file is empty', { file });
  }
  const demuxer = await sniffAudioFile(path);
  if (!demuxer) {
    throw new AudioError('not_audio', 'the input is not in a known audio format', { file });
  }
  return { path, demuxer, sizeBytes: info.size };
}

/**
 * ffmpeg/ffprobe arguments that open `input` and nothing else: only the
 * file and pipe protocols, the demuxer fixed in advance.
 */
export function safeInputArgs(input: LocalAudioInput): string[] {
  return ['-protocol_whitelist', 'file,pipe', '-f', input.demuxer, '-i', input.path];
}
