import { describe, expect, it } from 'vitest';
import { ASR_ENGINE_NAMES, createAsrEngine, isAsrEngineName, type AsrEngineName } from './create-asr-engine.js';

describe('createAsrEngine', () => {
  it('builds each named engine', () => {
    expect(createAsrEngine('sphinx', {})).toMatchObject({ name: 'sphinx', model: 'en-us' });
    expect(createAsrEngine('whisper-cpp', { modelPath: '/models/ggml-small.bin' })).toMatchObject({
      name: 'whisper-cpp',
      model: 'ggml-small',
    });
    expect(createAsrEngine('openai', { url: 'http://127.0.0.1:9', model: 'large-v3' })).toMatchObject({
      name: 'openai',
      model: 'large-v3',
    });
  });

  it('accepts a name read from configuration once checked', () => {
    const configured: string = 'sphinx';
    if (!isAsrEngineName(configured)) throw new Error('unreachable');
    expect(createAsrEngine(configured, {}).name).toBe('sphinx');
    expect(isAsrEngineName('vosk')).toBe(false);
    expect(ASR_ENGINE_NAMES).toEqual(['sphinx', 'whisper-cpp', 'openai']);
  });

  it('refuses an unknown name at run time', () => {
    expect(() => createAsrEngine('vosk' as AsrEngineName, {})).toThrow(/unknown speech engine "vosk"/);
  });
});
