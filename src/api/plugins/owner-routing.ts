import { AppError } from '../../errors/app-error';
import { decodeIdentity, ForwardedBody, forwardHeaders, type ForwardedIdentity } from '../../cluster/forwarding';
import type { Services } from '../../runtime/services';
import type { Logger } from '../../logging/logger';
import { requestMeta } from './request-context';

/**
 * Sends a request that runs engine work to the owner of its workspace (src/cluster/README.md), or lets
 * it run here. Alone (the embedded default) it costs nothing; among replicas, a lookup in memory when
 * the workspace is owned here. A forwarded request carries the forwarding key and what the replica
 * that took it established (the caller and membership, or that a public view was counted): the owner
 * trusts that, and never forwards it again.
 */
export class OwnerRouting {
  constructor(
    private readonly cluster: Services['cluster'],
    private readonly logger: Logger,
  ) {}

  /** What the forwarding replica established, when the request was forwarded by one (the key checked in constant time). */
  trusted(request: Request): ForwardedIdentity | undefined {
    if (this.cluster.ownership.solo) return undefined;
    const meta = requestMeta(request);
    if (meta.forwarded === undefined) {
      const valid = this.cluster.forwardingKey.verify(request.headers.get(forwardHeaders.token));
      meta.forwarded = valid ? (decodeIdentity(request.headers.get(forwardHeaders.identity)) ?? {}) : null;
    }
    return meta.forwarded ?? undefined;
  }

  /**
   * Undefined: run the request here (the caller answers it; the workspace stays here until it has).
   * Otherwise the owner's answer. 503 SERVICE_UNAVAILABLE with Retry-After while the workspace moves,
   * or when its owner failed after it may have acted on the request: nothing is ever answered twice.
   */
  async route(request: Request, workspaceId: string, identity: ForwardedIdentity): Promise<Response | undefined> {
    const { ownership, forwarder } = this.cluster;
    if (ownership.solo) return undefined;
    const meta = requestMeta(request);
    const forwarded = this.trusted(request) !== undefined;
    const body = new ForwardedBody(meta.body, request.headers.get('content-length'));
    for (let attempt = 0; attempt < 2; attempt++) {
      const route = await ownership.route(workspaceId, forwarded);
      if (route.kind === 'local') {
        meta.answered = route.done;
        return undefined;
      }
      if (route.kind === 'moving') break;
      const outcome = await forwarder.forward(request, route.member, body, identity, meta.id);
      if (outcome.kind === 'answered') return outcome.response;
      if (outcome.kind === 'broken') {
        this.logger.warn('the owner of a workspace failed while answering a forwarded request', {
          workspace_id: workspaceId,
          member_id: route.member.id,
          error: outcome.error,
        });
        throw ownerLost();
      }
      // Nothing reached it: read the members again and try where the workspace is now, with the whole body.
      await ownership.unreachable(route.member);
      if (!outcome.resendable) break;
    }
    throw moving();
  }
}

function moving(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The workspace is moving to another server process', {
    hint: 'Retry in a second.',
    headers: { 'retry-after': '1' },
  });
}

function ownerLost(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The server process running this workspace stopped before it answered', {
    hint: 'Retry in a second; a write may or may not have been made (send an Idempotency-Key to retry a push safely).',
    headers: { 'retry-after': '1' },
  });
}

const routings = new WeakMap<Services['cluster'], OwnerRouting>();

/** The routing of a service's requests (one per service, whichever routes ask for it). */
export function ownerRouting(services: Pick<Services, 'cluster' | 'logger'>): OwnerRouting {
  let routing = routings.get(services.cluster);
  if (!routing) routings.set(services.cluster, (routing = new OwnerRouting(services.cluster, services.logger)));
  return routing;
}
