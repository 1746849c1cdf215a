// Per-client sliding windows kept in memory. Runs on Node and in a Pages Function, so address
// parsing uses ipaddr.js rather than node:net.
import ipaddr from 'ipaddr.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** At most `limit` counted requests per client in any `windowMs`. */
export interface RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Whether the client may have one more, without counting it. */
  check(clientAddress: string, now: number): RateDecision;
  /** Counts one for the client when allowed. */
  take(clientAddress: string, now: number): RateDecision;
  /**
   * Gives back the one `take` counted at `takenAt`, when what it was taken for did not happen (the
   * message could not be stored): a failure of the server never uses up a client's room.
   */
  release(clientAddress: string, takenAt: number): void;
  /** How many clients are remembered (the memory bound is on this and on `stored`). */
  readonly size: number;
  /** How many request times are remembered over all clients. */
  readonly stored: number;
}

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  /** Most clients remembered at once; the longest idle are forgotten first. */
  maxClients?: number;
  /** Most request times remembered over all clients (bounds memory when `limit` is large). */
  maxStored?: number;
}

/** Longest key kept for a client address that is not an IP address (it is cut to this). */
export const MAX_OTHER_KEY_LENGTH = 64;

/**
 * The key a client is counted under: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64, since
 * one subscriber usually holds a whole /64 and could otherwise rotate addresses at will.
 * Anything else (no address known) is cut to a bounded length.
 */
export function rateLimitKey(clientAddress: string): string {
  const address = clientAddress.trim();
  // Four-part decimal only: ipaddr.js would also read "1" or "0x7f.1" as IPv4 addresses.
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).toString();
  if (ipaddr.IPv6.isValid(address)) {
    const ip = ipaddr.IPv6.parse(address);
    if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
    const prefix = new ipaddr.IPv6([...ip.parts.slice(0, 4), 0, 0, 0, 0]);
    return `${prefix.toString()}/64`;
  }
  return `other:${address.slice(0, MAX_OTHER_KEY_LENGTH)}`;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs } = options;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`rate limit must be a whole number of at least 1, not ${limit}`);
  if (!Number.isFinite(windowMs) || windowMs < 0)
    throw new RangeError(`rate-limit window must be a number of milliseconds, not ${windowMs}`);
  const maxClients = options.maxClients ?? 50_000;
  const maxStored = Math.max(limit, options.maxStored ?? 500_000);
  // Insertion order is the order of each client's latest counted request: the front is the longest idle.
  const hits = new Map<string, number[]>();
  let stored = 0;

  const recentOf = (key: string, now: number): number[] => {
    const times = hits.get(key);
    if (!times) return [];
    const firstRecent = times.findIndex((time) => now - time < windowMs);
    const recent = firstRecent === -1 ? [] : times.slice(firstRecent);
    stored -= times.length - recent.length;
    if (recent.length === 0) hits.delete(key);
    else hits.set(key, recent);
    return recent;
  };

  const decide = (recent: number[], now: number): RateDecision =>
    recent.length < limit
      ? { allowed: true }
      : { allowed: false, retryAfterMs: Math.max(0, windowMs - (now - recent[0]!)) };

  const forget = (key: string) => {
    stored -= hits.get(key)?.length ?? 0;
    hits.delete(key);
  };

  /** Drops clients idle for a whole window, then the longest idle while over a bound. */
  const prune = (now: number) => {
    for (const [key, times] of hits) {
      const idle = now - times[times.length - 1]! >= windowMs;
      if (!idle && hits.size <= maxClients && stored <= maxStored) break;
      forget(key);
    }
  };

  return {
    limit,
    windowMs,
    get size() {
      return hits.size;
    },
    get stored() {
      return stored;
    },
    check(clientAddress, now) {
      return decide(recentOf(rateLimitKey(clientAddress), now), now);
    },
    take(clientAddress, now) {
      const key = rateLimitKey(clientAddress);
      const recent = recentOf(key, now);
      const decision = decide(recent, now);
      if (!decision.allowed) return decision;
      // Move the client to the back of the order: it is now the most recently active.
      hits.delete(key);
      hits.set(key, [...recent, now]);
      stored += 1;
      prune(now);
      return decision;
    },
    release(clientAddress, takenAt) {
      const key = rateLimitKey(clientAddress);
      const times = hits.get(key);
      const index = times?.lastIndexOf(takenAt) ?? -1;
      if (!times || index === -1) return;
      const rest = times.filter((_, at) => at !== index);
      stored -= 1;
      if (rest.length === 0) hits.delete(key);
      else hits.set(key, rest);
    },
  };
}
