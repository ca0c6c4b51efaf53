import { describe, expect, test } from 'bun:test';
import { NdjsonRecords } from '../../src/api/request-body/ndjson-records';
import { maxRecordBytes } from '../../src/engine/write/file-source';
import { RequestValidationError } from '../../src/errors/app-error';
import { RecordsRejected } from '../../src/engine/write/write-errors';

const encoder = new TextEncoder();

/** What reading the body in these chunks gives: its columns and count, or the error it is refused with. */
function read(body: Uint8Array, cuts: number[]): unknown {
  const records = new NdjsonRecords();
  try {
    let from = 0;
    for (const cut of [...cuts, body.byteLength]) {
      records.write(body.subarray(from, cut));
      from = cut;
    }
    return records.end();
  } catch (error) {
    if (error instanceof RequestValidationError) return { refused: error.issues };
    if (error instanceof RecordsRejected) return { rejected: error.issues };
    throw error;
  }
}

function randomCuts(length: number, random: () => number): number[] {
  const cuts = new Set<number>();
  const count = Math.floor(random() * 12);
  for (let i = 0; i < count; i++) cuts.add(Math.floor(random() * length));
  return [...cuts].sort((a, b) => a - b);
}

describe('a newline-delimited body read as it arrives', () => {
  const bodies: Record<string, string | Uint8Array> = {
    plain: '{"id":1,"name":"ann","at":"2026-11-21T10:00:00Z"}\n{"id":2.5,"name":"bob"}\n',
    'multi-byte texts, a byte-order mark, CRLF and blank lines': '\ufeff{"t":"é日本😀"}\r\n\r\n  \n{"t":"\\u00e9","n":null}\r\n{"t":"😀😀"}',
    'no newline at the end': '{"a":1}\n{"a":[1,{"b":"x"}]}',
    'a line that is no JSON': '{"a":1}\n{"a":\n{"a":3}\n',
    'a line that is no object': '{"a":1}\n[1,2]\n',
    'a lone surrogate spelled as an escape': '{"a":"x"}\n{"a":"\\ud800"}\n',
    'a name that clashes in case': '{"a":1}\n{"A":2}\n',
    'only blank lines': '\n\r\n   \n',
    'not UTF-8': new Uint8Array([...encoder.encode('{"a":"'), 0xc3, 0x28, ...encoder.encode('"}\n')]),
    'cut inside a character at its end': new Uint8Array([...encoder.encode('{"a":"x"}\n{"a":"'), 0xe6, 0x97]),
  };

  for (const [name, text] of Object.entries(bodies)) {
    test(`${name}: the same answer however the body is cut`, () => {
      const body = typeof text === 'string' ? encoder.encode(text) : text;
      const whole = read(body, []);
      let seed = 11;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      for (let round = 0; round < 300; round++) expect(read(body, randomCuts(body.byteLength, random))).toEqual(whole);
      // Byte by byte, too.
      expect(
        read(
          body,
          Array.from({ length: body.byteLength }, (_, i) => i),
        ),
      ).toEqual(whole);
    });
  }

  test('the columns and count of the records', () => {
    expect(read(encoder.encode(bodies.plain as string), [])).toEqual({
      columns: [
        { name: 'id', type: 'DOUBLE' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'at', type: 'TIMESTAMPTZ' },
      ],
      records: 2,
    });
    expect(read(encoder.encode(bodies['multi-byte texts, a byte-order mark, CRLF and blank lines'] as string), [5, 9])).toMatchObject({ records: 3 });
  });

  test('a line longer than a record may be is refused before it ends, whatever it holds', () => {
    const records = new NdjsonRecords();
    records.write(encoder.encode('{"a":1}\n{"a":"'));
    const piece = encoder.encode('é'.repeat(64 * 1024));
    expect(() => {
      for (let sent = 0; sent < 4 * maxRecordBytes; sent += piece.byteLength) records.write(piece);
    }).toThrow(`Line 2 is longer than ${maxRecordBytes} bytes`);
  });

  test('a line of at most that many characters is read, one of more refused once it ends', () => {
    const line = (characters: number) => `{"a":"${'x'.repeat(characters - 8)}"}`;
    expect(read(encoder.encode(`${line(maxRecordBytes)}\n`), [1000])).toMatchObject({ records: 1 });
    expect(read(encoder.encode(`${line(maxRecordBytes + 1)}\n`), [1000])).toEqual({
      refused: [expect.objectContaining({ loc: ['body', 0], type: 'too_long' })],
    });
  });
});
