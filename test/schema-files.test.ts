import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderSchemaFiles } from '../src/schema-files.js';

describe('committed API descriptions match the code', () => {
  const files = renderSchemaFiles();
  it.each(Object.keys(files))('schema/%s is up to date (npm run schema:write)', async (name) => {
    const committed = await readFile(new URL(`../schema/${name}`, import.meta.url), 'utf8');
    expect(committed).toBe(files[name as keyof typeof files]);
  });
  it('openapi.json is OpenAPI 3.1, document version 1.0.0, with the price table', () => {
    const doc = JSON.parse(files['openapi.json']);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.description).toContain('| AI Search query | 1 on every plan');
    expect(files['llms.txt']).toContain('| AI Search query | 1 on every plan');
  });
});
