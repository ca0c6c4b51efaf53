import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../errors/app-error';
import { EgressProxyServer } from './egress-proxy-server';
import type { EgressSettings, FromProxy, ToProxy } from './egress-proxy';
import { SourceAddressPolicy } from './source-address';
import { SourceError } from './source-error';

// The egress proxy's thread: the address policy of the service's configuration, and the proxy server.
const settings = workerData as EgressSettings;
const port = parentPort!;
const send = (message: FromProxy) => port.postMessage(message);
const policy = new SourceAddressPolicy(settings.reserved, { allowPrivate: settings.allowPrivate });
const server = new EgressProxyServer(
  (address) => policy.check(address),
  (username, error) => {
    if (error instanceof AppError) send({ kind: 'refused', username, code: error.code, message: error.message, hint: error.hint });
    else if (error instanceof SourceError) send({ kind: 'refused', username, failure: error.failure, message: error.message });
    else send({ kind: 'refused', username, message: error instanceof Error ? error.message : String(error) });
  },
);

port.on('message', (message: ToProxy) => {
  switch (message.kind) {
    case 'allow':
      server.allow(message.username, message.password);
      break;
    case 'forget':
      server.forget(message.username);
      break;
    default:
      break;
  }
  // Every message is answered in order: an answer says the proxy has seen everything sent before it.
  send({ kind: 'done', id: message.id });
});

send({ kind: 'listening', port: await server.listen() });
