import { describe, expect, it } from 'vitest';
import { charsetOf, decodeText } from './decode-text.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decodeText', () => {
  it('honours the charset, mapping 0x80–0x9F the WHATWG way', () => {
    expect(decodeText(latin1('caf\xe9 cr\xe8me \x93ok\x94'), 'windows-1252')).toBe('café crème “ok”');
    expect(decodeText(latin1('caf\xe9'), 'ISO-8859-1')).toBe('café');
  });

  it('lets a byte order mark win over the charset, and drops it', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café')]);
    expect(decodeText(utf8, 'windows-1252')).toBe('café');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('café', 'utf16le')]);
    expect(decodeText(utf16, 'iso-8859-1')).toBe('café');
  });

  it('reads no charset or an unknown one as UTF-8', () => {
    expect(decodeText(Buffer.from('café'))).toBe('café');
    expect(decodeText(Buffer.from('café'), 'x-klingon')).toBe('café');
  });
});

describe('charsetOf', () => {
  it.each([
    ['text/plain; charset=windows-1252', 'windows-1252'],
    ['text/vtt;CHARSET="ISO-8859-1"', 'ISO-8859-1'],
    ['application/srt; name=x; charset=utf-8', 'utf-8'],
    ['text/plain', undefined],
    [undefined, undefined],
  ])('reads %j', (type, charset) => {
    expect(charsetOf(type)).toBe(charset);
  });
});
