// The thread that reads the second part of a large push's records (see parallel-records.ts).
import { readRecordsPart } from './records-part';
import type { PartReply, PartRequest } from './parallel-records';

declare const self: Worker;

self.addEventListener('message', (event: MessageEvent<PartRequest>) => {
  const { id, bytes } = event.data;
  let reply: PartReply;
  try {
    reply = { id, read: readRecordsPart(bytes), bytes };
  } catch {
    reply = { id, read: undefined, bytes };
  }
  self.postMessage(reply, [bytes.buffer]);
});
