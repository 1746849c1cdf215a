import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface StallingSmtp {
  port: number;
  /** Every message body received, whether or not it was answered. */
  received: string[];
  /** 'answer' accepts at once; 'stall' never answers the final dot; 'slow' answers after `delayMs`. */
  state: { mode: 'answer' | 'stall' | 'slow'; delayMs: number };
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 that can hold a message after DATA instead of accepting it. */
export async function startStallingSmtp(): Promise<StallingSmtp> {
  const received: string[] = [];
  const state: StallingSmtp['state'] = { mode: 'answer', delayMs: 0 };
  const stalled: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        received.push(raw);
        if (state.mode === 'answer') callback();
        else if (state.mode === 'slow') setTimeout(() => callback(), state.delayMs);
        else stalled.push(() => callback(new Error('closing')));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of stalled.splice(0)) release();
        server.close(() => resolve());
      }),
  };
}

export const messageIdIn = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];
