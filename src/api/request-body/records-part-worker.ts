// The thread that reads the second part of a large push's records, and writes it to its file meanwhile (see parallel-records.ts).
import { writeFile } from 'node:fs/promises';
import { readRecordsPart } from './records-part';
import type { PartReply, PartRequest } from './parallel-records';

declare const self: Worker;

self.addEventListener('message', async (event: MessageEvent<PartRequest>) => {
  const { id, bytes, file } = event.data;
  const written = writeFile(file, bytes).then(
    () => true,
    () => false,
  );
  let read: PartReply['read'];
  try {
    read = readRecordsPart(bytes);
  } catch {
    read = undefined;
  }
  // Answered once the file is written: a part that does not read has its file removed after this.
  self.postMessage({ id, read: (await written) ? read : undefined } satisfies PartReply);
});
