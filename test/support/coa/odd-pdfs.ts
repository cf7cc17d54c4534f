import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { makeCoa } from './make-coa.ts';
import { buildPdf, HELVETICA, stream, textContent } from './raw-pdf.ts';
import { halcyon } from './templates/halcyon.ts';

/**
 * Documents that are not hostile but cannot be read: a scan without a text layer, an encrypted
 * file, a file cut short.
 */

/**
 * A "scanned" CoA: one page holding only a greyscale PNG of a page (grey paper, dark strokes where
 * the lines of text were). No text layer at all, so it reads as `no_text`.
 */
export async function imageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  const png = await doc.embedPng(scannedPagePng(306, 396));
  page.drawImage(png, { x: 0, y: 0, width: 612, height: 792 });
  doc.setProducer('ScanDesk 3.2');
  doc.setCreator('ScanDesk 3.2 (flatbed, 150 dpi)');
  doc.setCreationDate(new Date('2026-03-14T09:12:00Z'));
  return doc.save();
}

/** A greyscale PNG that looks like a scanned page: noisy paper, a letterhead band, text strokes. */
export function scannedPagePng(width: number, height: number): Uint8Array {
  const raw = Buffer.alloc((width + 1) * height);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % 18;
  };
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    const inBand = y > 20 && y < 34;
    const textRow = y > 60 && y < height - 40 && y % 12 < 5;
    for (let x = 0; x < width; x++) {
      let v = 236 + noise();
      if (inBand && x > 24 && x < 200) v = 60;
      // Words: dark runs with gaps, lines of uneven length.
      if (textRow && x > 24 && x < width - 24 - ((y * 7) % 90) && (x + y * 3) % 37 < 29) v = 45 + noise();
      raw[y * (width + 1) + 1 + x] = v;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter method, no interlace
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

// PDF 1.7 §7.6.3.3, the 32-byte padding of the standard security handler.
const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);

/** RC4, which the standard security handler (revision 2) encrypts with. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + (s[i] ?? 0) + (key[i % key.length] ?? 0)) & 255;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + (s[i] ?? 0)) & 255;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
    out[n] = (data[n] ?? 0) ^ (s[((s[i] ?? 0) + (s[j] ?? 0)) & 255] ?? 0);
  }
  return out;
}

/**
 * A real encrypted one-page CoA (standard security handler, revision 2, 40-bit RC4) that needs
 * `userPassword` to open: pdfjs raises PasswordException without it and reads the text with it.
 */
export function encryptedPdf(userPassword = 'lab-only', ownerPassword = 'owner-secret'): Uint8Array {
  const id = createHash('md5').update('encrypted-coa-fixture').digest();
  const permissions = -44;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const o = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const key = md5(padded(userPassword), o, p, id).subarray(0, 5);
  const u = rc4(key, PAD);
  const objectKey = (num: number) =>
    md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = textContent([
    'Certificate of Analysis',
    'Lot No.: ENC-2231',
    'Purity (HPLC): 99.1%',
    'Date tested: 2026-03-12',
  ]);
  const encrypted = rc4(objectKey(4), Buffer.from(content, 'latin1'));
  return buildPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream('', encrypted),
      HELVETICA,
      `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${permissions} >>`,
    ],
    `/Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`,
  );
}

/** A valid two-page CoA cut in half (the cross-reference table and trailer are gone). */
export async function truncatedPdf(): Promise<Uint8Array> {
  const whole = await makeCoa(halcyon);
  return whole.slice(0, Math.floor(whole.length / 2));
}
