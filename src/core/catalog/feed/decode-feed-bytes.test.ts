import { describe, expect, it } from 'vitest';
import { decodeFeedBytes } from './decode-feed-bytes.js';

const title = 'Catalunya Ràdio – è';

describe('decodeFeedBytes', () => {
  it('honours an ISO-8859-1 declaration', () => {
    const bytes = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><t>Ràdio</t>`, 'latin1');
    expect(decodeFeedBytes(bytes)).toContain('<t>Ràdio</t>');
  });

  it('maps 0x80–0x9F the WHATWG way for windows-1252 and ISO-8859-1 labels', () => {
    const curly = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><t>it\x92s</t>', 'latin1');
    expect(decodeFeedBytes(curly)).toContain('<t>it’s</t>');
  });

  it('honours single quotes and other labels', () => {
    const bytes = Buffer.from(`<?xml version='1.0' encoding='windows-1252'?><t>\x80</t>`, 'latin1');
    expect(decodeFeedBytes(bytes)).toContain('<t>€</t>');
  });

  it('defaults to UTF-8 without a declaration', () => {
    expect(decodeFeedBytes(Buffer.from(`<t>${title}</t>`))).toBe(`<t>${title}</t>`);
  });

  it('strips a UTF-8 BOM and decodes UTF-16 with a BOM', () => {
    expect(decodeFeedBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<t/>')]))).toBe('<t/>');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><t>${title}</t>`, 'utf16le')]);
    expect(decodeFeedBytes(le)).toContain(`<t>${title}</t>`);
  });

  it('treats a UTF-16 label on 8-bit bytes and an unknown label as UTF-8', () => {
    expect(decodeFeedBytes(Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><t>${title}</t>`))).toContain(title);
    expect(decodeFeedBytes(Buffer.from(`<?xml version="1.0" encoding="x-klingon"?><t>${title}</t>`))).toContain(title);
  });

  it('takes the served charset only for bytes that neither a declaration labels nor are UTF-8', () => {
    expect(decodeFeedBytes(Buffer.from('<t>Ràdio</t>', 'latin1'), 'ISO-8859-1')).toBe('<t>Ràdio</t>');
    expect(decodeFeedBytes(Buffer.from(`<t>${title}</t>`), 'ISO-8859-1')).toBe(`<t>${title}</t>`);
    expect(decodeFeedBytes(Buffer.from('<?xml version="1.0" encoding="windows-1252"?><t>\x80</t>', 'latin1'), 'utf-8')).toContain('<t>€</t>');
  });

  it('reads unlabelled bytes that hold no UTF-8 sequence at all as windows-1252', () => {
    expect(decodeFeedBytes(Buffer.from('<t>Caf\xe9 \x93quoted\x94 na\xefve</t>', 'latin1'))).toBe('<t>Café “quoted” naïve</t>');
  });

  it('turns malformed bytes into replacement characters rather than failing', () => {
    // UTF-8 with one stray byte stays UTF-8 (alone, the byte would read as windows-1252's ÿ).
    expect(decodeFeedBytes(Buffer.concat([Buffer.from(`<t>${title}`), Buffer.from([0xe9]), Buffer.from('</t>')]))).toBe(`<t>${title}\ufffd</t>`);
  });
});
