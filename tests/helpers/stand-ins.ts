import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Stands in for Cloudflare's siteverify on 127.0.0.1. The token decides the answer: `expired…`,
 * `refused…` and `bad…` fail, `wrong-host…` succeeds for another host, any other succeeds for `hostname`.
 * `mode` 'down' answers 500 (the provider in trouble).
 */
export async function startSiteverify(hostname: string) {
  const requests: Array<Record<string, string>> = [];
  const state = { mode: 'up' as 'up' | 'down', delayMs: 0 };
  const server = createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    requests.push(form);
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.mode === 'down') {
      response.writeHead(500).end('upstream trouble');
      return;
    }
    const token = form.response ?? '';
    const success = !/^(expired|refused|bad)/.test(token);
    const body = success
      ? { success: true, hostname: token.startsWith('wrong-host') ? 'evil.example' : hostname, 'error-codes': [] }
      : { success: false, 'error-codes': ['timeout-or-duplicate'] };
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  const url = await listenOn(server);
  return { url: `${url}/siteverify`, requests, state, close: () => closeServer(server) };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives; it can be stopped and started again on its port. */
export async function startSmtp(port = 0) {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  const start = async (on: number) => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk) => (raw += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(on, '127.0.0.1', () => resolve());
    });
    return (server!.server.address() as AddressInfo).port;
  };
  const boundPort = await start(port);
  return {
    port: boundPort,
    received,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    restart: () => start(boundPort),
  };
}

/**
 * A server that records POSTed JSON (a webhook receiver), answering with `status` after `delayMs`
 * (a redirect status points at `/moved`, which answers any method 200 and records the request in
 * `followed`); `hang` records the message and never answers, `stall` reads nothing and never
 * answers, `reset` drops the connection.
 */
export async function startWebhook() {
  const received: Array<{ headers: Record<string, unknown>; body: unknown }> = [];
  const followed: Array<{ method: string }> = [];
  const state = { status: 200, delayMs: 0, hang: false, stall: false, reset: false };
  const server = createServer(async (request, response) => {
    // Stalled: the message never arrives (nothing read, nothing answered).
    if (state.stall) return;
    // Reset: the connection is dropped before anything is read.
    if (state.reset) {
      request.socket.destroy();
      return;
    }
    let raw = '';
    for await (const chunk of request) raw += chunk;
    if (request.url === '/moved') {
      followed.push({ method: request.method ?? '' });
      response.writeHead(200).end('ok');
      return;
    }
    received.push({ headers: request.headers, body: JSON.parse(raw || 'null') });
    if (state.hang) return;
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const redirect = state.status >= 300 && state.status < 400 ? { Location: '/moved' } : {};
    response.writeHead(state.status, { 'Content-Type': 'application/json', ...redirect }).end('{}');
  });
  const url = await listenOn(server);
  return { url: `${url}/hook`, received, followed, state, close: () => closeServer(server) };
}

/**
 * A port free on 127.0.0.1 for a server told its port before it starts (wrangler, nginx, ssg
 * serve). Not one the kernel hands out: every `listen(0)` and outgoing connection gets its port
 * from the ephemeral range (32768-60999 on Linux), so a port drawn there and let go could be given
 * to any other process while the server starts, seconds later (workerd once found its port taken
 * in a clean-clone run). Out of that range only another freePort picks: each process from a random
 * start, then the next port, every one checked free.
 */
export async function freePort(): Promise<number> {
  const [low, high] = unassignedPorts();
  nextPort ??= low + Math.floor(Math.random() * (high - low));
  for (let tried = 0; tried < 100; tried++) {
    const port: number = nextPort;
    nextPort = port + 1 >= high ? low : port + 1;
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port among 100 tried from ${low} to ${high}`);
}

let nextPort: number | undefined;

/**
 * The ports out of the kernel's ephemeral range, [low, high): below it (from 10000, above the
 * well-known ones), or above it when that is more. Linux's is 32768-60999 by default.
 */
export function unassignedPorts(): [number, number] {
  let [first, last] = [32768, 60999];
  try {
    const range = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    [first, last] = [range[0]!, range[1]!];
  } catch {
    // Not Linux: macOS's and Windows' range starts at 49152, so the ports below 32768 are out of it too.
  }
  return first - 10_000 >= 65_536 - (last + 1) ? [10_000, first] : [last + 1, 65_536];
}

function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
