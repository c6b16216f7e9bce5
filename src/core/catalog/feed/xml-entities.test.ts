import { describe, expect, it } from 'vitest';
import { createXmlEntityDecoder, decodeXmlEntities, findXmlHazard } from './xml-entities.js';

describe('decodeXmlEntities', () => {
  it.each([
    ['Tom &amp; Jerry', 'Tom & Jerry'],
    ['&lt;p&gt; &quot;x&quot; &apos;y&apos;', `<p> "x" 'y'`],
    ['caf&#233; &#xE9;&#Xe9; &#x1F600;', 'café éé 😀'],
    ['&amp;amp; stays once-decoded', '&amp; stays once-decoded'],
    ['&nbsp; &eacute; &lol9; are not XML entities', '&nbsp; &eacute; &lol9; are not XML entities'],
    ['AT&T & co; R&D', 'AT&T & co; R&D'],
    ['a&#0;b&#1;c&#x7;d', 'abcd'],
    ['tab&#9;newline&#10;', 'tab\tnewline\n'],
    ['surrogate&#xD800;', 'surrogate'],
    ['too big &#x110000;', 'too big \ufffd'],
    ['&#;&#x;&#12a;', '&#;&#x;&#12a;'],
    ['no references at all', 'no references at all'],
  ])('%j → %j', (raw, decoded) => {
    expect(decodeXmlEntities(raw)).toBe(decoded);
  });

  it('ignores entities a DOCTYPE hands to the decoder', () => {
    const decoder = createXmlEntityDecoder();
    decoder.addInputEntities({ boom: 'x'.repeat(1000) });
    decoder.setExternalEntities({ passwd: 'root:x:0:0' });
    expect(decoder.decode('&boom;&passwd;&amp;')).toBe('&boom;&passwd;&');
  });
});

describe('findXmlHazard', () => {
  it.each([
    ['<rss><channel/></rss>'],
    ['<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss/>'],
    ['<rss><channel><description><![CDATA[<!DOCTYPE html><!ENTITY x "y">]]></description></channel></rss>'],
    ['<rss><channel><title>&#65;&#66;</title></channel></rss>'],
  ])('accepts %j', (xml) => {
    expect(findXmlHazard(xml, 10)).toBeNull();
  });

  it.each([
    ['<!DOCTYPE rss [<!ENTITY a "b">]><rss/>', /DTD entities/],
    ['<!doctype rss [<!entity a "b">]><rss/>', /DTD entities/],
    ['<!DOCTYPE rss [<!ENTITY % p SYSTEM "http://x/y.dtd"> %p;]><rss/>', /DTD entities/],
    ['<?xml version="1.0"?>\n<!-- <a> -->\n<!DOCTYPE rss [<!ENTITY a "b">]><rss/>', /DTD entities/],
    ['<!DOCTYPE rss SYSTEM "<b>" [<!ENTITY a "b">]><rss/>', /DTD entities/],
    [`<rss>${'&#65;'.repeat(11)}</rss>`, /more than 10 numeric character references/],
  ])('refuses %j', (xml, reason) => {
    expect(findXmlHazard(xml, 10)).toMatch(reason);
  });
});
