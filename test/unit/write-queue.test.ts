import { describe, expect, test } from 'bun:test';
import { WriteQueue, type Turn } from '../../src/engine/write/write-queue';
import { groupMember, joinsGroup, maxGroupBytes, maxGroupWrites } from '../../src/engine/write/push-group';

describe('the write queue of a table', () => {
  test('turns run one at a time in arrival order; a turn takes the writes queued behind it that join, up to the first that does not', async () => {
    // Writes join when they are even: odd ones go alone and keep their place.
    const queue = new WriteQueue<number, string>((_, next) => next % 2 === 0);
    const turns: number[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const turn: Turn<number, string> = async (head, take) => {
      if (head === 1) await gate;
      const group = take();
      turns.push(group);
      return group.map((write) => ({ status: 'fulfilled', value: `w${write}` }));
    };
    const answers = [1, 2, 4, 6, 3, 8, 10].map((write) => queue.enqueue('t', write, turn));
    // Another key does not wait for this one.
    expect(await queue.enqueue('other', 5, turn)).toBe('w5');
    open();
    expect(await Promise.all(answers)).toEqual(['w1', 'w2', 'w4', 'w6', 'w3', 'w8', 'w10']);
    expect(turns).toEqual([[5], [1, 2, 4, 6], [3, 8, 10]]);
  });

  test('a turn that fails before taking its group fails its head alone; one that fails after fails the group', async () => {
    const queue = new WriteQueue<number, number>(() => true);
    let calls = 0;
    const turn: Turn<number, number> = async (head, take) => {
      calls += 1;
      if (calls === 1) throw new Error(`no turn for ${head}`);
      const group = take();
      if (calls === 2) throw new Error('lost');
      return group.map((write) => ({ status: 'fulfilled', value: write }));
    };
    const answers = [1, 2, 3].map((write) => queue.enqueue('t', write, turn).catch((error: Error) => error.message));
    expect(await Promise.all(answers)).toEqual(['no turn for 1', 'lost', 'lost']);
    expect(await queue.enqueue('t', 4, turn)).toBe(4);
  });

  test('each write of a group is answered with its own outcome', async () => {
    const queue = new WriteQueue<number, number>(() => true);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const turn: Turn<number, number> = async (_, take) => {
      await gate;
      return take().map((write) => (write === 2 ? { status: 'rejected', reason: new Error('bad 2') } : { status: 'fulfilled', value: write * 10 }));
    };
    const answers = [1, 2, 3].map((write) => queue.enqueue('t', write, turn).catch((error: Error) => error.message));
    open();
    expect(await Promise.all(answers)).toEqual([10, 'bad 2', 30]);
  });
});

describe('which pushes share a commit', () => {
  const member = (records: Record<string, unknown>[], request: { mode?: 'append' | 'overwrite'; primaryKey?: string[] } = {}) =>
    groupMember({ mode: request.mode ?? 'append', ...(request.primaryKey ? { primaryKey: request.primaryKey } : {}) }, records);

  test('appends of the same kind whose shared fields were inferred alike; a new field joins', () => {
    const group = [member([{ id: 1, name: 'a' }])];
    expect(joinsGroup(group, member([{ id: 2 }, { id: 3, extra: true }]))).toBe(true);
    expect(joinsGroup(group, member([{ id: 2.5 }]))).toBe(false);
    expect(joinsGroup(group, member([{ id: 2, name: 5 }]))).toBe(false);
    expect(joinsGroup(group, member([{ id: 2, name: null }]))).toBe(true);
    expect(joinsGroup([member([{ n: null }])], member([{ n: 1 }]))).toBe(false);
    expect(joinsGroup(group, member([{ ID: 2 }]))).toBe(false);
    expect(joinsGroup(group, member([{ id: 2 }], { primaryKey: ['id'] }))).toBe(false);
    expect(joinsGroup([member([{ id: 1 }], { primaryKey: ['id'] })], member([{ id: 2 }], { primaryKey: ['id'] }))).toBe(true);
  });

  test('overwrites, large pushes and records the inference refuses commit alone', () => {
    expect(member([{ id: 1 }], { mode: 'overwrite' })).toBeUndefined();
    expect(member(Array.from({ length: 1_001 }, (_, id) => ({ id })))).toBeUndefined();
    expect(member([{ text: 'x'.repeat(1024 * 1024) }])).toBeUndefined();
    expect(member([{ a: 1, A: 2 }])).toBeUndefined();
    expect(joinsGroup([member([{ id: 1 }])], undefined)).toBe(false);
    expect(joinsGroup([undefined], member([{ id: 1 }]))).toBe(false);
  });

  test('a group is bounded in pushes and in bytes', () => {
    const small = Array.from({ length: maxGroupWrites }, () => member([{ id: 1 }]));
    expect(joinsGroup(small.slice(0, -1), member([{ id: 2 }]))).toBe(true);
    expect(joinsGroup(small, member([{ id: 2 }]))).toBe(false);
    const large = () => member([{ text: 'x'.repeat(900 * 1024) }]);
    const nearlyFull = Array.from({ length: Math.floor(maxGroupBytes / (900 * 1024)) }, large);
    expect(joinsGroup(nearlyFull, large())).toBe(false);
    expect(joinsGroup(nearlyFull.slice(1), large())).toBe(true);
  });
});
