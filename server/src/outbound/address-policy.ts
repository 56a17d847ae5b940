// Which network addresses an outbound request may reach. Ranges come from ipaddr.js, never by hand.
import ipaddr from 'ipaddr.js';

export type AddressVerdict =
  | { allowed: true; address: string; range: string }
  | { allowed: false; address: string; range: string; why: 'range' | 'metadata' | 'invalid' };

/**
 * Cloud instance-metadata endpoints (AWS/Azure/GCP, AWS IPv6, ECS task metadata, Alibaba). They are
 * refused even when the operator's allowlist names them: credentials live there.
 */
const metadataAddresses = new Set(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200']);

/** Unspecified addresses (0.0.0.0, ::) connect to this host on Linux, so no allowlist entry reaches them. */
const neverAllowedRanges = new Set(['unspecified']);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Parses an address literal in any form a URL or resolver may produce: dotted quad, the decimal,
 * octal and hex IPv4 forms (`2130706433`, `0177.0.0.1`, `0x7f.1`), bracketed or bare IPv6. IPv4-mapped
 * IPv6 (`::ffff:a.b.c.d`) becomes the IPv4 address it carries, so it gets that address's verdict.
 */
export function parseAddress(literal: string): Address | null {
  const bare = literal.startsWith('[') && literal.endsWith(']') ? literal.slice(1, -1) : literal;
  // A zone id (fe80::1%eth0) only ever names a link-local address; it is refused with its address.
  const unzoned = bare.replace(/%.*$/, '');
  if (!ipaddr.isValid(unzoned)) return null;
  try {
    return ipaddr.process(unzoned);
  } catch {
    return null;
  }
}

/** The range of an address, with IPv4-compatible IPv6 (`::a.b.c.d`, deprecated) named apart. */
function rangeOf(address: Address): string {
  const range = address.range();
  if (address.kind() === 'ipv6' && range === 'unicast') {
    const parts = (address as ipaddr.IPv6).parts;
    // ::/96 with a non-zero tail is the IPv4-compatible form; ipaddr.js calls it unicast.
    if (parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
  }
  return range;
}

/**
 * The verdict for one address on its own, before any allowlist: only global unicast passes. Every
 * other range ipaddr.js knows (private, loopback, linkLocal, uniqueLocal, carrierGradeNat, multicast,
 * broadcast, reserved, unspecified, 6to4, teredo, NAT64 …) is refused, which also covers the IPv6
 * forms that embed an IPv4 address.
 */
export function classifyAddress(literal: string): AddressVerdict {
  const parsed = parseAddress(literal);
  if (!parsed) return { allowed: false, address: literal, range: 'invalid', why: 'invalid' };
  const address = parsed.toString();
  const range = rangeOf(parsed);
  if (metadataAddresses.has(address)) return { allowed: false, address, range, why: 'metadata' };
  if (range !== 'unicast') return { allowed: false, address, range, why: 'range' };
  return { allowed: true, address, range };
}

/** The operator's allowlist: host names, addresses and CIDR ranges (`10.0.0.0/8`, `fd12::/16`). */
export interface Allowlist {
  hostNames: ReadonlySet<string>;
  ranges: ReadonlyArray<[Address, number]>;
}

export function parseAllowlist(entries: readonly string[]): Allowlist {
  const hostNames = new Set<string>();
  const ranges: Array<[Address, number]> = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(entry); // throws on a malformed range: a config error
      // Addresses are compared after ipaddr.process(), so a mapped range is kept in its IPv4 form.
      const mapped = address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();
      ranges.push(mapped ? [(address as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] : [address, bits]);
      continue;
    }
    const address = parseAddress(entry);
    if (address) ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    else hostNames.add(normalizeHostName(entry));
  }
  return { hostNames, ranges };
}

/** Lower case without the trailing dot, so `API.example.com.` and `api.example.com` match. */
export function normalizeHostName(hostName: string): string {
  return hostName.toLowerCase().replace(/\.$/, '');
}

/**
 * The verdict for an address that `hostName` resolved to (or that the URL named literally). The
 * allowlist can open any range by address or by host name, but never metadata or unspecified addresses.
 */
export function checkAddress(literal: string, hostName: string, allowlist: Allowlist): AddressVerdict {
  const verdict = classifyAddress(literal);
  if (verdict.allowed || verdict.why !== 'range' || neverAllowedRanges.has(verdict.range)) return verdict;
  const parsed = parseAddress(literal)!;
  const listed =
    allowlist.hostNames.has(normalizeHostName(hostName)) ||
    allowlist.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  return listed ? { allowed: true, address: verdict.address, range: verdict.range } : verdict;
}
