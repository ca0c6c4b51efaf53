import { AppError, RequestValidationError } from '../errors/app-error';
import { newSecretToken, sha256Hex } from '../crypto/secret-tokens';
import type { Queryable, Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { ChartRow } from './chart-queries';
import {
  deletePublication,
  findChartPublicationByToken,
  findPublication,
  findPublicationByToken,
  upsertPublication,
  type ChartLinkRow,
  type PublicationRow,
  type PublishedKind,
} from './publication-queries';
import { SharedReads } from './shared-reads';

/** What a chart or page record says about its public link (the token itself is shown once, when published). */
export interface PublishedState {
  published_at: string;
  expires_at: string | null;
}

export interface PublishAnswer {
  token: string;
  url: string;
  expires_at: string | null;
  published_at: string;
}

/** A chart's link as a view needs it, with the chart it opens. */
export interface ChartPublication {
  chart: ChartRow;
  /** The link's locked parameter values, as stored (JSON). */
  lockedParameters: string;
}

/** A token as the paths carry it: 32 random bytes in base64url (256 bits). */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * Public links of charts and pages. A link's token comes from the CSPRNG (256 bits) and only its
 * SHA-256 is kept, so the store never holds a working link; publishing again replaces the digest (the
 * old link is dead from that commit on), unpublishing deletes it.
 */
export class Publisher {
  /** Chart links by their token's digest: views of a link arriving together share one read (made after they arrived). */
  private readonly chartLinks: SharedReads<ChartLinkRow | undefined>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
  ) {
    this.chartLinks = new SharedReads((tokenHash) => this.store.first(findChartPublicationByToken, { token_hash: tokenHash }));
  }

  async publish(
    db: Queryable,
    target: { workspaceId: string; kind: PublishedKind; objectId: string },
    options: { expiresAt?: string; parameters: Record<string, unknown> },
  ): Promise<PublishAnswer> {
    const now = this.clock.now();
    if (options.expiresAt !== undefined && Date.parse(options.expiresAt) <= now.getTime()) {
      throw RequestValidationError.at(['body', 'expires_at'], 'The expiry must be in the future', 'value_error');
    }
    const token = newSecretToken();
    const expiresAt = options.expiresAt === undefined ? null : new Date(options.expiresAt).toISOString();
    await db.run(upsertPublication, {
      id: Bun.randomUUIDv7(),
      workspace_id: target.workspaceId,
      kind: target.kind,
      object_id: target.objectId,
      token_hash: sha256Hex(token),
      parameters: JSON.stringify(options.parameters),
      expires_at: expiresAt,
      now: now.toISOString(),
    });
    const path = target.kind === 'chart' ? 'c' : 'p';
    return { token, url: `${this.publicBaseUrl}/${path}/${token}`, expires_at: expiresAt, published_at: now.toISOString() };
  }

  async unpublish(db: Queryable, kind: PublishedKind, objectId: string): Promise<void> {
    await db.run(deletePublication, { kind, object_id: objectId });
  }

  async state(kind: PublishedKind, objectId: string): Promise<PublishedState | null> {
    const row = await this.store.first(findPublication, { kind, object_id: objectId });
    return row ? { published_at: row.published_at, expires_at: row.expires_at } : null;
  }

  /** The live publication a token opens: unknown, replaced, unpublished and expired tokens all answer 404 alike. */
  async open(kind: PublishedKind, token: string): Promise<PublicationRow> {
    const row = tokenPattern.test(token) ? await this.store.first(findPublicationByToken, { token_hash: sha256Hex(token) }) : undefined;
    if (!row || row.kind !== kind || this.expired(row)) throw linkNotFound();
    return row;
  }

  /**
   * A public chart's live link with the chart itself, read together in one indexed read made after the
   * view arrived (shared by the views that arrive with it); 404 as `open`.
   */
  async openChart(token: string): Promise<ChartPublication> {
    const found = tokenPattern.test(token) ? await this.chartLinks.current(sha256Hex(token)) : undefined;
    if (!found || found.kind !== 'chart' || this.expired(found)) throw linkNotFound();
    return { chart: found, lockedParameters: found.locked_parameters };
  }

  private expired(row: { expires_at: string | null }): boolean {
    return row.expires_at !== null && Date.parse(row.expires_at) <= this.clock.now().getTime();
  }
}

function linkNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This link does not exist, was withdrawn or has expired');
}
