/**
 * A minimal PDF writer for files pdf-lib will not produce (encrypted, lying page counts, deep
 * nesting, filter chains): numbered objects, a correct cross-reference table and trailer.
 */

export type ObjectBody = string | Uint8Array;

/** `<<dict /Length n>> stream … endstream` with the data as given (already filtered). */
export function stream(dict: string, data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`, 'latin1'),
    bytes,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/**
 * A PDF of `objects` (object n is `objects[n - 1]`, generation 0). Object 1 must be the catalog;
 * `trailer` adds entries to the trailer dictionary (`/Encrypt 5 0 R /ID [...]`).
 */
export function buildPdf(objects: readonly ObjectBody[], trailer = ''): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    at += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n'];
  for (const o of offsets) xref.push(`${String(o).padStart(10, '0')} 00000 n \n`);
  parts.push(
    Buffer.from(
      `${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer} >>\nstartxref\n${at}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** A content stream that writes `lines` top-down in Helvetica (font resource /F1). */
export function textContent(lines: readonly string[], size = 11): string {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  return [
    'BT',
    `/F1 ${size} Tf`,
    `${size * 1.5} TL`,
    '72 720 Td',
    ...lines.map((l) => `(${esc(l)}) Tj T*`),
    'ET',
  ].join('\n');
}

export const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
