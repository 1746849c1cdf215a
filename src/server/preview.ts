import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { catalogueError } from '../errors/errors.ts';
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

/** Why a port could not be had, as an expected error; anything else is passed on. */
function listenFailure(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return catalogueError('PortInUse', [port, host], {}, { cause: error });
  if (code === 'EACCES' || code === 'EPERM')
    return catalogueError('PortNotPermitted', [port, host], {}, { cause: error });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return catalogueError('HostUnavailable', [port, host], {}, { cause: error });
  return error;
}

/** Listens on host:port; a busy or forbidden port or a foreign host is a named error. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(listenFailure(error, port, host));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
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
    throw catalogueError('SiteDirMissing', [options.dir], { file: options.dir });
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
