import type { Server } from 'bun';
import { FakeOAuthServer } from './oauth-server';

export interface HubSpotRecord {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

/** HubSpot's property types of the fake's objects (every value travels as a string). */
const propertyTypes: Record<string, string> = {
  email: 'string',
  firstname: 'string',
  name: 'string',
  amount: 'number',
  dealstage: 'enumeration',
  is_vip: 'bool',
  closedate: 'datetime',
};
const modifiedProperty = (object: string) => (object === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate');

/**
 * A local HubSpot: OAuth at `/oauth/authorize` and `/oauth/v1/token` (its answers and refusals:
 * `BAD_AUTH_CODE`, `BAD_REFRESH_TOKEN`), and the CRM v3 API the connector uses: properties of an
 * object type, objects listed with `limit`/`after`/`properties`, and the search endpoint with a
 * modification-time filter and sort. Knobs make it expire a token after the first page, answer 429
 * with Retry-After, or refuse refreshes.
 */
export class FakeHubSpot {
  readonly oauth = new FakeOAuthServer({
    granted: ({ access, refresh, lifetimeSeconds }) => ({ token_type: 'bearer', access_token: access, refresh_token: refresh, expires_in: lifetimeSeconds }),
    refused: (reason) =>
      reason === 'refresh'
        ? { status: 400, body: { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token', correlationId: crypto.randomUUID() } }
        : reason === 'code'
          ? { status: 400, body: { status: 'BAD_AUTH_CODE', message: 'missing or unknown auth code', correlationId: crypto.randomUUID() } }
          : { status: 400, body: { status: 'BAD_CLIENT_ID', message: 'missing or unknown client id', correlationId: crypto.randomUUID() } },
  });
  readonly objects = new Map<string, HubSpotRecord[]>();
  /** The token that read the first page of a listing of this object (one with more pages) stops working right after it (once). */
  expireTokenAfterFirstPageOf: string | undefined;
  /** The next this-many API requests answer 429 with `Retry-After: 1`. */
  rateLimitNext = 0;
  /** Object types the app's tokens have no scope for: their properties, listings and searches answer 403 MISSING_SCOPES. */
  readonly missingScopes = new Set<string>();
  readonly served = { pages: 0, rateLimited: 0, unauthorized: 0, searches: 0 };
  private readonly server: Server<undefined>;

  constructor() {
    this.server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => this.handle(request) });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** The service's configuration pointing at this fake. */
  env(): Record<string, string> {
    return {
      OAUTH_HUBSPOT_CLIENT_ID: this.oauth.client.id,
      OAUTH_HUBSPOT_CLIENT_SECRET: this.oauth.client.secret,
      OAUTH_HUBSPOT_AUTHORIZE_URL: `${this.origin}/oauth/authorize`,
      OAUTH_HUBSPOT_TOKEN_URL: `${this.origin}/oauth/v1/token`,
      OAUTH_HUBSPOT_API_BASE: this.origin,
    };
  }

  /** `count` records of an object type, modified a minute apart from `start`. */
  seed(object: string, count: number, start = Date.UTC(2024, 0, 1)): HubSpotRecord[] {
    const records = Array.from({ length: count }, (_, index): HubSpotRecord => {
      const at = new Date(start + index * 60_000).toISOString();
      return {
        id: String(1000 + index),
        properties: {
          email: `person${index}@example.com`,
          firstname: `Person ${index}`,
          amount: String(index * 10.5),
          is_vip: String(index % 3 === 0),
          [modifiedProperty(object)]: at,
        },
        createdAt: at,
        updatedAt: at,
        archived: false,
      };
    });
    this.objects.set(object, records);
    return records;
  }

  /** Archives a record as HubSpot's DELETE does: it leaves listings and searches, and shows in `archived=true` listings. */
  archive(object: string, id: string, at = new Date()): void {
    const record = this.objects.get(object)?.find((candidate) => candidate.id === id);
    if (!record) throw new Error(`no ${object} ${id}`);
    Object.assign(record, { archived: true, archivedAt: at.toISOString(), updatedAt: at.toISOString() });
  }

  /** Changes a record's properties now, as an edit in HubSpot does (its modification stamp moves). */
  update(object: string, id: string, properties: Record<string, string>, at = new Date()): void {
    const record = this.objects.get(object)?.find((candidate) => candidate.id === id);
    if (!record) throw new Error(`no ${object} ${id}`);
    Object.assign(record.properties, properties, { [modifiedProperty(object)]: at.toISOString() });
    record.updatedAt = at.toISOString();
  }

  stop(): void {
    void this.server.stop(true);
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/oauth/authorize' && request.method === 'GET') return this.oauth.authorize(url);
    if (url.pathname === '/oauth/v1/token' && request.method === 'POST') return this.oauth.token(request);
    const token = this.oauth.validToken(request);
    if (!token) {
      this.served.unauthorized += 1;
      return Response.json(
        { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION', correlationId: crypto.randomUUID() },
        { status: 401 },
      );
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      this.served.rateLimited += 1;
      return Response.json(
        { status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', category: 'RATE_LIMITS' },
        { status: 429, headers: { 'retry-after': '1' } },
      );
    }
    const scoped = /^\/crm\/v3\/(?:properties|objects)\/(\w+)/.exec(url.pathname)?.[1];
    if (scoped && this.missingScopes.has(scoped)) return missingScopes(scoped);
    const properties = /^\/crm\/v3\/properties\/(\w+)$/.exec(url.pathname);
    if (properties && request.method === 'GET') return this.properties(properties[1]!);
    const search = /^\/crm\/v3\/objects\/(\w+)\/search$/.exec(url.pathname);
    if (search && request.method === 'POST')
      return this.page(token, search[1]!, this.searched(search[1]!, (await request.json()) as Parameters<FakeHubSpot['searched']>[1]));
    const list = /^\/crm\/v3\/objects\/(\w+)$/.exec(url.pathname);
    if (list && request.method === 'GET') {
      const wanted = url.searchParams.get('properties')?.split(',');
      const archived = url.searchParams.get('archived') === 'true';
      const records = this.objects.get(list[1]!)?.filter((record) => record.archived === archived);
      return this.page(token, list[1]!, {
        records,
        after: Number(url.searchParams.get('after') ?? 0),
        limit: Number(url.searchParams.get('limit') ?? 10),
        wanted,
        link: url,
      });
    }
    return Response.json({ status: 'error', message: `Unable to infer object type from: ${url.pathname}`, category: 'OBJECT_NOT_FOUND' }, { status: 404 });
  }

  private properties(object: string): Response {
    if (!this.objects.has(object))
      return Response.json({ status: 'error', message: `Unable to infer object type from: ${object}`, category: 'OBJECT_NOT_FOUND' }, { status: 400 });
    const names = new Set(this.objects.get(object)!.flatMap((record) => Object.keys(record.properties)));
    return Response.json({
      results: [...names].map((name) => ({
        name,
        label: name,
        type: propertyTypes[name] ?? (name.endsWith('date') ? 'datetime' : 'string'),
        fieldType: 'text',
        groupName: 'info',
      })),
    });
  }

  searched(
    object: string,
    body: { filterGroups?: { filters?: { propertyName: string; operator: string; value: string }[] }[]; properties?: string[]; limit?: number; after?: string },
  ) {
    this.served.searches += 1;
    const filters = body.filterGroups?.[0]?.filters ?? [];
    const records = (this.objects.get(object) ?? [])
      .filter((record) => !record.archived)
      .filter((record) =>
        filters.every((filter) => {
          const value = Date.parse(record.properties[filter.propertyName] ?? '');
          const bound = Number(filter.value);
          return filter.operator === 'GT' ? value > bound : filter.operator === 'GTE' ? value >= bound : true;
        }),
      )
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    return { records, after: Number(body.after ?? 0), limit: body.limit ?? 10, wanted: body.properties };
  }

  private page(
    token: string,
    object: string,
    page: { records: HubSpotRecord[] | undefined; after: number; limit: number; wanted?: string[]; link?: URL },
  ): Response {
    if (!page.records)
      return Response.json({ status: 'error', message: `Unable to infer object type from: ${object}`, category: 'OBJECT_NOT_FOUND' }, { status: 400 });
    const limit = Math.min(100, page.limit);
    const slice = page.records.slice(page.after, page.after + limit);
    const next = page.after + limit < page.records.length ? String(page.after + limit) : undefined;
    this.served.pages += 1;
    if (this.expireTokenAfterFirstPageOf === object && page.after === 0 && limit > 1 && next) {
      this.expireTokenAfterFirstPageOf = undefined;
      this.oauth.expire(token);
    }
    const results = slice.map((record) => ({
      ...record,
      properties: Object.fromEntries(Object.entries(record.properties).filter(([name]) => !page.wanted || page.wanted.includes(name))),
    }));
    return Response.json({ results, ...(next ? { paging: { next: { after: next, link: `${this.origin}/crm/v3/objects/${object}?after=${next}` } } } : {}) });
  }
}

/** HubSpot's answer to a token without the scope an object type needs. */
function missingScopes(object: string): Response {
  return Response.json(
    {
      status: 'error',
      message:
        "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      correlationId: crypto.randomUUID(),
      errors: [
        {
          message: 'One or more of the following scopes are required.',
          context: { requiredGranularScopes: [object === 'tickets' ? 'tickets' : `crm.objects.${object}.read`] },
        },
      ],
      links: { scopes: 'https://developers.hubspot.com/scopes' },
      category: 'MISSING_SCOPES',
    },
    { status: 403 },
  );
}
