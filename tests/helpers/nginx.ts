import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HostProcess } from './host-process.ts';
import { repoRoot } from './project.ts';
import { freePort } from './stand-ins.ts';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The nginx block of the nginx deploy guide, as a user copies it. */
export async function guideNginxBlock(guidePath = path.join(repoRoot, 'docs', 'deploy-nginx.md')): Promise<string> {
  const guide = await readFile(guidePath, 'utf8');
  const block = /```nginx\n([\s\S]*?)\n```/.exec(guide);
  if (!block) throw new Error('docs/deploy-nginx.md has no ```nginx block.');
  return block[1]!;
}

/** Replaces `pattern` exactly once, so a guide change the tests no longer understand fails loudly. */
function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  const count = text.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;
  if (count !== 1) throw new Error(`The guide's nginx block should have one line matching ${pattern}, found ${count}.`);
  return text.replace(pattern, replacement);
}

/**
 * The guide's block, pointed at the test's site (its root and the headers file the build wrote
 * into it), port and contact server, inside a minimal main configuration: foreground, one process
 * (no user switch, so it reads the test's temp folders), pid, logs and temp files in `workDir`.
 */
export function nginxConfig(
  block: string,
  options: { root: string; port: number; apiPort: number; workDir: string },
): string {
  let server = replaceOnce(block, /^\s*listen 80;.*$/m, `  listen 127.0.0.1:${options.port};`);
  server = replaceOnce(server, /^\s*root \/srv\/site\/dist;$/m, `  root ${options.root};`);
  server = replaceOnce(
    server,
    /^(\s*include )\/srv\/site\/dist\/_headers\.nginx\.conf;$/m,
    `$1${path.join(options.root, '_headers.nginx.conf')};`,
  );
  server = replaceOnce(
    server,
    /proxy_pass http:\/\/127\.0\.0\.1:8080;/,
    `proxy_pass http://127.0.0.1:${options.apiPort};`,
  );
  const work = (name: string) => path.join(options.workDir, name);
  return [
    'daemon off;',
    'master_process off;',
    `pid ${work('nginx.pid')};`,
    `error_log ${work('error.log')} warn;`,
    'events { worker_connections 128; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${work(kind)};`),
    server,
    '}',
    '',
  ].join('\n');
}

export interface RunningNginx {
  url: string;
  process: HostProcess;
  errorLog(): Promise<string>;
  close(): Promise<void>;
}

/** Debian's nginx serving `root` with the guide's block, on 127.0.0.1 and a free port. */
export async function startNginx(options: { root: string; apiPort: number; block?: string }): Promise<RunningNginx> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is not installed at ${NGINX}; run "bash scripts/ensure-nginx.sh" (npm test does it as root).`,
    );
  }
  const workDir = await mkdtemp(path.join(tmpdir(), 'ssg-nginx-'));
  await mkdir(path.join(workDir, 'logs'));
  const port = await freePort();
  const config = nginxConfig(options.block ?? (await guideNginxBlock()), { ...options, port, workDir });
  await writeFile(path.join(workDir, 'nginx.conf'), config);
  // -e: the error log before the configuration is read (the default is under /var/log).
  const args = ['-p', workDir, '-e', path.join(workDir, 'error.log'), '-c', path.join(workDir, 'nginx.conf')];
  const test = HostProcess.start(NGINX, ['-t', ...args], { cwd: workDir, env: {} });
  await test.exited;
  if (test.child.exitCode !== 0) throw new Error(`nginx rejects the configuration:\n${test.output}\n${config}`);
  const nginx = HostProcess.start(NGINX, args, { cwd: workDir, env: {} });
  const url = `http://127.0.0.1:${port}`;
  await nginx.waitUntilAnswering(`${url}/`, 20_000);
  return {
    url,
    process: nginx,
    errorLog: () => readFile(path.join(workDir, 'error.log'), 'utf8').catch(() => ''),
    close: async () => {
      await nginx.stop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
