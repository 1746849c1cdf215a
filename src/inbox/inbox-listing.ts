import { escapeControlCharacters } from '../base/control-characters.ts';
import type { StoredMessage } from './message.ts';

/**
 * One line per message for `inbox list`. Every field comes from a visitor (or from the mail
 * server's error), so each is escaped: no escape sequence reaches the terminal and no field can
 * start what looks like another message's line.
 */
export function formatInboxLine(message: StoredMessage): string {
  const safe = escapeControlCharacters;
  const state = message.deliveredAt
    ? `delivered ${safe(message.deliveredAt)}`
    : `not delivered (${message.attempts} attempts${message.lastError ? `, last error: ${safe(message.lastError)}` : ''})`;
  return `#${message.id}  ${safe(message.receivedAt)}  ${safe(message.name)} <${safe(message.email)}>  "${safe(message.subject)}"  ${state}`;
}
