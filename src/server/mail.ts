import nodemailer from 'nodemailer';
import { escapeControlCharacters as oneLine, escapeControlCharactersKeepingLines } from './control-characters.ts';
import { deliveryIdOf, type MessageSender, type StoredMessage } from './message.ts';

export type MailSender = MessageSender;

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
  /** How the form's messages are presented by mail. */
  presentation?: MailPresentation;
}

/** Set by the site for its form: the start of each mail's subject and of its Message-ID. */
export interface MailPresentation {
  subjectPrefix: string;
  messageIdPrefix: string;
}

const DEFAULT_PRESENTATION: MailPresentation = { subjectPrefix: 'Form message: ', messageIdPrefix: 'message' };

/** The same for every attempt at one message, so a receiver can recognise a second copy. */
export function messageIdOf(message: Pick<StoredMessage, 'id' | 'receivedAt'>, domain: string, prefix = DEFAULT_PRESENTATION.messageIdPrefix): string {
  return `<${deliveryIdOf(message, prefix)}@${domain}>`;
}

/**
 * The e-mail staff receive for one inquiry; replying answers the visitor. The handler already
 * refuses control characters in the one-line fields; they are escaped here too, so no stored value
 * can start a forged line (a fake "From:") in the body or a header.
 */
export function composeMail(message: StoredMessage, options: Pick<SmtpOptions, 'from' | 'to' | 'domain' | 'presentation'>) {
  const presentation = options.presentation ?? DEFAULT_PRESENTATION;
  const name = oneLine(message.name);
  const email = oneLine(message.email);
  const subject = oneLine(message.subject);
  return {
    from: options.from,
    to: options.to,
    replyTo: { name, address: email },
    subject: `${presentation.subjectPrefix}${subject}`,
    messageId: messageIdOf(message, options.domain, presentation.messageIdPrefix),
    date: new Date(message.receivedAt),
    text: [
      `From: ${name} <${email}>`,
      `Received: ${oneLine(message.receivedAt)}`,
      `Subject: ${subject}`,
      '',
      escapeControlCharactersKeepingLines(message.message),
    ].join('\n'),
  };
}

/**
 * SMTP waits. The one after the message's final dot is long (RFC 5321 §4.5.3.2.6 suggests 10
 * minutes): a server that scans slowly may accept the message after we stopped waiting, and the
 * retry would then send it a second time. Shutdown does not wait for them: it abandons the send.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 600_000 } as const;

export function createSmtpSender(options: SmtpOptions): MailSender {
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
