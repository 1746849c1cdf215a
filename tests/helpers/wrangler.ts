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
}): Promise<RunningPagesDev> {
  const port = options.port ?? (await freePort());
  const args = ['pages', 'dev', options.dir, '--ip', '127.0.0.1', '--port', String(port)];
  // A fixed date this wrangler supports: a newer one would make it look for a newer version online.
  args.push('--compatibility-date', '2025-01-01', '--show-interactive-dev-session=false');
  // Inspector on a free port too, so parallel runs do not collide.
  args.push('--inspector-port', String(await freePort()));
  for (const [name, value] of Object.entries(options.bindings ?? {})) args.push('--binding', `${name}=${value}`);
  const wrangler = HostProcess.start(WRANGLER, args, { cwd: options.cwd, env: offlineWranglerEnv() });
  const url = `http://127.0.0.1:${port}`;
  await wrangler.waitUntilAnswering(`${url}/`, 90_000);
  return { url, process: wrangler, close: () => wrangler.stop() };
}
