import { Parser } from 'htmlparser2';

/** Default cap for descriptions, in characters. */
export const MAX_DESCRIPTION_CHARS = 5000;

const BREAKING = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th',
  'tr', 'ul',
]);
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head']);
const CHUNK = 16 * 1024;
// C0 controls other than tab, newline and carriage return: not text, and NUL breaks PostgreSQL.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Collapses whitespace, trims, and cuts at `maxChars` without splitting a surrogate pair. */
function tidy(text: string, maxChars: number): string {
  let out = text.replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (out.length > maxChars) {
    const code = out.charCodeAt(maxChars - 1);
    out = out.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars).trimEnd();
  }
  return out;
}

/**
 * Plain text from an HTML fragment (a description, CDATA or entity-escaped):
 * tags dropped, block elements turned into spaces so words do not run
 * together, HTML entities decoded, whitespace collapsed, at most `maxChars`
 * characters (default 5000). Stops feeding the HTML parser once enough text
 * is collected, so a huge description costs little.
 */
export function htmlToText(html: string, maxChars = MAX_DESCRIPTION_CHARS): string {
  if (!/[<&]/.test(html)) return tidy(html, maxChars);
  const parts: string[] = [];
  let collected = 0;
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden += 1;
        else if (BREAKING.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BREAKING.has(name)) parts.push(' ');
      },
      ontext(text) {
        if (hidden > 0) return;
        parts.push(text);
        collected += text.length;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  // Whitespace collapses, so collect a margin beyond the cap before stopping.
  for (let at = 0; at < html.length && collected < maxChars * 2; at += CHUNK) {
    parser.write(html.slice(at, at + CHUNK));
  }
  parser.end();
  return tidy(parts.join(''), maxChars);
}

/**
 * A one-line text such as a title or a name: HTML entities decoded (feeds
 * double-escape them), tags kept as literal text, whitespace collapsed.
 */
export function plainLine(text: string, maxChars = 1000): string {
  return htmlToText(text.replace(/</g, '&lt;'), maxChars);
}
