import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HostProcess } from './host-process.ts';
import { repoRoot } from './project.ts';
import { freePort } from './stand-ins.ts';

const WRANGLER = path.join(repoRoot, 'node_modules', '.bin', 'wrangler');
/** A dead port on loopback: where anything that would still try to reach the internet goes instead. */
const NOWHERE = 'http://127.0.0.1:9/';

/**
 * The environment wrangler runs in: no Cloudflare account, no telemetry or error reports, no
 * update check (banner hidden, npm registry pointed at a dead loopback port), no download of the
 * `Request.cf` object from workers.cloudflare.com. Loopback only.
 */
export function offlineWranglerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(CLOUDFLARE_|CF_|WRANGLER_)/.test(name) && !/_proxy$/i.test(name)) env[name] = value;
  }
  return {
    ...env,
    NO_COLOR: '1',
    CI: '1',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    npm_config_registry: NOWHERE,
  };
}

export interface RunningPagesDev {
  url: string;
  process: HostProcess;
  close(): Promise<void>;
}

/**
 * `wrangler pages dev DIR` (Cloudflare's Pages runtime, workerd) on 127.0.0.1 and a free port,
 * run in `cwd` so it finds `functions/` there. Bindings become the Function's env.
 */
export async function startPagesDev(options: {
  cwd: string;
  dir: string;
  /** Known before start when a binding needs the site's own address. */
  port?: number;
  bindings?: Record<string, string>;
  /** D1 bindings: name → database id, kept (local SQLite) under `persistTo`. */
  d1?: Record<string, string>;
  persistTo?: string;
}): Promise<RunningPagesDev> {
  const port = options.port ?? (await freePort());
  const args = ['pages', 'dev', options.dir, '--ip', '127.0.0.1', '--port', String(port)];
  // A fixed date this wrangler supports: a newer one would make it look for a newer version online.
  args.push('--compatibility-date', '2025-01-01', '--show-interactive-dev-session=false');
  // Inspector on a free port too, so parallel runs do not collide.
  args.push('--inspector-port', String(await freePort()));
  for (const [name, value] of Object.entries(options.bindings ?? {})) args.push('--binding', `${name}=${value}`);
  for (const [name, id] of Object.entries(options.d1 ?? {})) args.push('--d1', `${name}=${id}`);
  if (options.persistTo) args.push('--persist-to', options.persistTo);
  const wrangler = HostProcess.start(WRANGLER, args, { cwd: options.cwd, env: offlineWranglerEnv() });
  const url = `http://127.0.0.1:${port}`;
  await wrangler.waitUntilAnswering(`${url}/`, 90_000);
  return { url, process: wrangler, close: () => wrangler.stop() };
}

/**
 * `wrangler dev -c CONFIG --test-scheduled`: a Worker in workerd on 127.0.0.1, its cron handler
 * run by a GET of `/__scheduled`. Vars become its env; D1 is kept under `persistTo`.
 */
export async function startWorkerDev(options: {
  cwd: string;
  config: string;
  persistTo: string;
  vars?: Record<string, string>;
}) {
  const port = await freePort();
  const args = [
    'dev',
    '-c',
    options.config,
    '--test-scheduled',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    options.persistTo,
  ];
  args.push('--inspector-port', String(await freePort()), '--show-interactive-dev-session=false');
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push('--var', `${name}:${value}`);
  const wrangler = HostProcess.start(WRANGLER, args, { cwd: options.cwd, env: offlineWranglerEnv() });
  const url = `http://127.0.0.1:${port}`;
  await wrangler.waitUntilAnswering(`${url}/`, 90_000);
  return {
    url,
    process: wrangler,
    /** Runs the Worker's scheduled handler once and waits for it (its waitUntil included). */
    async scheduled(): Promise<void> {
      const response = await fetch(`${url}/__scheduled?cron=*+*+*+*+*`, { signal: AbortSignal.timeout(60_000) });
      await response.text();
      if (!response.ok)
        throw new Error(`the scheduled run answered ${response.status}:\n${wrangler.output.slice(-2000)}`);
    },
    close: () => wrangler.stop(),
  };
}

/** `wrangler d1 migrations apply DATABASE --local`: the migrations of CONFIG's database, into `persistTo`. */
export function applyD1Migrations(options: {
  cwd: string;
  config: string;
  database: string;
  persistTo: string;
}): string {
  return execFileSync(
    WRANGLER,
    ['d1', 'migrations', 'apply', options.database, '--local', '--persist-to', options.persistTo, '-c', options.config],
    {
      cwd: options.cwd,
      env: offlineWranglerEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
}

/** The database id the tests give the contact inbox's local D1. */
export const LOCAL_D1_ID = '00000000-0000-4000-8000-000000000039';

/**
 * The contact inbox's local D1 in `dir`, set up as docs/deploy-cloudflare-pages.md says: the
 * companion Worker's shipped wrangler.toml (its paths made absolute, a local database id) written
 * to `dir/sweeper/wrangler.toml`, and its migrations applied with `wrangler d1 migrations apply
 * --local` into `dir/state`. Returns where things are, and the SQLite file miniflare keeps it in.
 */
export async function localContactD1(dir: string) {
  const shipped = await readFile(path.join(repoRoot, 'workers', 'contact-sweeper', 'wrangler.toml'), 'utf8');
  const config = shipped
    .replace(/^main = ".*"$/m, `main = "${path.join(repoRoot, 'workers', 'contact-sweeper', 'index.ts')}"`)
    .replace(/^migrations_dir = ".*"$/m, `migrations_dir = "${path.join(repoRoot, 'src', 'inbox', 'migrations')}"`)
    .replace(/^database_id = ".*"$/m, `database_id = "${LOCAL_D1_ID}"`);
  if (!config.includes(LOCAL_D1_ID) || !config.includes(repoRoot))
    throw new Error(
      `workers/contact-sweeper/wrangler.toml no longer has main, database_id and migrations_dir lines:\n${shipped}`,
    );
  await mkdir(path.join(dir, 'sweeper'), { recursive: true });
  await writeFile(path.join(dir, 'sweeper', 'wrangler.toml'), config);
  const state = path.join(dir, 'state');
  const applied = applyD1Migrations({
    cwd: dir,
    config: 'sweeper/wrangler.toml',
    database: 'contact-inbox',
    persistTo: state,
  });
  const folder = path.join(state, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = (await readdir(folder)).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (!file) throw new Error(`wrangler d1 migrations apply made no database in ${folder}:\n${applied}`);
  return { config: 'sweeper/wrangler.toml', state, id: LOCAL_D1_ID, applied, dbFile: path.join(folder, file) };
}
