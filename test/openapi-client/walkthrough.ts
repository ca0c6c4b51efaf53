// Every feature of the API, written against the client that openapi-typescript generates with its
// default options: it must type-check as it is. Fields the service defaults (mode, priority, region,
// format, estimate_only, limit…) are left out on purpose, as a client would.
import { client, expectStatus } from './typed-client';

export async function walkthrough(baseUrl: string, email: string, password: string, verificationToken: () => Promise<string>): Promise<void> {
  const api = client(baseUrl);

  // Health and operations
  const ready = expectStatus(await api.call('get', '/readyz'), 200);
  const degraded: string[] = ready.degraded;
  const live: 'ok' = expectStatus(await api.call('get', '/livez'), 200).status;
  expectStatus(await api.call('get', '/api/v1/health'), 200);
  void [degraded, live];

  // Accounts and sessions
  const open: boolean = expectStatus(await api.call('get', '/api/v1/auth/registration-status'), 200).signup_open;
  expectStatus(await api.call('post', '/api/v1/auth/signup', { body: { email, password } }), 201);
  expectStatus(await api.call('post', '/api/v1/auth/verify-email', { body: { token: await verificationToken() } }), 200);
  const tokens = expectStatus(await api.call('post', '/api/v1/auth/login', { body: { email, password } }), 200);
  const token: string = tokens.access_token;
  const refreshed = expectStatus(await api.call('post', '/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token } }), 200);
  const me = expectStatus(await api.call('get', '/api/v1/auth/me', { token }), 200);
  const code = expectStatus(await api.call('post', '/api/v1/auth/session-code', { token }), 200).code;
  expectStatus(await api.call('post', '/api/v1/auth/exchange-code', { body: { code } }), 200);
  void [open, refreshed.expires_in, me.email];

  // API keys
  const created = expectStatus(await api.call('post', '/api/v1/auth/api-keys', { token, body: { name: 'walkthrough' } }), 201);
  const key: string = created.key ?? '';
  const keys = expectStatus(await api.call('get', '/api/v1/auth/api-keys', { token, query: { limit: 10 } }), 200);
  expectStatus(await api.call('post', '/api/v1/auth/api-keys/{key_id}/reveal', { token, path: { key_id: created.id }, body: { password } }), 200);
  void keys.length;

  // Workspaces and members
  const workspace = expectStatus(await api.call('post', '/api/v1/workspaces', { token, body: { name: 'Walkthrough', slug: `walk-${Date.now()}` } }), 201);
  const workspace_id: string = workspace.id;
  const region: string = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}', { token, path: { workspace_id } }), 200).region;
  const members = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}/members', { token, path: { workspace_id } }), 200);
  void [region, members[0]?.role];

  // Push, query, tables
  const pushed = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/push', {
      token,
      path: { workspace_id },
      body: { table: 'shop.orders', records: [{ id: 1, amount: 9.5 }] },
    }),
    200,
  );
  const written: number = pushed.records_written;
  const result = expectStatus(
    await api.call('post', '/api/v1/query', { token, body: { sql: 'SELECT sum(amount) AS total FROM shop.orders', workspace_id } }),
    200,
  );
  if (typeof result === 'object' && 'rows' in result) void result.rows[0];
  const estimate = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/query', { token, path: { workspace_id }, body: { sql: 'SELECT 1', estimate_only: true } }),
    200,
  );
  const executed = await api.call('post', '/api/v1/execute', { apiKey: key, body: { sql: 'SELECT 1 AS one', format: 'objects' } });
  if (executed.status === 503 || executed.status === 429) void executed.body.detail.error.code;
  const tables = expectStatus(await api.call('get', '/api/v1/query/tables', { token, query: { workspace: workspace_id } }), 200);
  const detail = expectStatus(
    await api.call('get', '/api/v1/query/tables/{table_name}/metadata', { token, path: { table_name: 'shop.orders' }, query: { workspace: workspace_id } }),
    200,
  );
  const rateLimit = expectStatus(await api.call('get', '/api/v1/query/rate-limit', { token, query: { workspace_id } }), 200);
  void [written, estimate, tables.tables.length, detail, rateLimit.remaining];

  // Query jobs
  const job = expectStatus(await api.call('post', '/api/v1/query/jobs', { token, body: { sql: 'SELECT 42', workspace_id } }), 200);
  const jobState = expectStatus(await api.call('get', '/api/v1/query/jobs/{job_id}', { token, path: { job_id: job.job_id } }), 200);
  void jobState.status;

  // Connections and syncs
  const types = expectStatus(await api.call('get', '/api/v1/connections/available-types', { token }), 200);
  const connection = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/connections', {
      token,
      path: { workspace_id },
      body: { name: 'source', connector_type: 'http_json', spec: { base_url: 'http://127.0.0.1:1/', streams: [{ name: 'items', path: 'items' }] } },
    }),
    201,
  );
  const connection_id: string = connection.id;
  const tested = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}/test', { token, path: { workspace_id, connection_id } }),
    200,
  );
  const streams = await api.call('get', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}/streams', {
    token,
    path: { workspace_id, connection_id },
  });
  const preview = await api.call('post', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}/preview', {
    token,
    path: { workspace_id, connection_id },
    body: { stream: 'items' },
  });
  const sync = await api.call('post', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}/sync', { token, path: { workspace_id, connection_id } });
  if (sync.status === 202) {
    const syncJob = expectStatus(
      await api.call('get', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}/sync-jobs/{job_id}', {
        token,
        path: { workspace_id, connection_id, job_id: sync.body.job_id },
      }),
      200,
    );
    void syncJob.status;
  }
  expectStatus(
    await api.call('patch', '/api/v1/workspaces/{workspace_id}/connections/{connection_id}', {
      token,
      path: { workspace_id, connection_id },
      body: { sync_schedule: 'every 1h' },
    }),
    200,
  );
  void [types[0]?.type, tested.success, streams.status, preview.status];

  // Transforms
  const transform = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/transforms', {
      token,
      path: { workspace_id },
      body: { name: 'totals', sql: 'SELECT sum(amount) AS total FROM shop.orders', target_table: 'marts.totals' },
    }),
    201,
  );
  const run = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/transforms/{transform_id}/run', { token, path: { workspace_id, transform_id: transform.id } }),
    200,
  );
  const dag = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}/transforms/dag', { token, path: { workspace_id } }), 200);
  const runAll = expectStatus(await api.call('post', '/api/v1/workspaces/{workspace_id}/transforms/run', { token, path: { workspace_id } }), 200);
  void [run.status, dag.order, runAll.runs.length];

  // Saved queries, charts, pages, public links
  expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/saved-queries', {
      token,
      path: { workspace_id },
      body: { name: 'by-amount', sql: 'SELECT * FROM shop.orders WHERE amount > {{min}}', parameters: [{ name: 'min', type: 'number', default: 0 }] },
    }),
    201,
  );
  expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/saved-queries/{name}/run', {
      token,
      path: { workspace_id, name: 'by-amount' },
      body: { parameters: { min: 1 } },
    }),
    200,
  );
  expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/charts', {
      token,
      path: { workspace_id },
      body: { name: 'amounts', title: 'Amounts', saved_query: 'by-amount', chart_type: 'bar', config: { x: 'id', y: ['amount'] } },
    }),
    201,
  );
  const link = expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/charts/{name}/publish', { token, path: { workspace_id, name: 'amounts' } }),
    201,
  );
  expectStatus(
    await api.call('post', '/api/v1/workspaces/{workspace_id}/pages', {
      token,
      path: { workspace_id },
      body: { name: 'board', title: 'Board', blocks: [{ markdown: '# Orders' }, { chart: 'amounts' }] },
    }),
    201,
  );
  const data = expectStatus(await api.call('get', '/c/{token}/data', { path: { token: link.token } }), 200);
  void [link.url, data.rows.length];

  // Usage and billing
  const usage = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}/usage', { token, path: { workspace_id } }), 200);
  const dashboard = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}/usage/dashboard', { token, path: { workspace_id } }), 200);
  const billing = expectStatus(await api.call('get', '/api/v1/workspaces/{workspace_id}/billing/status', { token, path: { workspace_id } }), 200);
  void [usage.query_count, dashboard.plan_tier, billing.status];

  // Clean-up
  expectStatus(
    await api.call('delete', '/api/v1/query/tables/{schema_name}/{table_name}', {
      token,
      path: { schema_name: 'shop', table_name: 'orders' },
      query: { workspace: workspace_id },
    }),
    204,
  );
  expectStatus(await api.call('delete', '/api/v1/auth/api-keys/{key_id}', { token, path: { key_id: created.id } }), 204);
  expectStatus(await api.call('post', '/api/v1/auth/logout', { body: { refresh_token: refreshed.refresh_token } }), 204);
}
