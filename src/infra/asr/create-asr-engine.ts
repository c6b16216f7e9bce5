import type { AsrEngine } from './asr-engine.js';
import { createOpenAiEngine, type OpenAiEngineOptions } from './openai-engine.js';
import { createSphinxEngine, type SphinxEngineOptions } from './sphinx-engine.js';
import { createWhisperCppEngine, type WhisperCppEngineOptions } from './whisper-cpp-engine.js';

export const ASR_ENGINE_NAMES = ['sphinx', 'whisper-cpp', 'openai'] as const;

export type AsrEngineName = (typeof ASR_ENGINE_NAMES)[number];

export interface AsrEngineOptionsByName {
  sphinx: SphinxEngineOptions;
  'whisper-cpp': WhisperCppEngineOptions;
  openai: OpenAiEngineOptions;
}

/**
 * Builds the speech engine named in configuration (`ASR_ENGINE`,
 * `FAST_ASR_ENGINE`). Nothing is checked or started here: call
 * `available()` to learn whether the engine can run.
 *
 * @example
 * const engine = createAsrEngine('openai', { url: 'http://gpu:8000', apiKey });
 * const standard = createAsrEngine('sphinx', {});
 */
export function createAsrEngine<N extends AsrEngineName>(name: N, options: AsrEngineOptionsByName[N]): AsrEngine {
  switch (name) {
    case 'sphinx':
      return createSphinxEngine(options as SphinxEngineOptions);
    case 'whisper-cpp':
      return createWhisperCppEngine(options as WhisperCppEngineOptions);
    case 'openai':
      return createOpenAiEngine(options as OpenAiEngineOptions);
    default:
      throw new RangeError(`unknown speech engine "${String(name)}"; expected one of ${ASR_ENGINE_NAMES.join(', ')}`);
  }
}

/** Narrows a configuration string to an engine name. */
export function isAsrEngineName(name: string): name is AsrEngineName {
  return (ASR_ENGINE_NAMES as readonly string[]).includes(name);
}
