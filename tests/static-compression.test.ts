// The static handler's compression: the build's .br/.gz sibling when there is one, else the file
// compressed as it streams (pages have no sibling), never a short body taken for a whole one.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite, type TestServer } from './helpers/server.ts';

const PAGE = `<!doctype html><title>Page</title>${'<p>Some text that compresses well.</p>'.repeat(200)}`;
const STYLE = 'body { color: black; }\n'.repeat(100);

function get(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('compression in the static handler', () => {
  let root: string;
  let server: TestServer;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ssg-compress-'));
    await writeFile(path.join(root, 'index.html'), PAGE);
    await writeFile(path.join(root, 'style.css'), STYLE);
    // A sibling that differs from what compressing the file would give: proof it is the one sent.
    await writeFile(path.join(root, 'style.css.br'), brotliCompressSync(Buffer.from(`${STYLE}/* sibling */\n`)));
    server = await serveSite(root);
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('compresses a page without a sibling as it streams, brotli or gzip as the client takes them', async () => {
    const br = await get(`${server.url}/`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(PAGE);
    const gz = await get(`${server.url}/`, { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(PAGE);
    const plain = await get(`${server.url}/`, { 'Accept-Encoding': 'identity' });
    expect([plain.headers['content-encoding'], plain.body.toString()]).toEqual([undefined, PAGE]);
  });

  it("sends the build's sibling when there is one, with its length", async () => {
    const br = await get(`${server.url}/style.css`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString()).toContain('/* sibling */');
  });

  it('answers HEAD with the headers and no body, compressed or not', async () => {
    for (const target of ['/', '/style.css']) {
      const head = await get(server.url + target, { 'Accept-Encoding': 'br' }, 'HEAD');
      expect([head.status, head.headers['content-encoding'], head.body.length]).toEqual([200, 'br', 0]);
    }
  });
});
