// A minimal PNG encoder (8-bit RGB, no interlace) on node's zlib: the emulator's generated images
// (painted-image.ts) are raster files like the service's, without a native image library. Each
// scanline gets the Paeth filter, which turns the smooth gradients of a painted scene into runs of
// near-zero bytes that deflate well.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

/** `rgb` holds width x height pixels, 3 bytes each, row by row. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (rgb.length !== width * height * 3) throw new Error('encodePng: pixel data does not match the size');
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    raw[out] = 4; // Paeth
    const row = y * stride;
    const prev = row - stride;
    for (let i = 0; i < stride; i++) {
      const left = i >= 3 ? rgb[row + i - 3]! : 0;
      const up = y > 0 ? rgb[prev + i]! : 0;
      const upLeft = y > 0 && i >= 3 ? rgb[prev + i - 3]! : 0;
      raw[out + 1 + i] = (rgb[row + i]! - paeth(left, up, upLeft)) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 4 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
