import fc from 'fast-check';
import { utf8 } from './raw-http.ts';
import type { FuzzWorld } from './target.ts';

type Header = [string, string];

/** The credential a well-behaved client of `prefix` sends: the huge-limit key, or the admin token. */
export const goodAuth = (prefix: string, world: FuzzWorld): Header[] => [
  ['Authorization', `Bearer ${prefix === '/admin/v1' ? world.admin : world.custom}`],
];

/** Every credential a client may hold, right or wrong for the route it calls. */
function credentials(world: FuzzWorld): fc.Arbitrary<string> {
  const body = fc.stringMatching(/^[0-9A-Za-z]{32}$/);
  return fc.oneof(
    fc.constantFrom(world.custom, world.free, world.pro, world.enterprise, world.revoked, world.admin),
    body.map((b) => `prk_live_${b}`), // well formed, unknown
    body.map((b) => `prk_test_${b}`), // another key scheme
    fc.constantFrom(
      world.custom.toUpperCase(),
      world.custom.slice(0, -1),
      `${world.custom}x`,
      world.custom.slice(0, 13),
    ),
    fc.constantFrom('', 'prk_live_', 'null', 'undefined', world.admin.toLowerCase(), `${world.admin} `),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }),
  );
}

/** Authorization schemes as clients spell them, right and wrong. */
const SCHEMES = ['Bearer', 'bearer', 'BEARER', 'bEaReR', 'Basic', 'Token', 'Bearer:', 'ApiKey', 'Digest', ''];
const SEPARATORS = [' ', '  ', '\t', ' \t ', ' '.repeat(200), ''];

/** Header lists for every shape of authentication, from none to 60 KB. */
export function authHeaders(world: FuzzWorld): fc.Arbitrary<Header[]> {
  const shaped = fc
    .record({
      scheme: fc.constantFrom(...SCHEMES),
      sep: fc.constantFrom(...SEPARATORS),
      credential: credentials(world),
      lead: fc.constantFrom('', ' ', '\t'),
      trail: fc.constantFrom('', ' ', '  ', '\t'),
      name: fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
    })
    .map(({ scheme, sep, credential, lead, trail, name }): Header[] => [
      [name, `${lead}${scheme}${scheme ? sep : ''}${credential}${trail}`],
    ]);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Header[]>([]) },
    { weight: 6, arbitrary: shaped },
    {
      // Two Authorization headers: which one counts must not depend on luck.
      weight: 1,
      arbitrary: fc.tuple(shaped, shaped).map(([a, b]) => [...a, ...b]),
    },
    {
      // Huge headers: just under and over the server's header limit.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(1_000, 8_000, 15_000, 17_000, 60_000),
          fc.constantFrom(world.custom, world.admin),
        )
        .map(([n, k]): Header[] => [['Authorization', `Bearer${' '.repeat(n)}${k}`]]),
    },
    {
      // Non-ASCII in the header value (sent as UTF-8 bytes or as raw latin1 bytes).
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), fc.boolean())
        .map(([s, asUtf8]): Header[] => [
          ['Authorization', `Bearer ${asUtf8 ? utf8(s) : s.replace(/[\u0100-\uffff]/g, 'ÿ')}`],
        ]),
    },
  );
}
