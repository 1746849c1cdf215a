import { useEffect, useRef, useState, type FormEvent } from 'react';
import { island } from 'ssg';
import { DEFAULT_LOCALE } from '../locales.ts';

/** How often the form looks for the challenge provider's script until it is ready. */
export const CHALLENGE_POLL_MS = 150;
/** How long the form waits for a script that loaded but never offered its API. */
export const CHALLENGE_GIVE_UP_MS = 30_000;

/**
 * What the form says, in the page's language (content/strings, contact.form): its labels, its
 * button in each state, and its messages. The e-mail address goes between `blockedBefore` and
 * `blockedAfter` when the spam check cannot load.
 */
export interface ContactWords {
  name: string;
  email: string;
  subject: string;
  message: string;
  send: string;
  sending: string;
  verificationFailed: string;
  requestFailed: string;
  success: string;
  blockedBefore: string;
  blockedAfter: string;
}

type Status = 'idle' | 'submitting' | 'success' | 'error';

/** The part of the provider's browser API the form uses (Cloudflare Turnstile's explicit rendering). */
interface ChallengeApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | undefined;
  reset(widgetId?: string): void;
}

declare global {
  interface Window {
    turnstile?: ChallengeApi;
  }
}

interface ContactFormProps {
  siteKey: string;
  scriptUrl: string;
  endpoint: string;
  /** Offered instead when the check cannot load. */
  email: string;
  /** The page's language: a form posted without JavaScript comes back to the explanation in it. */
  locale?: string;
  words: ContactWords;
}

/** Adds the provider's script once; `onFailed` runs when it cannot load (blocked, offline). */
function loadChallengeScript(src: string, onFailed: () => void): void {
  let script = document.querySelector<HTMLScriptElement>('script[data-challenge]');
  if (script?.dataset.challenge === 'failed') return onFailed();
  if (!script) {
    script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.defer = true;
    script.dataset.challenge = '';
    document.head.append(script);
  }
  const loaded = script;
  loaded.addEventListener('error', () => {
    loaded.dataset.challenge = 'failed';
    onFailed();
  });
}

/** Said in place of the widget when the check cannot load; the form cannot be sent then. */
function ChallengeBlocked({ email, words }: { email: string; words: ContactWords }) {
  return (
    <p className="notice notice-error challenge-blocked" role="alert">
      {words.blockedBefore} <a href={`mailto:${email}`}>{email}</a>
      {words.blockedAfter}
    </p>
  );
}

/**
 * Renders the provider's widget into `widgetRef` once its script is ready (polling for it), and
 * gives the token it hands out; `blocked` once the script cannot load or never offers its API.
 */
function useChallenge(siteKey: string, scriptUrl: string) {
  const [token, setToken] = useState('');
  const [blocked, setBlocked] = useState(false);
  const widgetRef = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | undefined>(undefined);

  useEffect(() => {
    let poll: ReturnType<typeof setInterval> | undefined;
    const giveUp = () => {
      clearInterval(poll);
      setBlocked(true);
    };
    loadChallengeScript(scriptUrl, giveUp);
    const render = () => {
      if (!window.turnstile || !widgetRef.current) return false;
      widgetId.current = window.turnstile.render(widgetRef.current, {
        sitekey: siteKey,
        callback: (value: string) => setToken(value),
        'expired-callback': () => setToken(''),
        'error-callback': () => setToken(''),
      });
      return true;
    };
    if (render()) return;
    const started = Date.now();
    poll = setInterval(() => {
      if (render()) clearInterval(poll);
      else if (Date.now() - started > CHALLENGE_GIVE_UP_MS) giveUp();
    }, CHALLENGE_POLL_MS);
    return () => clearInterval(poll);
  }, [siteKey, scriptUrl]);

  /** A token is good for one submission: the widget is asked for a new one. */
  const reset = () => {
    setToken('');
    window.turnstile?.reset(widgetId.current);
  };
  return { token, blocked, widgetRef, reset };
}

function Fields({ words }: { words: ContactWords }) {
  return (
    <>
      <div className="field-row">
        <div className="field">
          <label htmlFor="contact-name">{words.name}</label>
          <input id="contact-name" name="name" type="text" autoComplete="name" required />
        </div>
        <div className="field">
          <label htmlFor="contact-email">{words.email}</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" required />
        </div>
      </div>
      <div className="field">
        <label htmlFor="contact-subject">{words.subject}</label>
        <input id="contact-subject" name="subject" type="text" required />
      </div>
      <div className="field">
        <label htmlFor="contact-message">{words.message}</label>
        <textarea id="contact-message" name="message" rows={6} required />
      </div>
    </>
  );
}

function FormStatus({ status, error, success }: { status: Status; error: string | null; success: string }) {
  return (
    <div className="form-status" aria-live="polite">
      {status === 'success' && (
        <p className="notice notice-success" role="status">
          {success}
        </p>
      )}
      {status === 'error' && error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function ContactForm({ siteKey, scriptUrl, endpoint, email, locale, words }: ContactFormProps) {
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState<string | null>(null);
  const challenge = useChallenge(siteKey, scriptUrl);
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (challenge.blocked) return;
    setStatus('submitting');
    setError(null);
    if (!challenge.token) {
      setStatus('error');
      setError(words.verificationFailed);
      return;
    }
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: field('name'),
          email: field('email'),
          subject: field('subject'),
          message: field('message'),
          turnstileToken: challenge.token,
        }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      setStatus('success');
      formRef.current?.reset();
      challenge.reset();
    } catch {
      setStatus('error');
      setError(words.requestFailed);
    }
  }

  const submitting = status === 'submitting';
  return (
    // Without JavaScript the browser posts the form itself: never as GET (the message would land in
    // the URL), and the endpoint answers such a post with a page that explains and gives the e-mail,
    // in the language the address names (site/contact/handler.ts).
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={locale && locale !== DEFAULT_LOCALE ? `${endpoint}?lang=${encodeURIComponent(locale)}` : endpoint}
      onSubmit={submit}
      aria-busy={submitting}
    >
      <Fields words={words} />
      {challenge.blocked ? (
        <ChallengeBlocked email={email} words={words} />
      ) : (
        <div className="challenge" ref={challenge.widgetRef} />
      )}
      <div className="form-footer">
        <button type="submit" className="button" disabled={submitting || challenge.blocked}>
          {submitting ? words.sending : words.send}
        </button>
        <FormStatus status={status} error={error} success={words.success} />
      </div>
    </form>
  );
}

// Hydrated when in view: a visitor who never scrolls to the form fetches none of its code.
export default island('contact-form', ContactForm, { hydrate: 'visible' });
