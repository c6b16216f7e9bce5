import { describe, expect, it } from 'vitest';
import { csvRecords } from './csv-records.js';

async function all(chunks: string[], nullToken?: string) {
  const out = [];
  for await (const r of csvRecords((async function* () { yield* chunks; })(), { nullToken })) out.push(r);
  return out;
}

describe('csvRecords', () => {
  const text = '"id","title","note"\r\n"1","A ""quoted"" title",NULL\r\n2,"multi\nline, with comma",\n\n3,,"NULL"\n4,"last"';
  const expected = [
    ['id', 'title', 'note'],
    ['1', 'A "quoted" title', null],
    ['2', 'multi\nline, with comma', null],
    ['3', null, 'NULL'],
    ['4', 'last'],
  ];

  it('reads quoted fields, escapes, line breaks in quotes, NULL and empty fields', async () => {
    expect(await all([text])).toEqual(expected);
  });

  it('gives the same records however the input is split', async () => {
    for (let size = 1; size <= 7; size++) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(await all(chunks)).toEqual(expected);
    }
  });

  it('decodes UTF-8 split across byte chunks', async () => {
    const bytes = Buffer.from('"Café",ünï\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const out = [];
    for await (const r of csvRecords((async function* () { yield* chunks; })())) out.push(r);
    expect(out).toEqual([['Café', 'ünï']]);
  });
});
