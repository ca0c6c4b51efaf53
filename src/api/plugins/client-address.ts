import { Elysia } from 'elysia';

/**
 * The caller's network address, for throttling. Behind a reverse proxy (TRUST_PROXY=true) the first
 * X-Forwarded-For entry is the client; otherwise the socket's peer is, and the header is ignored
 * because any client can write it.
 */
export function clientAddress(trustProxy: boolean) {
  return new Elysia({ name: 'client-address' }).derive({ as: 'global' }, ({ request, server }) => {
    const forwarded = trustProxy ? request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
    return { clientAddress: forwarded || server?.requestIP(request)?.address || undefined };
  });
}
