import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ConnectorContext } from '../../../src/connectors/connector';
import { specOnlyCredentials } from '../../../src/connectors/credentials';
import { EgressProxyServer } from '../../../src/connectors/egress-proxy-server';
import { httpJsonConnector } from '../../../src/connectors/http-json';
import { SourceAddressPolicy } from '../../../src/connectors/source-address';
import { AppError } from '../../../src/errors/app-error';
import { TenantSource } from '../../support/egress-servers';

/**
 * A name that resolves to an allowed address when checked and elsewhere a moment later (DNS rebinding)
 * cannot move a connection: it goes to the address checked. Shown with a name only the policy can
 * resolve (`.test` names resolve nowhere else): a request that succeeds went to the checked address.
 */
describe('connections go to the address the policy checked', () => {
  let source: TenantSource;
  const answers = new Map<string, string[]>();
  const policy = new SourceAddressPolicy(
    { endpoints: [{ what: 'the service’s Temporal Web UI', host: '127.0.0.1', port: 1 }] },
    { allowPrivate: true, resolve: async (host) => answers.get(host) ?? [] },
  );

  beforeAll(() => {
    source = new TenantSource();
    answers.set('rebound.oxbow.test', ['127.0.0.1']);
  });
  afterAll(() => source.stop());

  const context = (spec: Record<string, unknown>): ConnectorContext<any> => ({
    spec,
    credentials: specOnlyCredentials,
    checked: [],
    allow: (address) => policy.check(address),
    egress: () => Promise.reject(new Error('no engine here')),
    engine: () => Promise.reject(new Error('no engine here')),
  });

  test('an HTTP source, its name kept in the Host header', async () => {
    const port = new URL(source.origin).port;
    const before = source.seen.length;
    const streams = await httpJsonConnector.discover(
      context({
        base_url: `http://rebound.oxbow.test:${port}/`,
        pagination: {
          style: 'none',
          page_param: 'page',
          start_page: 1,
          page_size: 100,
          offset_param: 'offset',
          limit_param: 'limit',
          cursor_param: 'cursor',
          cursor_path: 'next_cursor',
        },
        streams: [{ name: 'items', path: 'items' }],
      }),
    );
    expect(streams.map((stream) => stream.name)).toEqual(['items']);
    expect(source.seen.slice(before).map((request) => request.headers.host)).toEqual([`rebound.oxbow.test:${port}`]);
  });

  describe('the egress proxy', () => {
    let proxy: EgressProxyServer;
    let proxyPort: number;
    const refused: unknown[] = [];
    const credentials = (user: string, password: string) => ({ 'Proxy-Authorization': `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

    beforeAll(async () => {
      proxy = new EgressProxyServer(
        (address) => policy.check(address),
        (_, error) => refused.push(error),
      );
      proxyPort = await proxy.listen();
      proxy.allow('session', 'its-password');
    });
    afterAll(() => proxy.close());

    const through = (url: string, headers: Record<string, string>) => fetch(url, { proxy: { url: `http://127.0.0.1:${proxyPort}`, headers } });

    test('connects to the checked address, and passes the request on as written', async () => {
      const port = new URL(source.origin).port;
      const before = source.seen.length;
      const response = await through(`http://rebound.oxbow.test:${port}/items?a=%2F..%2F&b=1`, credentials('session', 'its-password'));
      expect(response.status).toBe(200);
      const [seen] = source.seen.slice(before);
      expect(seen!.url).toBe(`http://rebound.oxbow.test:${port}/items?a=%2F..%2F&b=1`);
      expect(seen!.headers['proxy-authorization']).toBeUndefined();
    });

    test('refuses what the policy refuses, and says why to whoever holds the route', async () => {
      const response = await through('http://127.0.0.1:1/api/v1/namespaces/default/workflows', credentials('session', 'its-password'));
      expect(response.status).toBe(403);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toBeInstanceOf(AppError);
      expect((refused[0] as AppError).message).toContain('Temporal Web UI');
    });

    test('serves only the routes it was given, while it has them', async () => {
      const port = new URL(source.origin).port;
      for (const headers of [{}, credentials('session', 'another-password'), credentials('another', 'its-password')]) {
        expect((await through(`http://rebound.oxbow.test:${port}/items`, headers)).status).toBe(407);
      }
      proxy.allow('ended', 'its-own-password');
      expect((await through(`http://rebound.oxbow.test:${port}/items`, credentials('ended', 'its-own-password'))).status).toBe(200);
      proxy.forget('ended');
      expect((await through(`http://rebound.oxbow.test:${port}/items`, credentials('ended', 'its-own-password'))).status).toBe(407);
    });
  });
});
