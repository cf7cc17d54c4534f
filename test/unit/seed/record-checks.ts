import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
// The production formats (strict ISO 8601 dates, http(s) URLs): generated data must pass them.
import '../../../src/core/validation/formats.ts';
import { RECORD_SCHEMAS, RECORD_TYPES, type RecordType } from '../../../src/core/import/records.ts';

/** A compiled check per record type, for the dataset generators' tests. */
export const CHECKS = Object.fromEntries(
  RECORD_TYPES.map((t) => [t, TypeCompiler.Compile(RECORD_SCHEMAS[t] as TSchema)]),
) as Record<RecordType, ReturnType<typeof TypeCompiler.Compile>>;
