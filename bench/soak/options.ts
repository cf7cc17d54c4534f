import { parseArgs } from 'node:util';

export interface SoakOptions {
  minutes: number;
  clients: number;
  /** Target rate of the read mix, requests per second (the uploads and operator writes come on top). */
  rps: number;
  coaPerSecond: number;
  /** Seconds between operator writes. */
  adminEverySeconds: number;
  reportSeconds: number;
  /** An instance already running; else the soak starts its own. */
  url: string | null;
  key: string | null;
  adminToken: string | null;
  pid: number | null;
  out: string | null;
}

export const USAGE = `npm run soak -- [--minutes M] [options]

  --minutes M              how long the load runs (default 30)
  --clients N              concurrent read clients (default 16)
  --rps R                  target rate of the read mix, requests/s (default 300)
  --coa-per-second R       CoA uploads per second (default 2)
  --admin-every S          seconds between operator writes (default 2)
  --report-every S         seconds between report lines (default 30)
  --out FILE               the time series as JSON (default .bench/soak-<timestamp>.json)

  Against an instance already running (default: the soak starts its own on a temp SQLite database):
  --url URL                its base URL
  --admin-token T          its PURERANK_ADMIN_TOKEN (required with --url: accounts, keys, operator writes)
  --key KEY                an enterprise key of it, checked before the run and used for reads while
                           its quota lasts (the soak's own keys carry the rest)
  --pid PID                its process id on this machine: RSS from /proc/PID/status (without it,
                           RSS is not measured and the verdict cannot pass)
`;

export function parseOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '30' },
      clients: { type: 'string', default: '16' },
      rps: { type: 'string', default: '300' },
      'coa-per-second': { type: 'string', default: '2' },
      'admin-every': { type: 'string', default: '2' },
      'report-every': { type: 'string', default: '30' },
      out: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      'admin-token': { type: 'string' },
      pid: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const num = (name: string, v: string | undefined, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min || n > max)
      throw new Error(`--${name} must be a number from ${min} to ${max}, not ${JSON.stringify(v)}`);
    return n;
  };
  const url = values.url ?? null;
  if (url !== null && !values['admin-token'])
    throw new Error(
      '--url needs --admin-token: the soak creates its accounts and keys and makes its operator writes through /admin/v1',
    );
  if (url === null && (values.key || values['admin-token'] || values.pid))
    throw new Error(
      '--key, --admin-token and --pid go with --url (without it the soak starts its own service)',
    );
  return {
    minutes: num('minutes', values.minutes, 0.1, 24 * 60),
    clients: Math.round(num('clients', values.clients, 1, 512)),
    rps: num('rps', values.rps, 1, 100_000),
    coaPerSecond: num('coa-per-second', values['coa-per-second'], 0, 100),
    adminEverySeconds: num('admin-every', values['admin-every'], 0.1, 3600),
    reportSeconds: num('report-every', values['report-every'], 1, 3600),
    url: url === null ? null : url.replace(/\/$/, ''),
    key: values.key ?? null,
    adminToken: values['admin-token'] ?? null,
    pid: values.pid === undefined ? null : Math.round(num('pid', values.pid, 1, 2 ** 31)),
    out: values.out ?? null,
  };
}
