import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server sent before the connection ended. */
  received: Buffer;
  /** `HTTP/1.1 404 Not Found` or undefined when the server closed without a word. */
  statusLine?: string;
  status?: number;
  /** The connection ended (closed by either side) rather than hanging until `timeoutMs`. */
  ended: boolean;
}

export interface RawOptions {
  timeoutMs?: number;
  /**
   * Half-close this long after writing when nothing came back (the client has nothing more to
   * say). Node's server closes a half-closed connection without answering what is still pending,
   * so only for input that may be an incomplete request; default never.
   */
  endAfterMs?: number;
  /** Wait for the whole answer (the server closes: Connection: close) instead of its status line only. */
  untilClose?: boolean;
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * Sends `bytes` as they are over a fresh TCP connection to 127.0.0.1:`port` and collects what
 * comes back until its status line (or, with `untilClose`, until the connection ends); a
 * `timeoutMs` without either counts as a hang.
 */
export async function sendRaw(
  port: number,
  bytes: Uint8Array | string,
  options: RawOptions = {},
): Promise<RawExchange> {
  const socket = await openSocket(port);
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(halfClose);
      socket.destroy();
      const received = Buffer.concat(chunks);
      const statusLine = /^HTTP\/\d\.\d \d{3}[^\r\n]*/.exec(received.toString('latin1'))?.[0];
      resolve({ received, statusLine, status: statusLine ? Number(statusLine.slice(9, 12)) : undefined, ended });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 15_000);
    let halfClose: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(halfClose);
      if (!options.untilClose && /^HTTP\/\d\.\d \d{3}[^\r\n]*\r\n/.test(Buffer.concat(chunks).toString('latin1')))
        finish(true);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(bytes, () => {
      if (options.endAfterMs !== undefined && chunks.length === 0)
        halfClose = setTimeout(() => socket.end(), options.endAfterMs);
    });
  });
}

/** A GET of `path` with Connection: close, as bytes. */
export function rawGet(path: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({ Host: '127.0.0.1', Connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  return `GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The number of open file descriptors of a process (Linux). */
export async function openFileCount(pid: number): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(`/proc/${pid}/fd`)).length;
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}
