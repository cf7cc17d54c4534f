import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../../src/core/keys/manage-keys.ts';
import { openStore, parseDatabaseUrl } from '../../../src/storage/open-store.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectError, type Fixture, setupFixture } from './fixtures.ts';

const URL = `${B}/vendors/apex`;

describe.each(DIALECTS)('a key revoked mid-session (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const expectRevoked = async (key: string) => {
    const err = expectError(await f.get(URL, {}, key), 401, 'invalid_api_key');
    expect(err.message).toMatch(/not valid/i);
  };

  it('revoked through this process → the very next request is 401', async () => {
    const key = await f.ctx.keyFor('enterprise');
    expect((await f.get(URL, {}, key)).statusCode).toBe(200);
    expect((await f.get(URL, {}, key)).statusCode).toBe(200); // principal now cached
    await revokeKey(f.ctx.container.store, key);
    await expectRevoked(key);
    await expectRevoked(key);
  });

  it('revoking one key leaves the account’s other keys working', async () => {
    const account = `revoke-one-${dialect}`;
    const a = await f.ctx.keyFor('enterprise', account);
    const b = await f.ctx.keyFor('enterprise', account);
    expect((await f.get(URL, {}, a)).statusCode).toBe(200);
    await revokeKey(f.ctx.container.store, a);
    await expectRevoked(a);
    expect((await f.get(URL, {}, b)).statusCode).toBe(200);
  });

  it(`revoked from a second connection (another process) → 401 ${dialect === 'sqlite' ? 'on the very next request' : 'within 1 s'}`, async () => {
    const key = await f.ctx.keyFor('enterprise');
    expect((await f.get(URL, {}, key)).statusCode).toBe(200);
    const other = await openStore(parseDatabaseUrl(f.ctx.databaseUrl));
    try {
      await revokeKey(other, key);
    } finally {
      await other.close();
    }
    if (dialect === 'sqlite') {
      await expectRevoked(key);
      return;
    }
    const start = Date.now();
    let status = 200;
    while (Date.now() - start < 1000) {
      status = (await f.get(URL, {}, key)).statusCode;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    expect(Date.now() - start).toBeLessThanOrEqual(1000);
    await expectRevoked(key);
  });
});
