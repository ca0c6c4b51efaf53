import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenAPIV3_1 } from 'openapi-types';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';

type Operation = OpenAPIV3_1.OperationObject & { method: string; path: string };

/**
 * The document a client generator reads: valid OpenAPI 3.1, every operation named, every answer it
 * can give declared with shared schemas, integers typed as integers.
 */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPIV3_1.Document;
  let operations: Operation[];
  beforeAll(async () => {
    t = await startTestApp('local', { env: { PUBLIC_BASE_URL: 'https://oxbow.example.com' } });
    const response = await t.request('/openapi.json');
    expect(response.status).toBe(200);
    document = await bodyOf(response);
    operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, operation]) => ({ ...(operation as OpenAPIV3_1.OperationObject), method, path })),
    );
  });
  afterAll(() => t.stop());

  const responseOf = (operation: Operation, status: number) => operation.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
  const find = (operationId: string) => operations.find((operation) => operation.operationId === operationId)!;

  test('is valid OpenAPI 3.1 by an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('keeps version 1.0.0 and names the public address as its server', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toEqual([{ url: 'https://oxbow.example.com' }]);
  });

  test('covers every path of the interface this service implements', () => {
    const paths = Object.keys(document.paths ?? {});
    const usageAndBilling = ['', '/daily', '/current', '/dashboard', '/export']
      .map((suffix) => `/api/v1/workspaces/{workspace_id}/usage${suffix}`)
      .concat(
        ['status', 'setup', 'portal-session'].map((suffix) => `/api/v1/workspaces/{workspace_id}/billing/${suffix}`),
        ['/api/v1/billing/webhooks/{billing_provider}'],
      );
    for (const path of [
      '/api/v1/auth/login',
      '/api/v1/workspaces/{workspace_id}/push',
      '/api/v1/query/jobs/{job_id}',
      '/api/v1/execute',
      '/api/v1/execute/tables',
      '/api/v1/query/tables/{table_name}/metadata',
      ...usageAndBilling,
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths).not.toContain('/openapi.json');
    expect(paths).not.toContain('/docs');
  });

  test('names every operation in camelCase, uniquely, never after its path', () => {
    const ids = operations.map((operation) => operation.operationId!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(ids).toEqual(
      expect.arrayContaining(['listWorkspaces', 'pushRecords', 'submitQueryJob', 'getQueryJob', 'cancelQueryJob', 'executeQuery', 'logIn', 'createApiKey']),
    );
  });

  test('every operation declares its errors in the envelope, 422 in the validation shape, and 500', () => {
    const htmlPages = new Set(['viewPublicChart', 'viewPublicPage']);
    for (const operation of operations) {
      const statuses = Object.keys(operation.responses ?? {}).map(Number);
      expect(statuses).toContain(500);
      const reportsItsOwnState = operation.operationId!.toLowerCase().includes('health') || operation.operationId === 'getReadiness';
      for (const status of statuses.filter((code) => code >= 400 && !(reportsItsOwnState && code === 503))) {
        const content = responseOf(operation, status)!.content!;
        // The public HTML pages answer their own errors as HTML pages too (404, 429, 503).
        if (htmlPages.has(operation.operationId!) && [404, 429, 503].includes(status)) {
          expect(Object.keys(content)).toEqual(['text/html']);
          continue;
        }
        const schema = content['application/json']!.schema as { $ref: string };
        expect(schema.$ref).toBe(status === 422 ? '#/components/schemas/ValidationError' : '#/components/schemas/ErrorEnvelope');
      }
      if (operation.method !== 'get') expect(statuses).toEqual(expect.arrayContaining([413, 422]));
      if (operation.security?.length) expect(statuses).toContain(401);
      for (const response of Object.values(operation.responses ?? {}) as OpenAPIV3_1.ResponseObject[]) {
        expect((response.headers?.['X-Request-Id'] as OpenAPIV3_1.HeaderObject | undefined)?.required).toBe(true);
      }
    }
  });

  test('204s have no body, the CSV and HTML answers their media types, redirects their Location', () => {
    for (const id of ['logOut', 'deleteAccount', 'revokeApiKey', 'deleteWorkspace', 'removeMember', 'dropTable']) {
      const noContent = responseOf(find(id), 204);
      expect(noContent).toBeDefined();
      expect(noContent!.content).toBeUndefined();
    }
    for (const id of ['executeQuery', 'runQuery', 'runWorkspaceQuery', 'exportUsage'])
      expect(Object.keys(responseOf(find(id), 200)!.content!)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(responseOf(find('getCliLoginForm'), 200)!.content!)).toEqual(['text/html']);
    expect(responseOf(find('submitCliLogin'), 303)!.headers).toHaveProperty('Location');
  });

  test('declares the rate-limit, Retry-After, X-Total-Count and Content-Disposition headers where they come', () => {
    for (const id of ['executeQuery', 'runQuery', 'runWorkspaceQuery', 'submitQueryJob']) {
      const tooMany = responseOf(find(id), 429)!;
      expect(Object.keys(tooMany.headers!)).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
      expect(Object.keys(responseOf(find(id), 200)!.headers!)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
    expect(responseOf(find('logIn'), 429)!.headers).toHaveProperty('Retry-After');
    expect(responseOf(find('runQuery'), 200)!.headers).toHaveProperty('Content-Disposition');
    for (const id of ['listWorkspaces', 'listMembers', 'listApiKeys', 'listDailyUsage'])
      expect((responseOf(find(id), 200)!.headers!['X-Total-Count'] as OpenAPIV3_1.HeaderObject).required).toBe(true);
  });

  test('types integer parameters as integers, bounded, and the offset’s maximum is documented', () => {
    for (const operation of operations) {
      for (const parameter of (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        const schema = parameter.schema as Record<string, unknown>;
        expect(schema.anyOf).toBeUndefined();
        if (['limit', 'offset', 'callback_port'].includes(parameter.name)) {
          expect(schema.type).toBe('integer');
          expect(schema.maximum).toEqual(expect.any(Number));
        }
      }
    }
    const offset = (find('listMembers').parameters as OpenAPIV3_1.ParameterObject[]).find((parameter) => parameter.name === 'offset')!;
    expect(offset.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(JSON.stringify(document).includes('"format":"integer"')).toBe(false);
  });

  test('shares named component schemas instead of inline copies, and gives the push body its real schema', () => {
    const schemas = document.components?.schemas ?? {};
    for (const name of ['ErrorEnvelope', 'ValidationError', 'PushRecord', 'QueryResponse', 'JobStatusResponse', 'WorkspaceRole', 'ResultColumn'])
      expect(schemas).toHaveProperty(name);
    const push = find('pushRecords').requestBody as OpenAPIV3_1.ReferenceObject;
    expect(push).toEqual({ $ref: '#/components/requestBodies/PushRequest' });
    const pushRequest = (document.components!.requestBodies!.PushRequest as OpenAPIV3_1.RequestBodyObject).content['application/json']!.schema as {
      properties: Record<string, { items?: unknown; pattern?: string }>;
    };
    expect(pushRequest.properties.records!.items).toEqual({ $ref: '#/components/schemas/PushRecord' });
    expect(new RegExp(pushRequest.properties.table!.pattern!).test('raw.events')).toBe(true);
    // The records themselves are bodies too: the media types say what they are.
    const pushMedia = Object.keys((document.components!.requestBodies!.PushRequest as OpenAPIV3_1.RequestBodyObject).content).sort();
    expect(pushMedia).toEqual(['application/json', 'application/vnd.apache.parquet', 'application/x-ndjson', 'text/csv']);
    const members = responseOf(find('listMembers'), 200)!.content!['application/json']!.schema;
    expect(members).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MemberResponse' } });
    expect(JSON.stringify(document).includes('"nullable":true')).toBe(false);
  });

  test('request bodies are components of their own, so a field with a default is optional to a client', () => {
    const bodies = document.components?.requestBodies as Record<string, OpenAPIV3_1.RequestBodyObject>;
    const schemaOf = (name: string) =>
      bodies[name]!.content['application/json']!.schema as { properties: Record<string, { default?: unknown }>; required?: string[] };
    for (const [name, field] of [
      ['PushRequest', 'mode'],
      ['QueryRequest', 'estimate_only'],
      ['JobSubmitRequest', 'priority'],
      ['WorkspaceCreateRequest', 'region'],
      ['PreviewRequest', 'limit'],
    ] as const) {
      expect(schemaOf(name).properties[field]!.default).toBeDefined();
      expect(schemaOf(name).required ?? []).not.toContain(field);
    }
    // No schema is left that nothing refers to.
    const text = JSON.stringify({ paths: document.paths, requestBodies: bodies, schemas: document.components?.schemas });
    for (const name of Object.keys(document.components?.schemas ?? {})) expect(text).toContain(`"#/components/schemas/${name}"`);
  });

  test('public operations say so with an empty security list; the rest name their scheme', () => {
    for (const id of ['logIn', 'signUp', 'getReadiness', 'getLiveness', 'getServiceHealth', 'viewPublicChart', 'receiveBillingWebhook'])
      expect(find(id).security).toEqual([]);
    for (const id of ['listWorkspaces', 'executeQuery', 'pushRecords']) expect(find(id).security!.length).toBeGreaterThan(0);
    for (const operation of operations) expect(operation.security).toBeDefined();
  });

  test('every operation that runs or plans a statement documents 429 CONCURRENCY_LIMITED and 503 ENGINE_BUSY; every 201 that creates something its Location', () => {
    for (const id of ['executeQuery', 'runQuery', 'runWorkspaceQuery', 'runSavedQuery', 'pushRecords', 'createChart', 'updateChart', 'createSavedQuery']) {
      expect(responseOf(find(id), 429)!.description).toContain('CONCURRENCY_LIMITED');
      const busy = responseOf(find(id), 503)!;
      expect(busy.description).toContain('ENGINE_BUSY');
      expect(busy.headers).toHaveProperty('Retry-After');
    }
    for (const id of [
      'createWorkspace',
      'addMember',
      'createApiKey',
      'createConnection',
      'createTransform',
      'createSavedQuery',
      'createChart',
      'createPage',
      'publishChart',
      'publishPage',
    ]) {
      expect((responseOf(find(id), 201)!.headers!.Location as OpenAPIV3_1.HeaderObject).required).toBe(true);
    }
    // Sign-up and the waitlist create nothing a client may address.
    for (const id of ['signUp', 'joinWaitlist']) expect(responseOf(find(id), 201)!.headers).not.toHaveProperty('Location');
  });

  test("Redocly's recommended rules find no error, and warn only where the answer is the truth", () => {
    const scratch = mkdtempSync(join(tmpdir(), 'oxbow-redocly-'));
    try {
      // An address of the service's own rather than example.com, which the rules flag (as they flag localhost).
      writeFileSync(join(scratch, 'openapi.json'), JSON.stringify({ ...document, servers: [{ url: 'https://oxbow.test' }] }));
      const cli = join(import.meta.dir, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const lint = Bun.spawnSync([process.execPath, cli, 'lint', '--extends', 'recommended', '--format', 'json', 'openapi.json'], {
        cwd: scratch,
        stdout: 'pipe',
        stderr: 'pipe',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(lint.stdout.toString()) as { problems: { ruleId: string; severity: string; location: { pointer: string }[] }[] };
      const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]!.pointer}`);
      expect(problems.filter((problem) => problem.startsWith('error'))).toEqual([]);
      // These answer no 4xx (the probes and the registration status take no input and no credentials),
      // and the OAuth callback only ever redirects: a 2xx or 4xx they cannot give would be a lie.
      expect(problems.sort()).toEqual(
        [
          'warn operation-4xx-response #/paths/~1health/get/responses',
          'warn operation-4xx-response #/paths/~1livez/get/responses',
          'warn operation-4xx-response #/paths/~1readyz/get/responses',
          'warn operation-4xx-response #/paths/~1metrics/get/responses',
          'warn operation-4xx-response #/paths/~1api~1v1~1health/get/responses',
          'warn operation-4xx-response #/paths/~1api~1v1~1auth~1registration-status/get/responses',
          'warn operation-2xx-response #/paths/~1api~1v1~1oauth~1{crm_provider}~1callback/get/responses',
        ].sort(),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  test('the browsable version is served beside it', async () => {
    const page = await t.app.handle(new Request('http://localhost/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
