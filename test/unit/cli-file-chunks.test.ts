import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunksOf, formatOfName, type PushFormat } from '../../cli/src/push/file-chunks';

const dir = mkdtempSync(join(tmpdir(), 'oxbow-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function chunks(name: string, content: string | Uint8Array, format: PushFormat, gzip: boolean, rows: number, bytes = 1e9) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const out: { text: string; rows: number | undefined }[] = [];
  for await (const chunk of chunksOf(path, format, gzip, { rows, bytes }))
    out.push({ text: new TextDecoder().decode(chunk.body instanceof Blob ? await chunk.body.arrayBuffer() : chunk.body), rows: chunk.rows });
  return out;
}

describe('the CLI’s chunks of a file', () => {
  test('NDJSON: whole lines, blank ones dropped, a last line without a newline kept', async () => {
    expect(await chunks('a.ndjson', '{"a":1}\n\n{"a":2}\r\n{"a":3}\n{"a":4}', 'ndjson', false, 3)).toEqual([
      { text: '{"a":1}\n{"a":2}\r\n{"a":3}\n', rows: 3 },
      { text: '{"a":4}\n', rows: 1 },
    ]);
  });

  test('CSV: every chunk starts with the header, and a quoted line break stays inside its record', async () => {
    const csv = 'id,text\n1,"one\nline"\n2,"say ""hi"""\n3,x\n';
    expect(await chunks('b.csv', csv, 'csv', false, 2)).toEqual([
      { text: 'id,text\n1,"one\nline"\n2,"say ""hi"""\n', rows: 2 },
      { text: 'id,text\n3,x\n', rows: 1 },
    ]);
  });

  test('a byte limit cuts sooner than the row limit; gzip files are unpacked; the same input gives the same chunks', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(20) })).join('\n');
    const plain = await chunks('c.ndjson', lines, 'ndjson', false, 1000, 200);
    expect(plain.length).toBeGreaterThan(5);
    expect(plain.reduce((sum, chunk) => sum + (chunk.rows ?? 0), 0)).toBe(50);
    expect(await chunks('c.ndjson.gz', Bun.gzipSync(lines), 'ndjson', true, 1000, 200)).toEqual(plain);
  });

  test('file names say the format', () => {
    expect(formatOfName('x/events.jsonl.gz')).toEqual({ format: 'ndjson', gzip: true });
    expect(formatOfName('PEOPLE.CSV')).toEqual({ format: 'csv', gzip: false });
    expect(formatOfName('sales.pq')).toEqual({ format: 'parquet', gzip: false });
    expect(formatOfName('data.json')).toEqual({ format: undefined, gzip: false });
  });
});
