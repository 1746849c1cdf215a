import { useEffect, useRef, useState, type FormEvent } from 'react';
import { island } from 'ssg';

/** How often the form looks for the challenge provider's script until it is ready. */
export const CHALLENGE_POLL_MS = 150;

export const messages = {
  verificationFailed: 'Verification failed. Please complete the check.',
  requestFailed: 'Something went wrong. Please try again later.',
  success: 'Thanks! We received your message.',
} as const;

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
}

function loadChallengeScript(src: string): void {
  if (document.querySelector(`script[data-challenge]`)) return;
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  script.defer = true;
  script.dataset.challenge = '';
  document.head.append(script);
}

function ContactForm({ siteKey, scriptUrl, endpoint }: ContactFormProps) {
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const widgetRef = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | undefined>(undefined);

  useEffect(() => {
    loadChallengeScript(scriptUrl);
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
    const poll = setInterval(() => render() && clearInterval(poll), CHALLENGE_POLL_MS);
    return () => clearInterval(poll);
  }, [siteKey, scriptUrl]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus('submitting');
    setError(null);
    if (!token) {
      setStatus('error');
      setError(messages.verificationFailed);
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
          turnstileToken: token,
        }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      setStatus('success');
      formRef.current?.reset();
      setToken('');
      window.turnstile?.reset(widgetId.current);
    } catch {
      setStatus('error');
      setError(messages.requestFailed);
    }
  }

  const submitting = status === 'submitting';
  return (
    <form ref={formRef} className="contact-form" onSubmit={submit} aria-busy={submitting}>
      <div className="field-row">
        <div className="field">
          <label htmlFor="contact-name">Name</label>
          <input id="contact-name" name="name" type="text" autoComplete="name" required />
        </div>
        <div className="field">
          <label htmlFor="contact-email">E-mail</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" required />
        </div>
      </div>
      <div className="field">
        <label htmlFor="contact-subject">Subject</label>
        <input id="contact-subject" name="subject" type="text" required />
      </div>
      <div className="field">
        <label htmlFor="contact-message">Message</label>
        <textarea id="contact-message" name="message" rows={6} required />
      </div>
      <div className="challenge" ref={widgetRef} />
      <div className="form-footer">
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? 'Sending…' : 'Send message'}
        </button>
        <div className="form-status" aria-live="polite">
          {status === 'success' && (
            <p className="notice notice-success" role="status">
              {messages.success}
            </p>
          )}
          {status === 'error' && error && (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </div>
    </form>
  );
}

export default island('contact-form', ContactForm, { hydrate: 'load' });
