/** At most `limit` requests per client in any `windowMs`: a sliding window kept in memory. */
export interface RateLimiter {
  take(client: string, now: number): { allowed: true } | { allowed: false; retryAfterMs: number };
}

export function createRateLimiter(options: { limit: number; windowMs: number; maxClients?: number }): RateLimiter {
  const hits = new Map<string, number[]>();
  const maxClients = options.maxClients ?? 50_000;
  return {
    take(client, now) {
      const recent = (hits.get(client) ?? []).filter((time) => now - time < options.windowMs);
      if (recent.length >= options.limit) {
        hits.set(client, recent);
        return { allowed: false, retryAfterMs: options.windowMs - (now - recent[0]!) };
      }
      recent.push(now);
      // Refresh the client's place in insertion order; forget the longest-idle clients past the cap.
      hits.delete(client);
      hits.set(client, recent);
      if (hits.size > maxClients) hits.delete(hits.keys().next().value!);
      return { allowed: true };
    },
  };
}
