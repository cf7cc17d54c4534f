import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [6]: CoA verifications by upload, and labs the registry flags (a CoA naming one is a
 * forgery signal). Additive only.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('labs')
    .addColumn('flagged', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('coa_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    /** Hex SHA-256 of the uploaded file. */
    .addColumn('sha256', 'text', (c) => c.notNull())
    /** Fingerprint of the request's fields: the same file with other fields is another verification. */
    .addColumn('request_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('confidence', caps.doubleType, (c) => c.notNull())
    /** JSON: the verification result as decided (core/coa/verification.ts VerificationOutcome). */
    .addColumn('result', 'text', (c) => c.notNull())
    /** JSON: what the document stated (ExtractedFields) and its PDF metadata; null when unreadable. */
    .addColumn('extracted', 'text')
    .addColumn('unreadable_reason', 'text')
    /** The submission this upload queued or joined for review (vendor and batch key). */
    .addColumn('vendor_id', 'integer')
    .addColumn('batch_key', 'text')
    /** Where the file was kept (COA_STORE_FILES), relative to the store directory. */
    .addColumn('file_path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('coa_verifications_upload')
    .on('coa_verifications')
    .columns(['account_id', 'sha256', 'request_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('coa_verifications_submission')
    .on('coa_verifications')
    .columns(['vendor_id', 'batch_key'])
    .execute();
}
