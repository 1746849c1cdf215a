// Which address a request came from, when proxies may stand in between: the rule of `proxy-addr`
// (Express's "trust proxy"). Walk from the socket peer leftwards through X-Forwarded-For while the
// hop is trusted; the first untrusted hop is the client. Entries left of it were written by the
// client itself and are never believed.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/** Which proxies are believed, read from a setting such as TRUST_PROXY. */
export type ProxyTrust =
  | { kind: 'none' }
  /** The nearest `hops` hops are proxies, whatever their address (1: the peer is the proxy). */
  | { kind: 'hops'; hops: number }
  /** Hops whose address is in `ranges` are proxies; with `cdnHeader`, CF-Connecting-IP from such a peer is the client. */
  | { kind: 'ranges'; ranges: string[]; cdnHeader: boolean }
  /** CF-Connecting-IP from any peer: only where the server is reachable through the CDN alone. */
  | { kind: 'cdn' };

const MAX_TRUSTED_HOPS = 16;
const CDN_HEADER = 'cf-connecting-ip';
const CDN_KEYWORD = 'cloudflare';
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads a trust setting: `false` (default), `true` (one hop, the same as `1`), a hop count, or a
 * comma-separated list of `loopback`/`linklocal`/`uniquelocal`, addresses and CIDR ranges, with
 * `cloudflare` to read CF-Connecting-IP. Throws an Error whose message says what is wrong.
 */
export function parseProxyTrust(raw: string | undefined): ProxyTrust {
  const value = (raw ?? '').trim().toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(value)) return { kind: 'none' };
  if (['true', 'yes', 'on'].includes(value)) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_TRUSTED_HOPS) throw new Error(`is "${raw}"; a hop count must be between 0 and ${MAX_TRUSTED_HOPS}`);
    return { kind: 'hops', hops };
  }
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new Error(`is "${raw}", which has an empty entry between commas`);
  const ranges = items.filter((item) => item !== CDN_KEYWORD);
  for (const item of ranges) checkRange(item, raw!);
  const cdnHeader = ranges.length < items.length;
  if (ranges.length === 0) return { kind: 'cdn' };
  return { kind: 'ranges', ranges, cdnHeader };
}

function checkRange(item: string, raw: string): void {
  if (['true', 'false', 'yes', 'no'].includes(item) || /^\d+$/.test(item)) {
    throw new Error(`is "${raw}"; true, false and hop counts stand alone, not in a list`);
  }
  if (NAMED_RANGES.includes(item)) return;
  try {
    proxyaddr.compile(item);
  } catch {
    throw new Error(
      `has "${item}", which is not ${NAMED_RANGES.join(', ')}, ${CDN_KEYWORD}, an IP address or a range such as 10.0.0.0/8`,
    );
  }
  // proxy-addr also reads "127.1" or "0x7f000001"; proxies write addresses in the usual form only.
  if (isIP(item.split('/')[0]!) === 0)
    throw new Error(`has "${item}"; write addresses in the usual form, such as 10.0.0.1`);
}

/** What proxy-addr's rule needs from a request: the peer's address and the forwarding headers. */
export interface ForwardedRequest {
  socket: { remoteAddress?: string };
  headers: Record<string, string | string[] | undefined>;
}

/** proxy-addr's trust function for a setting; addresses must be in the usual written form. */
function trustFunctionFor(trust: ProxyTrust): (address: string, hop: number) => boolean {
  if (trust.kind === 'none' || trust.kind === 'cdn') return () => false;
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  const inRanges = proxyaddr.compile(trust.ranges);
  return (address, hop) => isIP(address) !== 0 && inRanges(address, hop);
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, how a dual-stack socket reports IPv4) as plain IPv4. */
function canonicalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped && isIP(mapped[1]!) === 4 ? mapped[1]! : address;
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/**
 * The client's address under `trust`. When the hop that the rule picks is not an IP address
 * (junk in the header), the nearest trusted hop that is one stands in for it.
 */
export function resolveClientAddress(request: ForwardedRequest, trust: ProxyTrust): string {
  const peer = canonicalAddress(request.socket.remoteAddress ?? '');
  if (trust.kind === 'none') return peer;
  const trusts = trustFunctionFor(trust);
  if (trust.kind === 'cdn' || (trust.kind === 'ranges' && trust.cdnHeader && trusts(peer, 0))) {
    const reported = headerValue(request.headers[CDN_HEADER]).trim();
    if (isIP(reported) !== 0) return canonicalAddress(reported);
    if (trust.kind === 'cdn') return peer;
  }
  // Node's header size limit (16 KiB) bounds the list; the walk stops at the first untrusted hop.
  const forwardedFor = headerValue(request.headers['x-forwarded-for']);
  const hops = proxyaddr.all(
    { socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage,
    trusts,
  );
  for (let index = hops.length - 1; index > 0; index--) {
    if (isIP(hops[index]!) !== 0) return canonicalAddress(hops[index]!);
  }
  return peer;
}
