import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * A multipart/form-data body (RFC 7578). Repeated names (`timestamp_granularities[]`)
 * are given as several entries.
 */
export function multipartBody(fields: ReadonlyArray<[string, string | MultipartFile]>): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----podtext${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const quotedName = quote(name);
    if (typeof value === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quotedName}"\r\n\r\n${value}\r\n`));
    } else {
      parts.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${quotedName}"; filename="${quote(value.filename)}"\r\n` +
            `content-type: ${value.contentType}\r\n\r\n`,
        ),
        value.data,
        Buffer.from('\r\n'),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Field names and file names are ours, but a quote or line break must still not end the header. */
function quote(text: string): string {
  return text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
}
