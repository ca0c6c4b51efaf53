import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { standardMaxBodyBytes } from '../../src/api/app';
import { withWorkspace } from '../support/fixtures';

const pushLimit = 64 * 1024;

/** A raw HTTP/1.1 exchange: the request head as written, then the first response's status line and body. */
async function rawExchange(url: string, head: string, bodyStart: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${bodyStart}`));
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 5 s: ${received}`));
    }, 5_000);
    socket.on('data', (data) => {
      received += data.toString('utf8');
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const headers = received.slice(0, split);
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0);
      const body = received.slice(split + 4);
      if (Buffer.byteLength(body) < length) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(headers.split(' ')[1]), headers, body });
    });
    socket.on('error', reject);
  });
}

/** A body sent in chunks, without a Content-Length: the server learns its size only by reading it. */
function chunked(totalBytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/**
 * Bodies over a route's limit, however they are framed, get the service's own 413 in the error
 * envelope (never Bun's empty one), before the body is buffered.
 */
describe('request body limits over a real socket', () => {
  let t: TestApp;
  let server: HttpServer;
  let user: TestUser;
  let pushPath: string;
  beforeAll(async () => {
    let workspaceId: string;
    ({ t, user, workspaceId } = await withWorkspace('local', { env: { PUSH_MAX_BODY_BYTES: String(pushLimit) }, label: 'bodies' }));
    server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
    pushPath = `/api/v1/workspaces/${workspaceId}/push`;
  });
  afterAll(async () => {
    await server.stop();
    await t.stop();
  });

  const expectEnvelope413 = (status: number, headers: string, body: string) => {
    expect(status).toBe(413);
    expect(headers).toMatch(/x-request-id: \S+/i);
    expect(headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body).detail.error.code).toBe('PAYLOAD_TOO_LARGE');
  };

  test.each([
    ['push, 200 MB', () => pushPath, 200 * 1024 * 1024],
    ['push, just over its limit', () => pushPath, pushLimit + 1],
    ['query, 200 MB', () => '/api/v1/query', 200 * 1024 * 1024],
    ['login, just over the standard limit', () => '/api/v1/auth/login', standardMaxBodyBytes + 1],
    ['an unknown route, 200 MB', () => '/api/v1/nothing-here', 200 * 1024 * 1024],
  ])('a declared length over the limit (%s) is refused before the body arrives', async (_, path, declared) => {
    const head = [
      `POST ${path()} HTTP/1.1`,
      'Host: localhost',
      'Content-Type: application/json',
      `Authorization: Bearer ${user.accessToken}`,
      `Content-Length: ${declared}`,
    ].join('\r\n');
    const answer = await rawExchange(server.url, head, '{"table":');
    expectEnvelope413(answer.status, answer.headers, answer.body);
  });

  test('the refusal names the limit of the route asked, not the largest of all', async () => {
    const over = [
      'POST /api/v1/query HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      `Authorization: Bearer ${user.accessToken}`,
      `Content-Length: ${standardMaxBodyBytes + 1}`,
    ].join('\r\n');
    const refused = await rawExchange(server.url, over, '{"sql":');
    expectEnvelope413(refused.status, refused.headers, refused.body);
    const error = JSON.parse(refused.body).detail.error;
    expect(error.message).toContain(String(standardMaxBodyBytes));
    expect(error.hint).not.toContain('push');
  });

  test.each([
    ['push', () => pushPath, pushLimit * 4],
    ['query', () => '/api/v1/query', standardMaxBodyBytes + 64 * 1024],
    ['signup', () => '/api/v1/auth/signup', standardMaxBodyBytes + 64 * 1024],
  ])('a chunked body without a length over the limit (%s) is cut off with the envelope', async (_, path, size) => {
    const response = await fetch(`${server.url}${path()}`, {
      method: 'POST',
      body: chunked(size),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    });
    const text = await response.text();
    expectEnvelope413(response.status, [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n'), text);
  });

  test('an honest body just over the push limit is a 413; one under it is written', async () => {
    const records = (count: number) => Array.from({ length: count }, (_, id) => ({ id, text: 'y'.repeat(100) }));
    const over = await fetch(`${server.url}${pushPath}`, {
      method: 'POST',
      body: JSON.stringify({ table: 'b.over', records: records(700) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    });
    expect(over.status).toBe(413);
    expect((await bodyOf(over)).detail.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', hint: 'Split the records over several pushes.' });
    const under = await fetch(`${server.url}${pushPath}`, {
      method: 'POST',
      body: JSON.stringify({ table: 'b.under', records: records(100) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    });
    expect(under.status).toBe(200);
    expect((await bodyOf(under)).records_written).toBe(100);
  });

  test('a body within the limit that matches its declared length is read and answered', async () => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'wrong password' });
    const head = ['POST /api/v1/auth/login HTTP/1.1', 'Host: localhost', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`].join(
      '\r\n',
    );
    const answer = await rawExchange(server.url, head, body);
    expect(answer.status).toBe(401);
  });

  test('a chunked body that also declares a small length is still held to the limit', async () => {
    const piece = 'x'.repeat(16 * 1024);
    const chunks = `${`${piece.length.toString(16)}\r\n${piece}\r\n`.repeat((pushLimit * 4) / piece.length)}0\r\n\r\n`;
    const head = [
      `POST ${pushPath} HTTP/1.1`,
      'Host: localhost',
      'Content-Type: application/json',
      `Authorization: Bearer ${user.accessToken}`,
      'Content-Length: 10',
      'Transfer-Encoding: chunked',
    ].join('\r\n');
    const answer = await rawExchange(server.url, head, chunks);
    // Refused either way: as a malformed request by the HTTP server, or with the envelope after reading past the limit.
    expect([400, 413]).toContain(answer.status);
    if (answer.status === 413) expectEnvelope413(answer.status, answer.headers, answer.body);
  });

  test('a GET is answered whatever length it declares: its body is never read', async () => {
    const head = ['GET /api/v1/health HTTP/1.1', 'Host: localhost', `Content-Length: ${200 * 1024 * 1024}`].join('\r\n');
    const answer = await rawExchange(server.url, head, 'ignored');
    expect([200, 503]).toContain(answer.status);
  });
});
