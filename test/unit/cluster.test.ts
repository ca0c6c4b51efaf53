import { describe, expect, test } from 'bun:test';
import { rendezvous } from '../../src/cluster/rendezvous';
import { ForwardingKey, decodeIdentity, encodeIdentity } from '../../src/cluster/forwarding';
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
    const left = keys.map((key) => rendezvous(key, members(3).filter((member) => member.id !== 'member-1'))!.id);
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
