import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

/*
 * docs/webhooks.md shows how to verify a delivery without a library. That code is run here as the
 * page prints it, against signatures made by the Standard Webhooks package (the scheme the service
 * signs with), so the page cannot drift into code that accepts a forgery.
 */

type Verify = (secret: unknown, headers: Record<string, string>, rawBody: string) => boolean;

async function snippet(): Promise<Verify> {
  const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const after = page.slice(page.indexOf('Without a library, in Node:'));
  const code = /```js\n([\s\S]*?)```/.exec(after)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no hand-written verification');
  const mod = (await import(
    `data:text/javascript;base64,${Buffer.from(`${code}\nexport { verify };`).toString('base64')}`
  )) as { verify: Verify };
  return mod.verify;
}

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ type: 'score.changed', data: { vendor: 'apex' } });
const signed = (withSecret: string, at = new Date()) => {
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const signature = new Webhook(withSecret).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
};

describe("docs/webhooks.md's verification by hand", () => {
  it('accepts a real signature, also beside another (a rotation)', async () => {
    const verify = await snippet();
    const h = signed(secret);
    expect(verify(secret, h, body)).toBe(true);
    const other = signed(`whsec_${randomBytes(32).toString('base64')}`);
    expect(
      verify(
        secret,
        { ...h, 'webhook-signature': `${other['webhook-signature']} ${h['webhook-signature']}` },
        body,
      ),
    ).toBe(true);
  });

  it('refuses a changed body, another secret, and an old timestamp', async () => {
    const verify = await snippet();
    expect(verify(secret, signed(secret), `${body} `)).toBe(false);
    expect(verify(`whsec_${randomBytes(32).toString('base64')}`, signed(secret), body)).toBe(false);
    expect(verify(secret, signed(secret, new Date(Date.now() - 301_000)), body)).toBe(false);
  });

  it('throws on a missing or malformed secret instead of verifying with an empty key', async () => {
    const verify = await snippet();
    // What anyone can sign with an empty key: the forgery an empty secret used to accept.
    const id = 'msg_forged';
    const ts = String(Math.floor(Date.now() / 1000));
    const forged = {
      'webhook-id': id,
      'webhook-timestamp': ts,
      'webhook-signature': `v1,${createHmac('sha256', Buffer.alloc(0)).update(`${id}.${ts}.${body}`).digest('base64')}`,
    };
    for (const bad of [undefined, '', 'whsec_', 'whsec_!!!!', 'whsec_QUJD', secret.slice(6)]) {
      expect(() => verify(bad, forged, body), String(bad)).toThrow(/not a whsec_ secret/);
    }
  });
});
