// The mail staff receive for a form message, without a way to send it: `ssg serve` sends it by
// SMTP (mail.ts), the edge by an HTTP mail API (mail-api-sender.ts). Nothing here may import Node.
import { escapeControlCharacters as oneLine, escapeControlCharactersKeepingLines } from '../base/control-characters.ts';
import { deliveryIdOf, type StoredMessage } from './message.ts';

/** Who sends and receives the form's mail. */
export interface MailAddressing {
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
function messageIdOf(
  message: Pick<StoredMessage, 'id' | 'receivedAt'>,
  domain: string,
  prefix = DEFAULT_PRESENTATION.messageIdPrefix,
): string {
  return `<${deliveryIdOf(message, prefix)}@${domain}>`;
}

/**
 * The e-mail staff receive for one inquiry; replying answers the visitor. The handler already
 * refuses control characters in the one-line fields; they are escaped here too, so no stored value
 * can start a forged line (a fake "From:") in the body or a header.
 */
export function composeMail(message: StoredMessage, options: MailAddressing) {
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
