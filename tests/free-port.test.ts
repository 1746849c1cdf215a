// freePort picks a port for a server told it before it starts: one the kernel cannot hand to
// another process in the meantime (the race that once left workerd without its port).
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, unassignedPorts } from './helpers/stand-ins.ts';

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('freePort', () => {
  it('gives free ports out of the range listen(0) draws from, a new one each time', async () => {
    const [low, high] = unassignedPorts();
    const given = [];
    for (let index = 0; index < 5; index++) given.push(await freePort());
    expect(new Set(given).size).toBe(5);
    for (const port of given) {
      expect(port).toBeGreaterThanOrEqual(low);
      expect(port).toBeLessThan(high);
      const server = createServer();
      expect(await listen(server, port)).toBe(port);
      await close(server);
    }
    // What the kernel hands out while a server starts is never one of them.
    for (let index = 0; index < 200; index++) {
      const server = createServer();
      const drawn = await listen(server, 0);
      await close(server);
      expect(drawn < low || drawn >= high, `listen(0) drew ${drawn}`).toBe(true);
    }
  });

  it('passes over a port another server holds', async () => {
    const held = createServer();
    const port = await freePort();
    await listen(held, port + 1 < unassignedPorts()[1] ? port + 1 : unassignedPorts()[0]);
    try {
      expect(await freePort()).not.toBe((held.address() as { port: number }).port);
    } finally {
      await close(held);
    }
  });
});
