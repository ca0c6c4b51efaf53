import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { withWorkspace } from '../../support/fixtures';
import { query } from '../../support/lake';
import { startHttpServer, type HttpServer } from '../../../src/api/server';

const mebibyte = 1024 * 1024;

describe('a large upload streams', () => {
  let t: TestApp;
  let server: HttpServer;
  let user: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'streamer' }));
    server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.stop();
    await t.stop();
  });

  /** The bytes of the upload files being received, in the service's uploads folder. */
  const receivedBytes = () => {
    const tempDir = t.backend.config.duckdb.tempDir;
    let bytes = 0;
    for (const folder of readdirSync(tempDir).filter((name) => name.includes('-uploads-'))) {
      for (const file of readdirSync(join(tempDir, folder))) bytes += statSync(join(tempDir, folder, file), { throwIfNoEntry: false })?.size ?? 0;
    }
    return bytes;
  };

  test('its bytes are on disk as they arrive, before the body has ended: no more than a block of it is held', async () => {
    const encoder = new TextEncoder();
    let records = 0;
    let sent = 0;
    const chunk = () => {
      const lines: string[] = [];
      for (let i = 0; i < 500; i++, records++) lines.push(JSON.stringify({ id: records, note: `record ${records} ${'x'.repeat(100)}` }));
      const bytes = encoder.encode(`${lines.join('\n')}\n`);
      sent += bytes.byteLength;
      return bytes;
    };
    // The client sends half of the body, then holds the rest back until the service has written
    // what it received, all but its last block, to the upload's file: a service that held the
    // body until its end would never get there.
    let onDisk = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 16 * mebibyte) return controller.close();
        if (sent >= 8 * mebibyte && onDisk === 0) {
          const enough = sent - mebibyte;
          for (let waited = 0; (onDisk = receivedBytes()) < enough; waited += 20) {
            if (waited > 120_000) throw new Error(`only ${onDisk} of ${sent} bytes reached the file while the body was held back`);
            await Bun.sleep(20);
          }
        }
        controller.enqueue(chunk());
      },
    });
    const response = await fetch(`${server.url}/api/v1/workspaces/${workspaceId}/push?table=stream.large`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${user.accessToken}` },
    });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ records_written: records, table: 'stream.large' });
    expect(onDisk).toBeGreaterThanOrEqual(7 * mebibyte);
    expect(onDisk).toBeLessThan(sent);
    expect(await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM stream.large')).toEqual([
      { n: records, ids: records },
    ]);
    // Read and removed: nothing of the upload is left behind.
    expect(receivedBytes()).toBe(0);
  });
});
