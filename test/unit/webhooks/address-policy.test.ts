import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonPublicClass, refusedAddress } from '../../../src/core/webhooks/address-policy.ts';

/**
 * The address policy against an independent table of the refused ranges (written here from the
 * IANA special-purpose registries, not read from ipaddr.js), with properties over whole CIDRs.
 */

// ---- IPv4 helpers -------------------------------------------------------------------------------
const v4ToInt = (a: string): number => a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const intToV4 = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** Every IPv4 address in `cidr`, as an arbitrary. */
function v4In(cidr: string): fc.Arbitrary<string> {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = v4ToInt(base) - (v4ToInt(base) % size);
  return fc.integer({ min: 0, max: size - 1 }).map((i) => intToV4(start + i));
}
const inV4 = (a: string, cidr: string): boolean => {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  return Math.floor(v4ToInt(a) / size) === Math.floor(v4ToInt(base) / size);
};

/** Refused IPv4 ranges, by class (RFC 1918, 1122, 3927, 5735, 5737, 6598, 2544, 3068, 7534/7535, 7450). */
const REFUSED_V4: Record<string, string[]> = {
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
  loopback: ['127.0.0.0/8'],
  linkLocal: ['169.254.0.0/16'],
  carrierGradeNat: ['100.64.0.0/10'],
  multicast: ['224.0.0.0/4'],
  unspecified: ['0.0.0.0/8'],
  // IETF protocol assignments, documentation, 6to4 relay anycast, benchmarking, class E.
  reserved: [
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.88.99.0/24',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '240.0.0.0/4',
  ],
  // Anycast infrastructure no webhook receiver lives on; ipaddr.js names them, so they are refused.
  as112: ['192.175.48.0/24', '192.31.196.0/24'],
  amt: ['192.52.193.0/24'],
};
const ALL_REFUSED_V4 = Object.values(REFUSED_V4).flat();

// ---- IPv6 helpers -------------------------------------------------------------------------------
const groupsToV6 = (g: number[]): string => g.map((x) => x.toString(16)).join(':');
/** Every IPv6 address in `prefix`/`bits` (prefix given as its first groups). */
function v6In(prefix: number[], bits: number): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((rand) => {
    const out: number[] = [];
    for (let i = 0; i < 8; i++) {
      const keep = Math.max(0, Math.min(16, bits - i * 16)); // bits of this group fixed by the prefix
      const mask = keep === 0 ? 0 : (0xffff << (16 - keep)) & 0xffff;
      out.push(((prefix[i] ?? 0) & mask) | (rand[i]! & ~mask & 0xffff));
    }
    return groupsToV6(out);
  });
}

const RUNS = { numRuns: 300 };

describe('refusedAddress: IPv4', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'linkLocal'], // AWS, GCP, Azure metadata
    ['169.254.170.2', 'linkLocal'], // ECS task metadata
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'], // Alibaba Cloud metadata
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['192.0.0.170', 'reserved'],
    ['192.0.2.1', 'reserved'], // TEST-NET-1
    ['198.51.100.7', 'reserved'], // TEST-NET-2
    ['203.0.113.9', 'reserved'], // TEST-NET-3
    ['198.18.0.1', 'reserved'], // benchmarking
    ['240.0.0.1', 'reserved'],
  ])('refuses %s (%s)', (address, cls) => {
    expect(refusedAddress(address)).toBe(`${address} is not a public address (${cls})`);
    expect(nonPublicClass(address)).toBe(cls);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.9.9.9',
    '93.184.215.14',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.0', // just above
    '100.63.255.255', // just below 100.64/10
    '100.128.0.0', // just above
    '169.253.255.255',
    '192.167.255.255',
    '223.255.255.255', // the last before multicast
  ])('allows the public %s', (address) => {
    expect(refusedAddress(address)).toBeNull();
    expect(nonPublicClass(address)).toBeNull();
  });

  for (const [cls, cidrs] of Object.entries(REFUSED_V4)) {
    for (const cidr of cidrs) {
      it(`refuses every address in ${cidr} (${cls})`, () => {
        fc.assert(
          fc.property(v4In(cidr), (a) => {
            expect(refusedAddress(a)).not.toBeNull();
          }),
          RUNS,
        );
      });
    }
  }

  it('refuses an IPv4 address exactly when it lies in one of the refused ranges', () => {
    fc.assert(
      fc.property(fc.ipV4(), (a) => {
        const expected = ALL_REFUSED_V4.some((c) => inV4(a, c)) || a === '255.255.255.255';
        expect(refusedAddress(a) !== null).toBe(expected);
      }),
      { numRuns: 5_000 },
    );
  });

  it('judges odd notations by the address they spell (127.1, 0x7f.1, 2130706433)', () => {
    for (const odd of ['127.1', '0x7f.0.0.1', '0x7f.1', '2130706433', '0177.0.0.1']) {
      expect(refusedAddress(odd)).toBe('127.0.0.1 is not a public address (loopback)');
    }
  });
});

describe('refusedAddress: IPv6', () => {
  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'], // AWS IMDS over IPv6
    ['fdff:ffff::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['64:ff9b::a00:1', 'rfc6052'], // NAT64 of 10.0.0.1
    ['64:ff9b::808:808', 'rfc6052'], // NAT64 of a public address: still a gateway we do not control
    ['64:ff9b:1::a00:1', 'rfc6052'], // local-use NAT64 (RFC 8215)
    ['2002:7f00:1::1', '6to4'], // 6to4 of 127.0.0.1
    ['2002:c000:204::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'reserved'], // documentation
    ['3fff::1', 'reserved'], // documentation (RFC 9637)
    ['100::1', 'discard'],
    ['::ffff:0:a00:1', 'rfc6145'], // IPv4-translated
    // IPv4-compatible (deprecated): ipaddr.js calls these unicast; the policy does not.
    ['::7f00:1', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    // Outside 2000::/3, the only block allocated for global unicast.
    ['4000::1', 'notGlobalUnicast'],
    ['f000::1', 'notGlobalUnicast'],
    ['1::1', 'notGlobalUnicast'],
  ])('refuses %s (%s)', (address, cls) => {
    expect(nonPublicClass(address)).toBe(cls);
    expect(refusedAddress(address)).toMatch(new RegExp(`is not a public address \\(${cls}\\)$`));
  });

  it.each([
    ['::ffff:10.0.0.1', '10.0.0.1 is not a public address (private)'],
    ['::ffff:127.0.0.1', '127.0.0.1 is not a public address (loopback)'],
    ['::ffff:7f00:1', '127.0.0.1 is not a public address (loopback)'],
    ['::ffff:169.254.169.254', '169.254.169.254 is not a public address (linkLocal)'],
    ['::ffff:100.100.100.200', '100.100.100.200 is not a public address (carrierGradeNat)'],
    ['[::ffff:192.168.0.1]', '192.168.0.1 is not a public address (private)'],
  ])('judges the IPv4-mapped %s by the IPv4 inside', (address, why) => {
    expect(refusedAddress(address)).toBe(why);
  });

  it('allows an IPv4-mapped address exactly when it allows the IPv4 inside', () => {
    fc.assert(
      fc.property(fc.ipV4(), (a) => {
        expect(refusedAddress(`::ffff:${a}`) === null).toBe(refusedAddress(a) === null);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    '2606:4700:4700::1111', // Cloudflare DNS
    '2001:4860:4860::8888', // Google DNS
    '2a00:1450:4001:82b::200e',
    '2620:fe::fe', // Quad9
    '2c0f:fb50:4003::1',
  ])('allows the public %s', (address) => {
    expect(refusedAddress(address)).toBeNull();
    expect(nonPublicClass(address)).toBeNull();
  });

  const V6_REFUSED: [string, number[], number][] = [
    ['fc00::/7', [0xfc00], 7],
    ['fe80::/10', [0xfe80], 10],
    ['ff00::/8', [0xff00], 8],
    ['::ffff:0:0/96 with a private IPv4 (::ffff:10.0.0.0/104)', [0, 0, 0, 0, 0, 0xffff, 0x0a00], 104],
    ['::ffff:0:0/96 with a loopback IPv4 (::ffff:127.0.0.0/104)', [0, 0, 0, 0, 0, 0xffff, 0x7f00], 104],
    ['64:ff9b::/96', [0x64, 0xff9b], 96],
    ['64:ff9b:1::/48', [0x64, 0xff9b, 1], 48],
    ['2002::/16', [0x2002], 16],
    ['2001::/32', [0x2001, 0], 32],
    ['2001:db8::/32', [0x2001, 0xdb8], 32],
    ['::/96', [0], 96],
    ['0000::/3 (below 2000::/3)', [0], 3],
    ['4000::/2 (above 2000::/3)', [0x4000], 2],
    ['8000::/1 (above 2000::/3)', [0x8000], 1],
  ];
  for (const [name, prefix, bits] of V6_REFUSED) {
    it(`refuses every address in ${name}`, () => {
      fc.assert(
        fc.property(v6In(prefix, bits), (a) => {
          expect(refusedAddress(a)).not.toBeNull();
        }),
        RUNS,
      );
    });
  }

  it('allows addresses in the regional registries\u2019 blocks (2400::/6, 2800::/6)', () => {
    const as112v6 = (a: string) => a.startsWith('2620:4f:8000:');
    fc.assert(
      fc.property(fc.oneof(v6In([0x2400], 6), v6In([0x2800], 6)), (a) => {
        fc.pre(!as112v6(a));
        expect(refusedAddress(a)).toBeNull();
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('refusedAddress: forms and garbage', () => {
  it('ignores URL brackets and a zone id (fe80::1%eth0 is link-local whatever the zone)', () => {
    expect(refusedAddress('[::1]')).toBe('::1 is not a public address (loopback)');
    expect(refusedAddress('fe80::1%eth0')).toBe('fe80::1 is not a public address (linkLocal)');
    expect(refusedAddress('fe80::1%25eth0')).toBe('fe80::1 is not a public address (linkLocal)');
    expect(refusedAddress('[2606:4700:4700::1111]')).toBeNull();
  });

  it.each(['', 'example.com', 'localhost', '1.2.3.4.5', '::g', '256.1.1.1', ' 8.8.8.8x', '[::1'])(
    'refuses %j as not an address',
    (bad) => {
      expect(refusedAddress(bad)).toBe(`'${bad}' is not an IP address`);
      expect(nonPublicClass(bad)).toBe('invalid');
    },
  );

  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(() => refusedAddress(s)).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
  });
});
