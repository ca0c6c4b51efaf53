import { describe, expect, test } from 'bun:test';
import { ColumnInference } from '../../src/engine/write/infer-schema';
import { readRecordsInParallel } from '../../src/api/request-body/parallel-records';

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

const values: readonly unknown[] = [
  1,
  -4,
  2.5,
  -0,
  2 ** 60,
  true,
  false,
  null,
  '2026-11-21',
  '2026-11-21T10:00:00Z',
  '2026-02-30',
  'text',
  '',
  '},{"a":1}',
  { a: 1, b: [1, { c: '},{' }] },
  [1, 'x'],
];
const names = ['a', 'b', 'A', 'c', 'when', 'Ünïcode', 'x y'];

function randomRecords(count: number, fields = names, pool = values): Record<string, unknown>[] {
  return Array.from({ length: count }, () => Object.fromEntries(fields.filter(() => random() < 0.5).map((name) => [name, pick(pool)])));
}

function sequential(records: Record<string, unknown>[]): ColumnInference {
  const inference = new ColumnInference();
  records.forEach((record, index) => inference.add(record, index));
  return inference;
}

/** What an inference tells the write: its columns (or the refusal), which hold only text, and whether -0 was seen. */
function findings(inference: ColumnInference) {
  let columns: unknown;
  try {
    columns = inference.columns();
  } catch (error) {
    columns = String(error);
  }
  const fields = inference.state().types.map(([name]) => name);
  return { columns, onlyText: fields.filter((name) => inference.onlyText(name)), negativeZero: inference.sawNegativeZero };
}

describe('an inference read in parts and merged', () => {
  test('is the inference of the records in one run, or none', () => {
    let merged = 0;
    for (let round = 0; round < 3000; round++) {
      const records = randomRecords(1 + Math.floor(random() * 12));
      const at = Math.floor(random() * (records.length + 1));
      const parts = [sequential(records.slice(0, at)).state(), sequential(records.slice(at)).state()];
      const inference = ColumnInference.merged(parts);
      if (!inference) continue;
      merged++;
      expect(findings(inference)).toEqual(findings(sequential(records)));
    }
    expect(merged).toBeGreaterThan(300);
  });

  test('scalars under names that never clash always merge', () => {
    const scalars = values.filter((value) => value === null || typeof value !== 'object');
    for (let round = 0; round < 2000; round++) {
      const records = randomRecords(1 + Math.floor(random() * 12), ['a', 'b', 'c', 'when'], scalars);
      const at = Math.floor(random() * (records.length + 1));
      const inference = ColumnInference.merged([sequential(records.slice(0, at)).state(), sequential(records.slice(at)).state()]);
      expect(inference).toBeDefined();
      expect(findings(inference!)).toEqual(findings(sequential(records)));
    }
  });

  test('none where the order of the values decides: JSON meeting other values, names clashing across parts', () => {
    // One run: 1 and true make text, which an object then leaves text; the object first would make JSON of all three.
    const records = [{ v: 1 }, { v: true }, { v: { a: 1 } }];
    expect(ColumnInference.merged([sequential(records.slice(0, 1)).state(), sequential(records.slice(1)).state()])).toBeUndefined();
    expect(ColumnInference.merged([sequential([{ Name: 'a' }]).state(), sequential([{ name: 'b' }]).state()])).toBeUndefined();
    expect(ColumnInference.merged([sequential([{ '': 1 }]).state(), sequential([{ a: 1 }]).state()])).toBeUndefined();
  });
});

describe('records read on two threads', () => {
  const encoder = new TextEncoder();
  /** The records of the text read on two threads as JSON.parse and one run of inference read them; undefined when not read so. */
  const readAsOneRun = async (text: string) => {
    const read = await readRecordsInParallel(encoder.encode(text));
    if (!read) return undefined;
    const records = JSON.parse(text) as Record<string, unknown>[];
    expect(read.count).toBe(records.length);
    expect(findings(read.inference)).toEqual(findings(sequential(records)));
    return read;
  };
  const expectRead = async (text: string) => expect(await readAsOneRun(text)).toBeDefined();

  test('read as in one run, however the records are spaced and whatever their texts hold', async () => {
    for (let round = 0; round < 20; round++) {
      const records = randomRecords(200 + Math.floor(random() * 400), ['a', 'b', 'c', 'when'], values);
      const spaced = `[\n${records.map((record) => JSON.stringify(record, null, round % 3)).join(pick([',', ' ,\n', ',\r\n\t']))}\n]`;
      // Some merges cannot be told from the parts (JSON among other values): then nothing is read.
      await readAsOneRun(spaced);
    }
    const plain = Array.from({ length: 5000 }, (_, i) => ({ i, s: `row ${i}`, when: '2026-11-21T10:00:00Z', x: i / 4 }));
    await expectRead(JSON.stringify(plain));
  });

  test('a boundary that only looks like one (in a text, between nested objects) is never taken', async () => {
    const tricky = Array.from({ length: 2000 }, (_, i) => ({ i, s: '},{"i":0}', nested: [{ a: i }, { b: '},{' }] }));
    await expectRead(JSON.stringify(tricky));
    await expectRead(
      JSON.stringify(
        tricky.map((record) => ({ ...record, when: '2026-11-21' })),
        null,
        2,
      ),
    );
    // Nested objects that begin as the records do: a split between two of them does not read, and nothing is read.
    const alike = Array.from({ length: 2000 }, (_, i) => ({ i, nested: [{ i: 1 }, { i: 2 }] }));
    await readAsOneRun(JSON.stringify(alike));
    // One long record: the middle falls inside it, and no boundary follows.
    expect(await readRecordsInParallel(encoder.encode(JSON.stringify([{ s: 'x'.repeat(100_000) }])))).toBeUndefined();
  });

  test('nothing is read from records that do not read cleanly: the body is then read whole', async () => {
    const good = Array.from({ length: 2000 }, (_, i) => `{"i":${i}}`);
    const with_ = (index: number, text: string) => `[${good.map((record, i) => (i === index ? text : record)).join(',')}]`;
    for (const bad of [
      '5',
      'null',
      '[1]',
      '{"s":"\\ud800"}',
      '{"s":"a\\u0000"}',
      '{"n":1e400}',
      '{"I":1}',
      '{"i":}',
      `{"d":${'['.repeat(120)}${']'.repeat(120)}}`,
    ]) {
      for (const index of [10, 1500]) expect(await readRecordsInParallel(encoder.encode(with_(index, bad)))).toBeUndefined();
    }
  });
});
