import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, type TestContext } from '../../support/context.ts';

/** One part of a multipart/form-data body: a text field, or a file. */
export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; data: Uint8Array; contentType?: string };

export interface Multipart {
  body: Buffer;
  contentType: string;
}

/**
 * A multipart/form-data body written by hand (RFC 7578), so a test controls every byte: part
 * order, duplicate and unknown fields, file names and types the browser FormData would not send.
 */
export function multipart(
  parts: readonly Part[],
  boundary = `----coa${randomBytes(12).toString('hex')}`,
): Multipart {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if ('data' in p) {
      head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/pdf'}`;
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
    chunks.push('data' in p ? Buffer.from(p.data) : Buffer.from(p.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The form of an upload; undefined fields are left out. */
export interface CoaForm {
  file?: Uint8Array;
  peptide?: string;
  batch_id?: string;
  vendor?: string;
  filename?: string;
}

export function coaParts(form: CoaForm): Part[] {
  const parts: Part[] = [];
  if (form.file !== undefined)
    parts.push({ name: 'file', filename: form.filename ?? 'coa.pdf', data: form.file });
  for (const name of ['peptide', 'batch_id', 'vendor'] as const) {
    const value = form[name];
    if (value !== undefined) parts.push({ name, value });
  }
  return parts;
}

export const VERIFY = '/v1/coa/verify';
export const verificationUrl = (id: string) => `/v1/coa/verifications/${encodeURIComponent(id)}`;

/** POST /v1/coa/verify through inject, with the key (if any) and the parts as given. */
export function postParts(
  ctx: TestContext,
  key: string | null,
  parts: readonly Part[],
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: VERIFY,
    headers: { ...(key ? bearer(key) : {}), 'content-type': contentType, ...headers },
    payload: body,
  });
}

export const postCoa = (ctx: TestContext, key: string | null, form: CoaForm) =>
  postParts(ctx, key, coaParts(form));

/** A verification as Variant A presents it (the fields the tests read). */
export interface VerificationBody {
  verification_id: string;
  status: 'verified' | 'mismatch' | 'rejected' | 'pending_review' | 'unreadable';
  confidence: number;
  peptide_match: boolean;
  purity_claim?: string;
  purity_verified: boolean;
  notes: { code: string; message: string }[];
  extracted: Record<string, string | number | null>;
  lab_verification_url?: string;
  peptide: string;
  vendor?: string;
  review?: { state: 'pending' | 'approved' | 'rejected'; vendor: string; batch_id: string };
  created_at: string;
}

/**
 * Asserts a 200 verification in the documented shape (booleans always booleans, confidence in
 * 0..1, notes {code, message}) and returns it.
 */
export function expectVerification(res: LightMyRequestResponse): VerificationBody {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const v = res.json() as VerificationBody;
  expect(v.verification_id).toMatch(/^ver_[0-9a-f]{32}$/);
  expect(['verified', 'mismatch', 'rejected', 'pending_review', 'unreadable']).toContain(v.status);
  expect(typeof v.peptide_match).toBe('boolean');
  expect(typeof v.purity_verified).toBe('boolean');
  expect(typeof v.confidence).toBe('number');
  expect(v.confidence).toBeGreaterThanOrEqual(0);
  expect(v.confidence).toBeLessThanOrEqual(1);
  expect(Array.isArray(v.notes)).toBe(true);
  for (const n of v.notes) {
    expect(Object.keys(n).sort()).toEqual(['code', 'message']);
    expect(n.code).toMatch(/^[a-z_]+$/);
    expect(n.message.length).toBeGreaterThan(0);
  }
  expect(Object.keys(v.extracted).sort()).toEqual(EXTRACTED_KEYS);
  expect(Number.isFinite(Date.parse(v.created_at))).toBe(true);
  return v;
}

export const EXTRACTED_KEYS = [
  'batch',
  'client',
  'compound',
  'identity',
  'lab',
  'label_claim',
  'method',
  'purity',
  'quantity',
  'test_date',
  'test_date_text',
  'verification_key',
  'verification_url',
];

export const codes = (v: VerificationBody): string[] => v.notes.map((n) => n.code);
