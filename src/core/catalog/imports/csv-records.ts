/** A CSV field: text, or null for an empty unquoted field or the `nullToken`. */
export type CsvField = string | null;

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

interface Parsed {
  fields: CsvField[];
  next: number;
}

/**
 * Parses one record of RFC 4180 CSV starting at `pos`. Returns null when the
 * record may continue past the end of `text` and more input is coming.
 */
function parseRecord(text: string, pos: number, final: boolean, nullToken: string): Parsed | null {
  const fields: CsvField[] = [];
  let i = pos;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1) return null;
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        if (close + 1 >= text.length && !final) return null;
        value += text.slice(from, close);
        i = close + 1;
        break;
      }
      fields.push(value);
    } else {
      let end = i;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c === COMMA || c === LF || c === CR) break;
        end++;
      }
      if (end >= text.length && !final) return null;
      const raw = text.slice(i, end);
      fields.push(raw === '' || raw === nullToken ? null : raw);
      i = end;
    }
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i++;
      continue;
    }
    if (c === CR) {
      if (i + 1 >= text.length && !final) return null;
      i += text.charCodeAt(i + 1) === LF ? 2 : 1;
      return { fields, next: i };
    }
    if (c === LF) return { fields, next: i + 1 };
    // End of input, or junk after a closing quote: the record ends here either way.
    if (i >= text.length) return { fields, next: i };
    i++;
  }
}

/**
 * Streams CSV records (RFC 4180: quoted fields, `""` escapes, line breaks
 * inside quotes, CRLF or LF) from text chunks, holding only the record being
 * read in memory. Blank lines are skipped.
 *
 * @param options.nullToken an unquoted field with this exact text reads as null. Default: `NULL` (MySQL dumps).
 * @example for await (const fields of csvRecords(createReadStream(file, 'utf8'))) …
 */
export async function* csvRecords(chunks: AsyncIterable<string | Buffer>, options: { nullToken?: string } = {}): AsyncGenerator<CsvField[]> {
  const nullToken = options.nullToken ?? 'NULL';
  let text = '';
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let pos = 0;
    for (;;) {
      while (text.charCodeAt(pos) === LF || text.charCodeAt(pos) === CR) pos++;
      if (pos >= text.length) break;
      const record = parseRecord(text, pos, false, nullToken);
      if (!record) break;
      yield record.fields;
      pos = record.next;
    }
    text = text.slice(pos);
  }
  text += decoder.decode();
  let pos = 0;
  for (;;) {
    while (text.charCodeAt(pos) === LF || text.charCodeAt(pos) === CR) pos++;
    if (pos >= text.length) return;
    const record = parseRecord(text, pos, true, nullToken)!;
    yield record.fields;
    pos = record.next;
  }
}
