import { type Kysely, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/** The whole model of DESIGN.md §5, accounts and keys, and the rate-limit state. */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  const id = caps.autoIdType;
  const dbl = caps.doubleType;
  const big = caps.bigIntType;

  await db.schema
    .createTable('data_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('data_version', big, (c) => c.notNull())
    .addColumn('keys_version', big, (c) => c.notNull())
    .addColumn('data_updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into data_state (id, data_version, keys_version, data_updated_at)
            values (1, 1, 1, ${new Date().toISOString()})`.execute(db);

  await db.schema
    .createTable('accounts')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('rate_limit_a', 'integer')
    .addColumn('rate_limit_b', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
  await db.schema.createIndex('api_keys_prefix').on('api_keys').column('prefix').execute();

  await db.schema
    .createTable('vendors')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('listing_plan', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('pending', 'integer', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('owner_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('coa', 'integer')
    .addColumn('purity', 'integer')
    .addColumn('sentiment', 'integer')
    .addColumn('transparency', 'integer')
    .addColumn('experience', 'integer')
    .addColumn('score', 'integer')
    .addColumn('eff_coa', 'integer')
    .addColumn('eff_purity', 'integer')
    .addColumn('eff_sentiment', 'integer')
    .addColumn('eff_transparency', 'integer')
    .addColumn('eff_experience', 'integer')
    .addColumn('avg_purity', dbl)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('overrides')
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('overrides_pk', ['vendor_id', 'field'])
    .execute();

  await db.schema
    .createTable('score_history')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('score_history_vendor')
    .on('score_history')
    .columns(['vendor_id', 'id'])
    .execute();

  await db.schema
    .createTable('peptides')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('molecular_weight', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('peptide_aliases')
    .addColumn('peptide_id', 'integer', (c) => c.notNull().references('peptides.id').onDelete('cascade'))
    .addColumn('alias', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('peptide_aliases_pk', ['peptide_id', 'alias'])
    .execute();

  await db.schema
    .createTable('labs')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('trusted', 'integer', (c) => c.notNull())
    .addColumn('verify_url', 'text')
    .execute();

  await db.schema
    .createTable('prices')
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('peptide_id', 'integer', (c) => c.notNull().references('peptides.id').onDelete('cascade'))
    .addColumn('vial_mg', dbl, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('total_usd', dbl, (c) => c.notNull())
    .addColumn('in_stock', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prices_pk', ['vendor_id', 'peptide_id', 'vial_mg', 'source'])
    .execute();
  await db.schema.createIndex('prices_peptide').on('prices').column('peptide_id').execute();

  await db.schema
    .createTable('batches')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('batch_key', 'text', (c) => c.notNull())
    .addColumn('peptide_id', 'integer', (c) => c.notNull().references('peptides.id'))
    .addColumn('purity', dbl)
    .addColumn('lab_id', 'integer', (c) => c.references('labs.id'))
    .addColumn('test_method', 'text')
    .addColumn('tested_at', 'text')
    .addColumn('source', 'text')
    .addColumn('source_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    // Leading with batch_key lets this one index serve both the upsert key and the lookup by number.
    .addUniqueConstraint('batches_key_vendor', ['batch_key', 'vendor_id'])
    .execute();
  await db.schema.createIndex('batches_vendor').on('batches').columns(['vendor_id', 'status']).execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reviews_vendor').on('reviews').column('vendor_id').execute();

  await db.schema
    .createTable('replies')
    .addColumn('review_id', 'text', (c) => c.primaryKey().references('reviews.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('second', big, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_hits_pk', ['key_id', 'scope', 'second'])
    .execute();
  await db.schema.createIndex('rate_limit_hits_second').on('rate_limit_hits').column('second').execute();
}
