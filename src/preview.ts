import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SsgError } from './errors.ts';
import { headersFor, loadHeadersFile } from './headers-file.ts';
import { createHttpServer } from './http-server.ts';
import { createStaticHandler } from './static-server.ts';

export interface PreviewOptions {
  dir: string;
  port: number;
  host?: string;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${host}:${address.port}`;
}

/** Serves a built site on loopback as a static host would. */
export async function preview(options: PreviewOptions): Promise<RunningServer> {
  const dir = path.resolve(options.dir);
  if (!existsSync(dir)) {
    throw new SsgError('OutputFailed', `There is no built site in ${options.dir}.`, {}, { hint: 'Run "npm run build" first.' });
  }
  // The same headers a host reads from _headers (security headers, asset caching).
  const rules = loadHeadersFile(dir);
  const handler = createStaticHandler(dir, { compress: true, headers: (sitePath) => headersFor(rules, sitePath) });
  const server = createHttpServer(handler, { log: (line) => process.stderr.write(`${line}\n`) });
  const url = await listen(server, options.port, options.host ?? '127.0.0.1');
  return {
    server,
    url,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
