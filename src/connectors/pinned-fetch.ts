import { isIP } from 'node:net';
import type { CheckedAddress } from './source-address';

/**
 * Requests a URL from the address the policy checked for it, never from a second DNS answer: a name
 * that resolves to a public address when checked and to the service's own network a moment later (DNS
 * rebinding) still reaches only what was checked. The request keeps its name where the server sees it:
 * the Host header, and TLS's server name, against which the certificate is verified.
 */
export function pinnedFetch(url: URL, checked: CheckedAddress, init: RequestInit): Promise<Response> {
  const target = new URL(url);
  target.hostname = checked.address.includes(':') ? `[${checked.address}]` : checked.address;
  const headers = new Headers(init.headers);
  headers.set('host', url.host);
  const name = url.hostname.replace(/^\[|\]$/g, '');
  return fetch(target, { ...init, headers, ...(isIP(name) ? {} : { tls: { serverName: name } }) });
}
