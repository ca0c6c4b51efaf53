import type { Server } from 'bun';
import { FakeOAuthServer } from './oauth-server';

export type SalesforceRecord = Record<string, unknown>;

interface Describe {
  fields: { name: string; type: string; nillable: boolean }[];
}

const apiPath = '/services/data/v59.0';

/**
 * A local Salesforce: OAuth at `/services/oauth2/authorize` and `/services/oauth2/token` (tokens come
 * with the `instance_url` to use and no expiry; refusals say `invalid_grant`), and the REST API the
 * connector uses: `sobjects/<name>/describe`, `query?q=<SOQL>` for the SOQL it writes (fields, an
 * optional `SystemModstamp >` filter, that order) with `nextRecordsUrl` paging. A session that expired
 * answers 401 `INVALID_SESSION_ID`.
 */
export class FakeSalesforce {
  readonly oauth = new FakeOAuthServer({
    granted: ({ access, refresh }) => ({
      access_token: access,
      refresh_token: refresh,
      instance_url: this.instanceUrl ?? this.origin,
      id: `${this.origin}/id/00D000000000001/005000000000001`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
      signature: 'c2lnbmF0dXJl',
      scope: 'api refresh_token',
    }),
    refused: (reason) => ({
      status: reason === 'client' ? 401 : 400,
      body:
        reason === 'client'
          ? { error: 'invalid_client', error_description: 'invalid client credentials' }
          : { error: 'invalid_grant', error_description: reason === 'refresh' ? 'expired access/refresh token' : 'authentication failure' },
    }),
  });
  readonly objects = new Map<string, { describe: Describe; records: SalesforceRecord[] }>();
  /** Where the tokens it grants say the org's API is (itself unless set). */
  instanceUrl: string | undefined;
  /** Records a query page holds (Salesforce's default is 2,000). */
  pageSize = 5;
  /** The token that read the first page of a query of this object (one with more pages) stops working right after it (once). */
  expireTokenAfterFirstPageOf: string | undefined;
  rateLimitNext = 0;
  /** sObjects this user may not see: left out of the global describe, and their describe and queries answer as for an unknown type. */
  readonly hidden = new Set<string>();
  readonly served = { pages: 0, rateLimited: 0, unauthorized: 0, queries: [] as string[] };
  private readonly cursors = new Map<string, SalesforceRecord[]>();
  private readonly server: Server<undefined>;

  constructor() {
    this.server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => this.handle(request) });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  env(): Record<string, string> {
    return {
      OAUTH_SALESFORCE_CLIENT_ID: this.oauth.client.id,
      OAUTH_SALESFORCE_CLIENT_SECRET: this.oauth.client.secret,
      OAUTH_SALESFORCE_AUTHORIZE_URL: `${this.origin}/services/oauth2/authorize`,
      OAUTH_SALESFORCE_TOKEN_URL: `${this.origin}/services/oauth2/token`,
      OAUTH_SALESFORCE_API_BASE: this.origin,
    };
  }

  /** `count` accounts (or another object), modified a minute apart. */
  seed(object: string, count: number, start = Date.UTC(2024, 0, 1)): SalesforceRecord[] {
    const stamp = (index: number) => new Date(start + index * 60_000).toISOString().replace('Z', '+0000');
    const records = Array.from({ length: count }, (_, index) => ({
      Id: `001${String(index).padStart(15, '0')}`,
      Name: `${object} ${index}`,
      AnnualRevenue: index * 1000.5,
      IsDeleted: false,
      SystemModstamp: stamp(index),
    }));
    const describe: Describe = {
      fields: [
        { name: 'Id', type: 'id', nillable: false },
        { name: 'Name', type: 'string', nillable: false },
        { name: 'AnnualRevenue', type: 'currency', nillable: true },
        { name: 'IsDeleted', type: 'boolean', nillable: false },
        { name: 'BillingAddress', type: 'address', nillable: true },
        { name: 'SystemModstamp', type: 'datetime', nillable: false },
      ],
    };
    this.objects.set(object, { describe, records });
    return records;
  }

  /** Deletes a record as Salesforce does: to the recycle bin (IsDeleted, a new SystemModstamp), seen by queryAll only. */
  delete(object: string, id: string, at = new Date()): void {
    const record = this.objects.get(object)?.records.find((candidate) => candidate.Id === id);
    if (!record) throw new Error(`no ${object} ${id}`);
    Object.assign(record, { IsDeleted: true, SystemModstamp: at.toISOString().replace('Z', '+0000') });
  }

  /** Changes a record's fields now (its SystemModstamp moves). */
  update(object: string, id: string, fields: SalesforceRecord, at = new Date()): void {
    const record = this.objects.get(object)?.records.find((candidate) => candidate.Id === id);
    if (!record) throw new Error(`no ${object} ${id}`);
    Object.assign(record, fields, { SystemModstamp: at.toISOString().replace('Z', '+0000') });
  }

  stop(): void {
    void this.server.stop(true);
  }

  private handle(request: Request): Response | Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/services/oauth2/authorize' && request.method === 'GET') return this.oauth.authorize(url);
    if (url.pathname === '/services/oauth2/token' && request.method === 'POST') return this.oauth.token(request);
    const token = this.oauth.validToken(request);
    if (!token) {
      this.served.unauthorized += 1;
      return Response.json([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }], { status: 401 });
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      this.served.rateLimited += 1;
      return Response.json([{ message: 'Too many requests', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], { status: 429, headers: { 'retry-after': '1' } });
    }
    if (url.pathname === `${apiPath}/sobjects` || url.pathname === `${apiPath}/sobjects/`) return this.globalDescribe();
    const describe = new RegExp(`^${apiPath}/sobjects/(\\w+)/describe$`).exec(url.pathname);
    if (describe) {
      const object = this.hidden.has(describe[1]!) ? undefined : this.objects.get(describe[1]!);
      return object ? Response.json({ name: describe[1], queryable: true, fields: object.describe.fields }) : notFound(describe[1]!);
    }
    if (url.pathname === `${apiPath}/query` || url.pathname === `${apiPath}/queryAll`)
      return this.query(token, url.searchParams.get('q') ?? '', url.pathname.endsWith('All'));
    const more = new RegExp(`^${apiPath}/(?:query|queryAll)/([\\w-]+)$`).exec(url.pathname);
    if (more) {
      const [locator, offset] = more[1]!.split('-');
      const rows = this.cursors.get(locator!);
      return rows
        ? this.page(locator!, rows, Number(offset))
        : Response.json([{ message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' }], { status: 400 });
    }
    return Response.json([{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }], { status: 404 });
  }

  /** The global describe: every sObject the user can see, with what it allows. */
  private globalDescribe(): Response {
    const sobjects = [...this.objects.keys()]
      .filter((name) => !this.hidden.has(name))
      .map((name) => ({
        name,
        label: name,
        queryable: true,
        retrieveable: true,
        deletable: true,
        custom: name.endsWith('__c'),
        urls: { describe: `${apiPath}/sobjects/${name}/describe` },
      }));
    return Response.json({ encoding: 'UTF-8', maxBatchSize: 200, sobjects });
  }

  /**
   * The SOQL the connector writes: `SELECT f, … FROM o [WHERE SystemModstamp > t] [ORDER BY SystemModstamp ASC]`;
   * `query` leaves out records in the recycle bin, `queryAll` answers them too.
   */
  private query(token: string, soql: string, all = false): Response {
    this.served.queries.push(soql);
    const match = /^SELECT (.+) FROM (\w+)(?: WHERE SystemModstamp > (\S+))?(?: ORDER BY SystemModstamp ASC)?$/.exec(soql);
    if (!match) return Response.json([{ message: `unexpected token in ${soql}`, errorCode: 'MALFORMED_QUERY' }], { status: 400 });
    const object = this.hidden.has(match[2]!) ? undefined : this.objects.get(match[2]!);
    if (!object) return Response.json([{ message: `sObject type '${match[2]}' is not supported.`, errorCode: 'INVALID_TYPE' }], { status: 400 });
    const fields = match[1]!.split(', ');
    const since = match[3] ? Date.parse(match[3].replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : undefined;
    const rows = object.records
      .filter((record) => all || record.IsDeleted !== true)
      .filter((record) => since === undefined || Date.parse(String(record.SystemModstamp).replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) > since)
      .sort((a, b) => String(a.SystemModstamp).localeCompare(String(b.SystemModstamp)))
      .map((record) => ({
        attributes: { type: match[2], url: `${apiPath}/sobjects/${match[2]}/${record.Id}` },
        ...Object.fromEntries(fields.map((field) => [field, record[field] ?? null])),
      }));
    const locator = `01g${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    this.cursors.set(locator, rows);
    const answer = this.page(locator, rows, 0);
    if (this.expireTokenAfterFirstPageOf === match[2] && rows.length > this.pageSize) {
      this.expireTokenAfterFirstPageOf = undefined;
      this.oauth.expire(token);
    }
    return answer;
  }

  private page(locator: string, rows: SalesforceRecord[], offset: number): Response {
    this.served.pages += 1;
    const end = offset + this.pageSize;
    const done = end >= rows.length;
    return Response.json({
      totalSize: rows.length,
      done,
      ...(done ? {} : { nextRecordsUrl: `${apiPath}/query/${locator}-${end}` }),
      records: rows.slice(offset, end),
    });
  }
}

function notFound(object: string): Response {
  return Response.json([{ message: `The requested resource does not exist: ${object}`, errorCode: 'NOT_FOUND' }], { status: 404 });
}
