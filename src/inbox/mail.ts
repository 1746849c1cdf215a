import nodemailer from 'nodemailer';
import { composeMail, type MailAddressing } from './mail-compose.ts';
import type { MessageSender } from './message.ts';

export interface SmtpOptions extends MailAddressing {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

/**
 * SMTP waits. The one after the message's final dot is long (RFC 5321 §4.5.3.2.6 suggests 10
 * minutes): a server that scans slowly may accept the message after we stopped waiting, and the
 * retry would then send it a second time. Shutdown does not wait for them: it abandons the send.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 600_000 } as const;

export function createSmtpSender(options: SmtpOptions): MessageSender {
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: options.user ? { user: options.user, pass: options.pass ?? '' } : undefined,
    ...SMTP_TIMEOUTS,
  });
  return {
    async send(message) {
      await transport.sendMail(composeMail(message, options));
    },
    close: () => transport.close(),
  };
}
