// npm run bench:contact [-- --seconds 10 --connections 10]
// Load on `ssg serve` over loopback: valid contact submissions (checked by a siteverify stand-in
// in this process, stored durably in SQLite) and static pages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openSqliteInbox } from '../src/inbox/inbox-sqlite.ts';
import { copySite, repoRoot } from '../tests/helpers/project.ts';
import { ServeProcess } from '../tests/helpers/serve-process.ts';
import { freePort, startSiteverify } from '../tests/helpers/stand-ins.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } },
});
const duration = Number(values.seconds);
const connections = Number(values.connections);

const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'data']);
const built = await site.run(['build']);
if (built.code !== 0) throw new Error(built.stderr);
const dataDir = await mkdtemp(path.join(tmpdir(), 'ssg-bench-contact-'));
const siteverify = await startSiteverify('127.0.0.1');
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const serve = await ServeProcess.start(site.dir, {
  PORT: String(port),
  DATA_DIR: dataDir,
  SITE_ORIGIN: origin,
  TURNSTILE_SECRET_KEY: 'bench',
  TURNSTILE_VERIFY_URL: siteverify.url,
  RATE_LIMIT_MAX: '100000000',
  SMTP_HOST: '',
});

type Result = autocannon.Result;
const run = (options: autocannon.Options) =>
  new Promise<Result>((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
const row = (name: string, result: Result) =>
  `${name.padEnd(38)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx ${result.non2xx}   errors ${result.errors}`;

try {
  const body = JSON.stringify({
    name: 'Load Test',
    email: 'load@example.org',
    subject: 'Benchmark',
    message: 'x'.repeat(600),
    turnstileToken: 'pass-bench',
  });
  const contact = await run({
    url: `${origin}/api/contact`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body,
    connections,
    duration,
  });
  const home = await run({ url: `${origin}/`, connections, duration, headers: { 'Accept-Encoding': 'br' } });
  const networks = await run({ url: `${origin}/networks`, connections, duration });
  const inbox = openSqliteInbox(dataDir);
  const stored = inbox.list().length;
  inbox.close();
  console.log(
    `ssg serve on loopback, ${connections} connections, ${duration} s each (2 cores shared by server, client and stand-in)`,
  );
  console.log(row('POST /api/contact (valid, stored)', contact));
  console.log(row('GET / (brotli)', home));
  console.log(row('GET /networks (uncompressed)', networks));
  console.log(`messages stored: ${stored} (answered 200: ${contact['2xx']})`);
} finally {
  await serve.stop();
  await siteverify.close();
  await site.dispose();
  await rm(dataDir, { recursive: true, force: true });
}
