import { timingSafeEqual } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { CheckedAddress, SourceAddress } from './source-address';

/** A request head longer than this is refused: a proxy request is one line and a few headers. */
const maxHeadBytes = 16 * 1024;
/** A tunnel or a request quiet for this long is closed (DuckDB's own HTTP timeout is 30 s). */
const idleMs = 120_000;

/**
 * An HTTP proxy on the loopback interface through which connectors' DuckDB instances reach their
 * sources (DuckDB's httpfs connects and follows redirects by itself, out of the service's sight).
 * Every connection it opens for them, each redirect hop included, is first held to the address policy
 * and then made to the address the policy checked: `CONNECT host:port` tunnels for HTTPS,
 * absolute-form requests for plain HTTP. Each source session has credentials of its own; a request
 * without valid ones is refused, so nothing else on the machine can borrow the proxy. It runs on a
 * thread of its own (egress-proxy-worker.ts): DuckDB makes some requests synchronously on the thread
 * that starts a statement, which a proxy on that thread could never answer.
 */
export class EgressProxyServer {
  private readonly server: Server;
  private readonly routes = new Map<string, { password: Buffer; refused: boolean }>();

  constructor(
    private readonly check: (address: SourceAddress) => Promise<CheckedAddress>,
    /** Told of the first connection refused on a route, before the refusal is answered. */
    private readonly onRefused: (username: string, error: unknown) => void,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Starts listening on a free port of 127.0.0.1, and says which. */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  allow(username: string, password: string): void {
    this.routes.set(username, { password: Buffer.from(password), refused: false });
  }

  forget(username: string): void {
    this.routes.delete(username);
  }

  close(): void {
    this.server.close();
  }

  private accept(client: Socket): void {
    client.setTimeout(idleMs, () => client.destroy());
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > maxHeadBytes) refuse(client, 431, 'Request Header Fields Too Large', 'the request head is too long');
        return;
      }
      client.pause();
      client.off('data', onData);
      void this.forward(client, head.subarray(0, end).toString('latin1'), head.subarray(end + 4)).catch(() => client.destroy());
    };
    client.on('data', onData);
  }

  private async forward(client: Socket, head: string, rest: Buffer): Promise<void> {
    const [requestLine = '', ...headerLines] = head.split('\r\n');
    const [method = '', target = ''] = requestLine.split(' ');
    const authorized = this.authorized(headerLines);
    if (!authorized) return refuse(client, 407, 'Proxy Authentication Required', 'no valid proxy credentials', ['Proxy-Authenticate: Basic realm="oxbow"']);
    const destination = destinationOf(method, target);
    if (!destination) return refuse(client, 400, 'Bad Request', 'only CONNECT and absolute http:// requests pass here');
    let checked: CheckedAddress;
    try {
      checked = await this.check({ kind: 'tcp', host: destination.host, port: destination.port });
    } catch (error) {
      if (!authorized.route.refused) this.onRefused(authorized.username, error);
      authorized.route.refused = true;
      return refuse(client, 403, 'Forbidden', error instanceof Error ? error.message : 'not allowed');
    }
    const upstream = connect({ host: checked.address, port: checked.port });
    upstream.setTimeout(idleMs, () => upstream.destroy());
    upstream.on('error', () => {
      if (method === 'CONNECT' && !client.writableEnded) refuse(client, 502, 'Bad Gateway', 'the source did not accept the connection');
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.once('connect', () => {
      if (method === 'CONNECT') {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      } else {
        // One request per connection: the next may be for another host, and goes through the check again.
        const kept = headerLines.filter((line) => !/^(proxy-authorization|proxy-connection|connection|keep-alive)\s*:/i.test(line));
        upstream.write(`${method} ${destination.path} HTTP/1.1\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`, 'latin1');
      }
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  private authorized(headerLines: string[]): { username: string; route: { password: Buffer; refused: boolean } } | undefined {
    const header = headerLines.find((line) => /^proxy-authorization\s*:/i.test(line));
    const basic = header && /^proxy-authorization\s*:\s*basic\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!basic) return undefined;
    const [username = '', password = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    const route = this.routes.get(username);
    const given = Buffer.from(password);
    return route && given.length === route.password.length && timingSafeEqual(given, route.password) ? { username, route } : undefined;
  }
}

/** Where a proxy request goes: `CONNECT host:port`, or `GET http://host[:port]/path` (plain HTTP only). */
function destinationOf(method: string, target: string): { host: string; port: number; path: string } | undefined {
  if (method === 'CONNECT') {
    const match = /^\[?([^\]\s]+?)\]?:(\d{1,5})$/.exec(target);
    const port = Number(match?.[2]);
    return match && port >= 1 && port <= 65535 ? { host: match[1]!, port, path: '' } : undefined;
  }
  // The path is passed on exactly as written: a signed request (S3's) signs these bytes.
  const match = /^http:\/\/([^/?#\s]+)([^#\s]*)$/i.exec(target);
  if (!/^[A-Z]{1,16}$/.test(method) || !match) return undefined;
  try {
    const url = new URL(`http://${match[1]}/`);
    const path = match[2] === '' ? '/' : match[2]!.startsWith('/') ? match[2]! : `/${match[2]!}`;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || 80, path };
  } catch {
    return undefined;
  }
}

function refuse(client: Socket, status: number, reason: string, why: string, extra: string[] = []): void {
  const body = `${why}\n`;
  client.end(
    [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: text/plain; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...extra,
      '',
      body,
    ].join('\r\n'),
  );
}
