import { describe, expect, test } from 'bun:test';
import { rendezvous } from '../../src/cluster/rendezvous';
import { ForwardedBody, ForwardingKey, OwnerForwarder, decodeIdentity, encodeIdentity } from '../../src/cluster/forwarding';
import { gzipSync } from 'node:zlib';
import { freePort } from '../../src/process/ports';
import { coalesced } from '../../src/cluster/coalesced';
import { derivedInternalUrl } from '../../src/cluster/internal-address';
import { shardTaskQueue, workspaceTaskQueue } from '../../src/temporal/task-queues';
import { InstanceSlots } from '../../src/engine/instance-slots';
import { instanceBudget } from '../../src/engine/memory-budget';
import { parseByteSize } from '../../src/util/byte-size';

const members = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `member-${i}` }));
const keys = Array.from({ length: 2_000 }, (_, i) => `workspace-${i}`);

describe('rendezvous placement', () => {
  test('every key has one owner, the same whatever order the members are listed in, and the keys spread evenly', () => {
    const three = members(3);
    const owners = keys.map((key) => rendezvous(key, three)!.id);
    expect(keys.map((key) => rendezvous(key, three.toReversed())!.id)).toEqual(owners);
    for (const member of three) expect(owners.filter((owner) => owner === member.id).length).toBeGreaterThan(keys.length / 3 - 150);
    expect(rendezvous('anything', [])).toBeUndefined();
  });

  test('a member that joins takes only keys it wins; one that leaves gives up only its own', () => {
    const before = keys.map((key) => rendezvous(key, members(3))!.id);
    const joined = keys.map((key) => rendezvous(key, members(4))!.id);
    expect(joined.every((owner, i) => owner === before[i] || owner === 'member-3')).toBe(true);
    const left = keys.map(
      (key) =>
        rendezvous(
          key,
          members(3).filter((member) => member.id !== 'member-1'),
        )!.id,
    );
    expect(left.every((owner, i) => before[i] === 'member-1' || owner === before[i])).toBe(true);
  });
});

describe('task queues of the workspaces', () => {
  test('one process alone keeps the queue itself; among workers each workspace has one shard, the same everywhere', () => {
    expect(workspaceTaskQueue('oxbow', 'w1', 1)).toBe('oxbow');
    expect(workspaceTaskQueue('oxbow', undefined, 8)).toBe('oxbow');
    const queues = new Set(keys.map((key) => workspaceTaskQueue('oxbow-query-jobs', key, 4)));
    expect([...queues].sort()).toEqual([0, 1, 2, 3].map((shard) => shardTaskQueue('oxbow-query-jobs', shard)));
    expect(workspaceTaskQueue('oxbow', 'w1', 4)).toBe(workspaceTaskQueue('oxbow', 'w1', 4));
  });
});

describe('forwarding between replicas', () => {
  test('the key derives from the shared secret, is never the secret itself, and is checked whole', () => {
    const key = new ForwardingKey('a shared secret of the deployment, 48 characters');
    expect(key.header).not.toContain('shared');
    expect(key.verify(key.header)).toBe(true);
    expect(key.verify(new ForwardingKey('another deployment entirely, 48 characters long').header)).toBe(false);
    expect(key.verify(key.header.slice(0, -2))).toBe(false);
    expect(key.verify(null)).toBe(false);
    expect(key.verify('x'.repeat(10_000))).toBe(false);
  });

  test('what the forwarding replica established travels as base64url JSON; anything else reads as nothing', () => {
    const identity = { caller: { userId: 'u', via: 'jwt' }, counted: true };
    expect(decodeIdentity(encodeIdentity(identity))).toEqual(identity);
    expect(decodeIdentity('not json at all')).toBeUndefined();
    expect(decodeIdentity(Buffer.from('[1,2]').toString('base64url'))).toBeUndefined();
    expect(decodeIdentity(null)).toBeUndefined();
  });

  test('the internal address is the listener’s own, or the machine’s for a listener on every interface', () => {
    expect(derivedInternalUrl('127.0.0.1', 3000).origin).toBe('http://127.0.0.1:3000');
    expect(derivedInternalUrl('::1', 3001).origin).toBe('http://[::1]:3001');
    expect(derivedInternalUrl('0.0.0.0', 3002).hostname).not.toBe('0.0.0.0');
  });
});

describe('a request body forwarded to the owner', () => {
  const forwarder = new OwnerForwarder(new ForwardingKey('a shared secret of the deployment, 48 characters'));
  const upload = gzipSync(Buffer.from(Array.from({ length: 100_000 }, (_, i) => `${i},row ${i}`).join('\n')));
  /** A client's upload as the replica that took it has it: a stream, and the headers it came with. */
  const received = (chunks: Uint8Array[] = [upload.subarray(0, 70_000), upload.subarray(70_000)]) => ({
    request: new Request('http://replica.internal/api/v1/workspaces/w/push?table=app.t', {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'content-encoding': 'gzip', 'content-length': String(upload.byteLength) },
    }),
    stream: new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  });
  const owner = (port: number) => ({ id: 'owner', role: 'api' as const, address: `http://127.0.0.1:${port}` });

  test('a streamed, compressed upload reaches the owner byte for byte, with its encoding and its declared length', async () => {
    const server = Bun.serve({
      port: 0,
      async fetch(request) {
        const bytes = new Uint8Array(await request.arrayBuffer());
        return Response.json({
          same: Buffer.compare(bytes, upload) === 0,
          length: request.headers.get('content-length'),
          encoding: request.headers.get('content-encoding'),
          forwarded: request.headers.has('x-oxbow-forward-token'),
        });
      },
    });
    try {
      const { request, stream } = received();
      const outcome = await forwarder.forward(request, owner(server.port!), new ForwardedBody(stream, request.headers.get('content-length')), {}, 'r1');
      expect(outcome.kind).toBe('answered');
      expect(outcome.kind === 'answered' && (await outcome.response.json())).toEqual({
        same: true,
        length: String(upload.byteLength),
        encoding: 'gzip',
        forwarded: true,
      });
    } finally {
      await server.stop(true);
    }
  });

  test('a refused connection that read none of the stream leaves it whole for the next try; one that read some may not be tried again', async () => {
    const refused = owner(await freePort());
    const { request, stream } = received();
    const body = new ForwardedBody(stream, request.headers.get('content-length'));
    expect(await forwarder.forward(request, refused, body, {}, 'r2')).toEqual({ kind: 'unreachable', resendable: true });
    // Whole: the replica can still read it itself, every byte.
    expect(Buffer.compare(new Uint8Array(await new Response(stream).arrayBuffer()), upload)).toBe(0);

    const partly = received();
    const started = new ForwardedBody(partly.stream, null);
    // A try that took the first chunk before it failed.
    await (started.next() as ReadableStream<Uint8Array>).getReader().read();
    expect(await forwarder.forward(partly.request, refused, started, {}, 'r3')).toEqual({ kind: 'unreachable', resendable: false });
  });

  test("a stream that fails as it is read (too large, cut short) fails the forward with the stream's own error", async () => {
    const server = Bun.serve({ port: 0, fetch: async (request) => new Response(String((await request.arrayBuffer()).byteLength)) });
    try {
      const tooLarge = new Error('larger than the limit');
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.error(tooLarge);
        },
      });
      const { request } = received();
      const failure = await forwarder.forward(request, owner(server.port!), new ForwardedBody(stream, null), {}, 'r4').then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBe(tooLarge);
    } finally {
      await server.stop(true);
    }
  });
});

describe('coalesced notices', () => {
  test('the first at once, then one more at the end of the quiet time however many were asked for', async () => {
    const sent: string[] = [];
    const ask = coalesced((key) => sent.push(key), 50);
    for (let i = 0; i < 10; i++) ask('w1');
    ask('w2');
    expect(sent).toEqual(['w1', 'w2']);
    await Bun.sleep(120);
    expect(sent).toEqual(['w1', 'w2', 'w1']);
  });
});

describe('instance slots', () => {
  test('a taker waits for a slot given back, in turn; one whose deadline passes is refused', async () => {
    const asked: number[] = [];
    const slots = new InstanceSlots(1, (wanted) => asked.push(wanted));
    await slots.take(performance.now() + 1_000, () => new Error('late'));
    const refused = slots.take(performance.now() + 50, () => new Error('late')).catch((error: Error) => error.message);
    const second = slots.take(performance.now() + 1_000, () => new Error('late'));
    expect(asked).toEqual([1, 2]);
    expect(await refused).toBe('late');
    slots.give();
    await second;
    expect(slots.inUse).toBe(1);
    slots.give();
    expect(slots.inUse).toBe(0);
  });

  test('their number is DUCKDB_MAX_INSTANCES, fewer when their memory limits would pass the budget, never none', () => {
    expect(parseByteSize('1GB')).toBe(1e9);
    expect(parseByteSize('512 MiB')).toBe(512 * 2 ** 20);
    expect(parseByteSize('lots')).toBeUndefined();
    expect(instanceBudget({ maxInstances: 16, memoryLimit: '1GB', budget: '64GB', reservedBytes: 0 })).toMatchObject({ instances: 16, limitedByMemory: false });
    expect(instanceBudget({ maxInstances: 16, memoryLimit: '1GB', budget: '8GB', reservedBytes: 2e9 })).toMatchObject({ instances: 6, limitedByMemory: true });
    expect(instanceBudget({ maxInstances: 16, memoryLimit: '4GB', budget: '1GB', reservedBytes: 0 }).instances).toBe(1);
  });
});
