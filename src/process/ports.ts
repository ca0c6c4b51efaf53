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

/** What a server says when the port it was given was taken before it could bind it. */
const portTaken = /address already in use|port is already in use/i;

/**
 * Starts a server on ports found free (`start` finds them), again on other ports when another process
 * took one between the finding and the binding, which a busy machine does now and then.
 */
export async function onFreePorts<T>(start: (attempt: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(attempt);
    } catch (error) {
      if (attempt === attempts || !portTaken.test(String(error))) throw error;
    }
  }
}
