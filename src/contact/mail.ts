import nodemailer from 'nodemailer';
import type { StoredMessage } from './handler.ts';

export interface MailSender {
  send(message: StoredMessage): Promise<void>;
  close?(): void;
}

export interface SmtpOptions {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
  to: string;
  /** Used in the Message-ID, so a receiver can recognise a message sent twice. */
  domain: string;
}

/** The e-mail staff receive for one inquiry; replying answers the visitor. */
export function composeMail(message: StoredMessage, options: Pick<SmtpOptions, 'from' | 'to' | 'domain'>) {
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: message.name, address: message.email },
    subject: `Contact form: ${message.subject}`,
    messageId: `<contact-${message.id}-${Date.parse(message.receivedAt)}@${options.domain}>`,
    date: new Date(message.receivedAt),
    text: [
      `From: ${message.name} <${message.email}>`,
      `Received: ${message.receivedAt}`,
      `Subject: ${message.subject}`,
      '',
      message.message,
    ].join('\n'),
  };
}

export function createSmtpSender(options: SmtpOptions): MailSender {
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: options.user ? { user: options.user, pass: options.pass ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail(composeMail(message, options));
    },
    close: () => transport.close(),
  };
}
