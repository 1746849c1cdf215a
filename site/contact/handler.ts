// The contact endpoint on web standards: a Request in, a Response out. It runs unchanged on Node
// (ssg serve) and on Cloudflare Pages Functions (site/api/contact.ts declares it); what it talks
// to is passed in.

import {
  createRateLimiter,
  hasControlCharacters,
  readBodyLimited,
  type FormMessage,
  type Inbox,
  type RateDecision,
  type RateLimiter,
} from 'ssg/server';
import { VerifierUnavailableError, type ChallengeVerifier } from './turnstile.ts';

export const MAX_BODY_BYTES = 32 * 1024;
/** Room for failed or expired challenges and verifier outages before a visitor's checks are limited. */
export const VERIFICATIONS_PER_MESSAGE = 4;
export const LIMITS = { name: 200, subject: 200, email: 254, message: 5000, turnstileToken: 2048 } as const;

export type ContactMessage = FormMessage;
export type { Inbox, StoredMessage } from 'ssg/server';

export interface ContactHandlerOptions {
  verifier: ChallengeVerifier;
  inbox: Inbox;
  /** Messages per client: counts only those that passed every check, so junk never uses a visitor's slots. */
  rateLimiter: RateLimiter;
  /**
   * Calls to the verifier per client, whatever their outcome, so well-formed junk cannot make the
   * server call it without limit. Defaults to VERIFICATIONS_PER_MESSAGE times the message limit.
   */
  verificationLimiter?: RateLimiter;
  /** Origins allowed to post, for example `https://example.com`. */
  allowedOrigins: readonly string[];
  /** The hostname the challenge must have been solved on; undefined skips the check. */
  expectedHostname?: string;
  /** Called after a message is stored, for example to start delivery. */
  onAccepted?: (id: number) => void;
  now?: () => Date;
}

export type ContactErrorCode =
  | 'method_not_allowed'
  | 'origin_not_allowed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_field'
  | 'rate_limited'
  | 'verification_failed'
  | 'verifier_unavailable'
  | 'storage_failed';

function json(status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

function fail(
  status: number,
  error: ContactErrorCode,
  extra: object = {},
  headers: Record<string, string> = {},
): Response {
  return json(status, { ok: false, error, ...extra }, headers);
}

function rateLimited(decision: RateDecision & { allowed: false }): Response {
  return fail(429, 'rate_limited', {}, { 'Retry-After': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))) });
}

// Practical, not RFC 5322 in full: one @, no spaces, a dot in the domain, no leading or trailing dot.
const EMAIL =
  /^[^\s@"<>()[\],;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

// Shown on one line in the mail and in `inbox list`: a line break there could forge another line.
const ONE_LINE_FIELDS = new Set(['name', 'subject', 'email']);

/** The first field that is missing, not a string, empty or too long; undefined when all are fine. */
export function invalidField(body: unknown): { field: string; reason: string } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { field: '(body)', reason: 'must be a JSON object' };
  const record = body as Record<string, unknown>;
  for (const [field, max] of Object.entries(LIMITS)) {
    const value = record[field];
    if (typeof value !== 'string') return { field, reason: 'must be a string' };
    if (value.trim() === '') return { field, reason: 'must not be empty' };
    if ([...value].length > max) return { field, reason: `must be at most ${max} characters` };
    if (ONE_LINE_FIELDS.has(field) && hasControlCharacters(value))
      return { field, reason: 'must not contain control characters or line breaks' };
  }
  if (!EMAIL.test(record.email as string)) return { field: 'email', reason: 'must be an e-mail address' };
  return undefined;
}

/**
 * Where a form posted by the browser itself (no JavaScript, so no challenge token) is sent: a
 * page the site builds that explains the check needs JavaScript and gives the e-mail address.
 */
export const FORM_POST_PAGE = '/contact/no-script';

/**
 * The same page in each language of the site (site/locales.ts), by the language the form's address
 * names (`?lang=de`, set by the German page's form). A fixed list: what a request says only picks
 * one of these paths, so the answer never leads off the site. Written out here, as the contact code
 * runs on its own at the edge and in `ssg serve`.
 */
export const FORM_POST_PAGES: ReadonlyMap<string, string> = new Map([
  ['en', FORM_POST_PAGE],
  ['de', `/de${FORM_POST_PAGE}`],
]);

/** Where a browser's own form post is sent: the page in the form's language, else English. */
export function formPostPage(requestUrl: string): string {
  let lang: string | null = null;
  try {
    lang = new URL(requestUrl).searchParams.get('lang');
  } catch {
    // A relative or broken URL names no language.
  }
  return (lang !== null && FORM_POST_PAGES.get(lang)) || FORM_POST_PAGE;
}

/** The encodings a browser uses to post a form without a script. */
export function isBrowserFormPost(contentType: string): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(contentType.trim());
}

/**
 * Answers a form the browser posted by itself. It cannot carry a solved challenge, so nothing of
 * it is read or stored; a 303 sends the visitor to the explanation with a GET, keeping what they
 * typed out of URLs, the history and logs.
 */
async function answerBrowserFormPost(request: Request): Promise<Response> {
  await request.body?.cancel().catch(() => undefined);
  return new Response(null, {
    status: 303,
    headers: { Location: formPostPage(request.url), 'Cache-Control': 'no-store' },
  });
}

export function createContactHandler(options: ContactHandlerOptions) {
  const now = options.now ?? (() => new Date());
  const allowed = new Set(options.allowedOrigins.map((origin) => origin.replace(/\/$/, '')));
  const messages = options.rateLimiter;
  const verifications =
    options.verificationLimiter ??
    createRateLimiter({ limit: messages.limit * VERIFICATIONS_PER_MESSAGE, windowMs: messages.windowMs });

  return async function handleContact(request: Request, clientAddress: string): Promise<Response> {
    if (request.method !== 'POST') return fail(405, 'method_not_allowed', {}, { Allow: 'POST' });
    if (isBrowserFormPost(request.headers.get('content-type') ?? '')) return answerBrowserFormPost(request);

    // Browsers send Origin with every POST; anything else, or another site, is refused.
    const origin = request.headers.get('origin');
    if (!origin || !allowed.has(origin)) return fail(403, 'origin_not_allowed');

    const contentType = request.headers.get('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) return fail(415, 'unsupported_media_type');

    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > MAX_BODY_BYTES) return fail(413, 'payload_too_large');

    // A client whose slots are used up is told so before anything costs more (body, verifier);
    // this only looks, it counts nothing.
    const room = messages.check(clientAddress, now().getTime());
    if (!room.allowed) return rateLimited(room);

    const text = await readBodyLimited(request, MAX_BODY_BYTES);
    if (text === undefined) return fail(413, 'payload_too_large');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(400, 'invalid_json');
    }
    const problem = invalidField(body);
    if (problem) return fail(400, 'invalid_field', problem);
    const fields = body as ContactMessage & { turnstileToken: string };

    const verification = verifications.take(clientAddress, now().getTime());
    if (!verification.allowed) return rateLimited(verification);
    try {
      const result = await options.verifier.verify(fields.turnstileToken, clientAddress);
      if (!result.success) return fail(403, 'verification_failed', { codes: result.errorCodes });
      if (options.expectedHostname && result.hostname !== options.expectedHostname) {
        return fail(403, 'verification_failed', { codes: ['hostname-mismatch'] });
      }
    } catch (error) {
      if (error instanceof VerifierUnavailableError)
        return fail(503, 'verifier_unavailable', {}, { 'Retry-After': '30' });
      throw error;
    }
    // Reserved only now: the message is well-formed and verified, so it could be stored. The slot
    // is given back when storing fails: a failure of ours never uses up the visitor's room.
    const takenAt = now().getTime();
    const slot = messages.take(clientAddress, takenAt);
    if (!slot.allowed) return rateLimited(slot);

    let id: number;
    try {
      id = await options.inbox.add({
        name: fields.name.trim(),
        email: fields.email.trim(),
        subject: fields.subject.trim(),
        message: fields.message,
        receivedAt: new Date(takenAt).toISOString(),
        clientAddress,
      });
    } catch (error) {
      messages.release(clientAddress, takenAt);
      console.error('contact: the message could not be stored', error);
      return fail(503, 'storage_failed', {}, { 'Retry-After': '30' });
    }
    options.onAccepted?.(id);
    return json(200, { ok: true });
  };
}

export type ContactHandler = ReturnType<typeof createContactHandler>;
