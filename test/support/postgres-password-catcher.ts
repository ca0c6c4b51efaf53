import type { Socket, TCPSocketListener } from 'bun';

/**
 * A server a tenant controls that speaks the start of Postgres' wire protocol as a password thief
 * would: it refuses TLS, asks for the password in clear text (or as MD5), and keeps whatever password
 * message arrives.
 */
export class PostgresPasswordCatcher {
  /** Every password message received, as the client sent it. */
  readonly caught: string[] = [];
  /** Connections that got as far as the startup message. */
  startups = 0;
  private readonly listener: TCPSocketListener<{ buffer: Buffer; started: boolean }>;

  constructor(private readonly asks: 'cleartext' | 'md5') {
    this.listener = Bun.listen<{ buffer: Buffer; started: boolean }>({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        open: (socket) => {
          socket.data = { buffer: Buffer.alloc(0), started: false };
        },
        data: (socket, chunk) => this.receive(socket, chunk),
      },
    });
  }

  get port(): number {
    return this.listener.port;
  }

  stop(): void {
    this.listener.stop(true);
  }

  private receive(socket: Socket<{ buffer: Buffer; started: boolean }>, chunk: Buffer): void {
    socket.data.buffer = Buffer.concat([socket.data.buffer, chunk]);
    for (;;) {
      const buffer = socket.data.buffer;
      // Untagged messages (SSL and GSS requests, the startup message) come first, tagged ones after.
      const tagged = socket.data.started;
      const lengthAt = tagged ? 1 : 0;
      if (buffer.length < lengthAt + 4) return;
      const length = buffer.readInt32BE(lengthAt);
      if (buffer.length < lengthAt + length) return;
      const body = buffer.subarray(lengthAt + 4, lengthAt + length);
      socket.data.buffer = buffer.subarray(lengthAt + length);
      if (tagged) {
        if (buffer[0] === 0x70) this.caught.push(body.toString('utf8').replace(/\0$/, ''));
        socket.end(error('28P01', 'password authentication failed'));
        return;
      }
      const code = body.readInt32BE(0);
      if (code === 80877103 || code === 80877104) {
        socket.write('N'); // no TLS, no GSS encryption
        continue;
      }
      this.startups += 1;
      socket.data.started = true;
      socket.write(this.asks === 'cleartext' ? message('R', int32(3)) : message('R', Buffer.concat([int32(5), Buffer.from([1, 2, 3, 4])])));
    }
  }
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

function message(tag: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(tag), int32(body.length + 4), body]);
}

function error(code: string, text: string): Buffer {
  return message('E', Buffer.from(`SFATAL\0C${code}\0M${text}\0\0`));
}
