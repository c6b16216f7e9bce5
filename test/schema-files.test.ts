import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { RECEIVER_MODULE_PATH, renderReceiverModule } from '../src/receiver-module.js';
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

  it('a GraphQL name a description quotes (`appleId`, `requestTranscription`) is one the schema has', () => {
    const sdl = files['schema.graphql'];
    const quoted = new Set([...sdl.matchAll(/`([a-z]+[A-Z][A-Za-z]*)`/g)].map((m) => m[1]!));
    const declared = new Set([...sdl.matchAll(/^\s+([a-z]\w*)[(:]/gm)].map((m) => m[1]!));
    expect([...quoted].filter((name) => !declared.has(name))).toEqual([]);
  });

  it(`${RECEIVER_MODULE_PATH} is up to date (npm run schema:write)`, async () => {
    expect(await readFile(new URL(`../${RECEIVER_MODULE_PATH}`, import.meta.url), 'utf8')).toBe(renderReceiverModule());
  });

  it('podtext/webhook-signature imports in plain Node, as the README shows receivers doing', async () => {
    const script = [
      "import { createHmac } from 'node:crypto';",
      "import { verifySignature } from 'podtext/webhook-signature';",
      "const t = Math.floor(Date.now() / 1000); const rawBody = '{\"event\":\"job.done\"}';",
      "const header = `t=${t},v1=${createHmac('sha256', 'whsec_x').update(`${t}.${rawBody}`).digest('hex')}`;",
      "console.log(JSON.stringify([verifySignature({ header, rawBody, secrets: ['whsec_x'] }).ok, verifySignature({ header, rawBody, secrets: ['whsec_y'] }).ok]));",
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url) });
    expect(stdout.trim()).toBe('[true,false]');
  });
});
