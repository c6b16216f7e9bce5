/** The picture formats Podtext serves as artwork: raster only (an SVG can carry script). */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format `bytes` really are, read from their magic bytes; null for
 * anything else (HTML error pages, SVG, truncated files). A publisher's
 * Content-Type is not trusted on its own.
 */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** Whether a Content-Type header names a raster image (SVG and non-images are refused). */
export function isRasterContentType(header: string | undefined): boolean {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type.startsWith('image/') && !type.includes('svg');
}
