// What a form inbox holds: a message someone sent through a site's form, in the shape of an
// e-mail (who, where to reply, subject, text), so it can be stored, listed and mailed on.

export interface FormMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface NewFormMessage extends FormMessage {
  receivedAt: string;
  clientAddress: string;
}

export interface StoredMessage extends NewFormMessage {
  id: number;
  deliveredAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** Where accepted messages go before an API route answers: they must survive a crash from then on. */
export interface Inbox {
  add(message: NewFormMessage): Promise<number> | number;
}

/** Hands one stored message on (mail, a webhook); throws when it was not taken. */
export interface MessageSender {
  send(message: StoredMessage): Promise<void>;
  close?(): void;
}

/**
 * A message's id for receivers: the same on every attempt and for a resend stored as the same
 * row, so a receiver can drop a second copy. The Message-ID of mail and the `Idempotency-Key` of
 * webhooks are made from it.
 */
export function deliveryIdOf(message: Pick<StoredMessage, 'id' | 'receivedAt'>, prefix: string): string {
  return `${prefix}-${message.id}-${Date.parse(message.receivedAt)}`;
}
