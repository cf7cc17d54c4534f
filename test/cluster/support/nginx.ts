import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Debian's nginx as a real process in front of real instances, running deploy/nginx.conf itself:
 * only the lines marked `# @instance`, `# @listen`, `# @access_log` and `# @error_log` are
 * replaced (ports and paths); everything else is what production runs.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
export const SITE_CONF = join(ROOT, 'deploy/nginx.conf');

/** nginx lives in /usr/sbin, which is not on every user's PATH. */
function findNginx(): string | null {
  for (const candidate of [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

export const NGINX_BIN = findNginx();

/**
 * Whether nginx is installed. With CI=true a missing nginx fails the importing file at load (.ci/run
 * installs it); locally the nginx suite is skipped with a warning.
 */
export const nginxAvailable: boolean = (() => {
  if (NGINX_BIN) return true;
  if (process.env.CI === 'true')
    throw new Error('nginx is required when CI=true but is not installed (apt-get install -y nginx).');
  console.warn('[tests] nginx is not installed (apt-get install -y nginx); the nginx suite is skipped.');
  return false;
})();

export interface SiteValues {
  /** host:port of each instance. */
  instances: string[];
  /** nginx's `listen` argument, e.g. 127.0.0.1:8080. */
  listen: string;
  accessLog: string;
  errorLog: string;
}

/** deploy/nginx.conf with the marked lines replaced; throws when a marker is missing. */
export function renderSite(template: string, v: SiteValues): string {
  const lines = template.split('\n');
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const m = /^(\s*)(.*?)\s*# @(\w+)\s*$/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const [, indent = '', directive = '', marker = ''] = m;
    seen.add(marker);
    switch (marker) {
      case 'instance': {
        // The first marked server line stands for all of them, with its parameters kept.
        if (out.some((l) => l.includes('# @instance'))) break;
        const params = directive.replace(/^server\s+\S+\s*/, '').replace(/;$/, '');
        for (const address of v.instances) out.push(`${indent}server ${address} ${params};  # @instance`);
        break;
      }
      case 'listen':
        out.push(`${indent}listen ${v.listen};`);
        break;
      case 'access_log':
        out.push(`${indent}${directive.replace(/^access_log\s+\S+/, `access_log ${v.accessLog}`)}`);
        break;
      case 'error_log':
        out.push(`${indent}${directive.replace(/^error_log\s+\S+/, `error_log ${v.errorLog}`)}`);
        break;
      default:
        throw new Error(`deploy/nginx.conf: unknown marker @${marker}`);
    }
  }
  for (const marker of ['instance', 'listen', 'access_log', 'error_log'])
    if (!seen.has(marker)) throw new Error(`deploy/nginx.conf: no line marked # @${marker}`);
  return out.join('\n');
}

/** The main configuration around the site: everything nginx writes stays in `dir`. */
function mainConf(dir: string, site: string): string {
  return [
    'worker_processes 1;',
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  client_body_temp_path ${join(dir, 'client_body')};`,
    `  proxy_temp_path ${join(dir, 'proxy')};`,
    `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
    `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
    `  scgi_temp_path ${join(dir, 'scgi')};`,
    `  include ${site};`,
    '}',
    '',
  ].join('\n');
}

/** A port free right now (nginx is told to listen on it; a lost race is retried). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Nginx {
  /** http://127.0.0.1:port */
  base: string;
  port: number;
  dir: string;
  pid: number;
  /** The access log so far (log_format purerank). */
  accessLog(): string;
  /** nginx's error logs so far (main and site). */
  errorLog(): string;
  /** Stops nginx (SIGQUIT: finish what is in flight, then SIGKILL after 5 s) and removes `dir`. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once('exit', () => done()));

/** Starts nginx on a free port in front of `instances` (base URLs) and waits until it answers. */
export async function startNginx(instances: string[]): Promise<Nginx> {
  if (!NGINX_BIN) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'purerank-nginx-'));
  // Run as root, nginx's workers are nobody: they must reach the temp paths under dir.
  chmodSync(dir, 0o755);
  const template = readFileSync(SITE_CONF, 'utf8');
  const hosts = instances.map((b) => new URL(b).host);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const site = join(dir, 'purerank.conf');
    writeFileSync(
      site,
      renderSite(template, {
        instances: hosts,
        listen: `127.0.0.1:${port}`,
        accessLog: join(dir, 'access.log'),
        errorLog: join(dir, 'site-error.log'),
      }),
    );
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, mainConf(dir, site));
    const child = spawn(
      NGINX_BIN,
      [
        '-p',
        dir,
        '-e',
        join(dir, 'error.log'),
        '-c',
        conf,
        '-g',
        `daemon off; pid ${join(dir, 'nginx.pid')};`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
    const base = `http://127.0.0.1:${port}`;
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.kill('SIGQUIT');
        await exited(child);
        clearTimeout(kill);
      }
    };
    try {
      await waitUntilAnswering(base, child, () => `${output}${read('error.log')}${read('site-error.log')}`);
      return {
        base,
        port,
        dir,
        pid: child.pid!,
        accessLog: () => read('access.log'),
        errorLog: () => `${read('error.log')}${read('site-error.log')}`,
        async stop() {
          await stop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastError = err;
      await stop();
      // Someone took the port between the check and nginx's bind: try another.
      if (!/Address already in use/.test(String(err))) break;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

async function waitUntilAnswering(base: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}):\n${logs()}`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer /healthz within 15 s:\n${logs()}`);
}
