import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'vitest';

/** Asserts that a served document is OpenAPI 3.1 and passes the schema validator with no errors. */
export async function expectValidOpenApi31(doc: Record<string, unknown>): Promise<void> {
  expect(doc.openapi).toMatch(/^3\.1\./);
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
}
