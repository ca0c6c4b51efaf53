import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { readdirSync } from 'node:fs';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { ndjsonOf, upload } from '../../support/uploads';
import { startHttpServer, type HttpServer } from '../../../src/api/server';
import { withWorkspace } from '../../support/fixtures';

const uploadLimit = 256 * 1024;

describe('upload limits and broken uploads', () => {
  let t: TestApp;
  let server: HttpServer;
  let user: TestUser, workspaceId: string;
  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', {
      env: { PUSH_MAX_UPLOAD_BYTES: String(uploadLimit), PUSH_MAX_BODY_BYTES: String(16 * 1024) },
      label: 'limits',
    }));
    server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.stop();
    await t.stop();
  });

  const tables = async () =>
    (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }))).tables.map(
      (entry: { name: string }) => entry.name,
    );
  const big = (bytes: number) => ndjsonOf(Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => ({ id: i, padding: 'x'.repeat(24) })));

  test('an upload takes its own limit, larger than the JSON body’s', async () => {
    const body = big(64 * 1024);
    expect((await upload(t, workspaceId, user, body, 'application/x-ndjson', { table: 'lim.ok' })).status).toBe(200);
    const json = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
      method: 'POST',
      json: {
        table: 'lim.json',
        records: body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      },
      token: user.accessToken,
    });
    expect(json.status).toBe(413);
  });

  test('413 for an upload over its limit, declared, streamed in chunks or unpacked from gzip', async () => {
    const body = big(uploadLimit + 1024);
    const declared = await upload(t, workspaceId, user, body, 'application/x-ndjson', { table: 'lim.declared' });
    expect(declared.status).toBe(413);
    expect((await bodyOf(declared)).detail.error.code).toBe('PAYLOAD_TOO_LARGE');
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(body);
        for (let offset = 0; offset < bytes.length; offset += 32 * 1024) controller.enqueue(bytes.slice(offset, offset + 32 * 1024));
        controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/api/v1/workspaces/${workspaceId}/push?table=lim.streamed`, {
      method: 'POST',
      body: chunks,
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${user.accessToken}` },
    });
    expect(streamed.status).toBe(413);
    const bomb = await upload(t, workspaceId, user, Bun.gzipSync(body), 'application/x-ndjson', { table: 'lim.bomb' }, { 'content-encoding': 'gzip' });
    expect(bomb.status).toBe(413);
    expect(await tables()).not.toContainAnyValues(['declared', 'streamed', 'bomb']);
  });

  test('an upload whose connection breaks off midway writes nothing and leaves no file behind', async () => {
    const body = big(128 * 1024);
    const url = new URL(server.url);
    const head = [
      `POST /api/v1/workspaces/${workspaceId}/push?table=lim.broken HTTP/1.1`,
      `Host: ${url.host}`,
      `Authorization: Bearer ${user.accessToken}`,
      'Content-Type: application/x-ndjson',
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      '',
    ].join('\r\n');
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(head);
        // Half of the records, cut in the middle of a line, then the connection closes.
        socket.write(body.slice(0, body.length / 2 + 7), () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await Bun.sleep(500);
    expect(await tables()).not.toContain('broken');
    const uploads = readdirSync(t.backend.config.duckdb.tempDir).filter((name) => name.includes('-uploads-'));
    for (const folder of uploads) expect(readdirSync(`${t.backend.config.duckdb.tempDir}/${folder}`)).toEqual([]);
    // The same records sent whole then land once.
    expect((await upload(t, workspaceId, user, body, 'application/x-ndjson', { table: 'lim.broken' })).status).toBe(200);
  });
});
