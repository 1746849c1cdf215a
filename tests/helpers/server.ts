import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../../src/server/preview.ts';
import { headersFor, loadHeadersFile } from '../../src/server/headers-file.ts';
import { createStaticHandler } from '../../src/server/static-server.ts';

export type Route = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a built site on 127.0.0.1 the way `preview` does (its `_headers` included), with extra routes tried first. */
export async function serveSite(dir: string, routes: Route[] = []): Promise<TestServer> {
  const rules = loadHeadersFile(dir);
  const serveStatic = createStaticHandler(dir, { compress: true, headers: (urlPath) => headersFor(rules, urlPath) });
  const server = createServer(async (request, response) => {
    for (const route of routes) if (await route(request, response)) return;
    await serveStatic(request, response);
  });
  const url = await listen(server, 0, '127.0.0.1');
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
