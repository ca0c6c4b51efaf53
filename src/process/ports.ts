import { createServer } from 'node:net';

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether something accepts connections on host:port. */
export async function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: host, port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}
