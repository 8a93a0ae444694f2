// What an uploaded file really is, from its first bytes: the content decides, never the name or the client's
// Content-Type. Written by hand (a few signatures; a detection library would cost bundle size for formats avatars
// never accept).

/** The image types avatars may be, by IANA media type. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/bmp' | 'image/tiff' | 'image/vnd.microsoft.icon';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

// "BM" alone is too weak (any text may start with it): a BMP also names one of the known DIB header sizes.
const BMP_DIB_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** The image type of `bytes`, or null when they are none of the accepted formats. */
export function imageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 18 && BMP_DIB_HEADER_SIZES.has(u32le(bytes, 14))) return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  // ICONDIR: reserved 0, type 1 (icon; 2 would be a cursor), then at least one image.
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && u16le(bytes, 4) > 0) return 'image/vnd.microsoft.icon';
  return null;
}
