// The bot-challenge check on the server: Cloudflare Turnstile's siteverify call, at an address that
// tests point at a stand-in on 127.0.0.1.

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

export interface VerifyResult {
  success: boolean;
  hostname?: string;
  errorCodes: string[];
}

export interface ChallengeVerifier {
  verify(token: string, clientAddress: string): Promise<VerifyResult>;
}

/** The provider could not be asked (network, time-out, 5xx): the message is not accepted. */
export class VerifierUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VerifierUnavailableError';
  }
}

export function createTurnstileVerifier(options: {
  secret: string;
  url?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): ChallengeVerifier {
  const url = options.url ?? TURNSTILE_VERIFY_URL;
  const doFetch = options.fetch ?? fetch;
  return {
    async verify(token, clientAddress) {
      const form = new URLSearchParams({ secret: options.secret, response: token });
      if (clientAddress) form.set('remoteip', clientAddress);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
      } catch (error) {
        throw new VerifierUnavailableError(`siteverify could not be reached: ${(error as Error).message}`, {
          cause: error,
        });
      }
      if (response.status >= 500) throw new VerifierUnavailableError(`siteverify answered ${response.status}`);
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        throw new VerifierUnavailableError('siteverify answered with something other than JSON', { cause: error });
      }
      return readVerifyAnswer(body, response.status);
    },
  };
}

/** siteverify's answer, or VerifierUnavailableError when it is not one (null, an array, no `success`). */
export function readVerifyAnswer(body: unknown, status: number): VerifyResult {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new VerifierUnavailableError(`siteverify answered ${status} with JSON that is not an object`);
  }
  const answer = body as { success?: unknown; hostname?: unknown; 'error-codes'?: unknown };
  if (typeof answer.success !== 'boolean')
    throw new VerifierUnavailableError(`siteverify answered ${status} without a true or false "success"`);
  return {
    success: answer.success,
    hostname: typeof answer.hostname === 'string' ? answer.hostname : undefined,
    errorCodes: Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [],
  };
}
