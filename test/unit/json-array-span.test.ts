import { describe, expect, test } from 'bun:test';
import { jsonArrayMemberSpan, jsonArrayMemberSpanUnparsed } from '../../src/api/request-body/json-array-span';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The body as the push parses it (a leading byte-order mark dropped). */
const parse = (body: string) => JSON.parse(body.replace(/^\ufeff/, '')) as Record<string, unknown>;

/** The span of `records` in a body, as text; undefined when none was told. */
function spanOf(body: string): string | undefined {
  const parsed = parse(body);
  const span = jsonArrayMemberSpan(encoder.encode(body), 'records', Object.keys(parsed).length);
  return span && decoder.decode(span);
}

/**
 * What the push relies on: a span, when there is one, reads as the records JSON.parse kept, or is no
 * JSON text at all (a reader refuses it and the push writes the parsed records instead).
 */
function expectSafe(body: string): 'read' | 'refused' | 'none' {
  const span = spanOf(body);
  if (span === undefined) return 'none';
  let read: unknown;
  try {
    read = JSON.parse(span);
  } catch {
    return 'refused';
  }
  expect(read).toEqual(parse(body).records);
  return 'read';
}

describe('the records of a push body, found in its text', () => {
  test('wherever the member stands, however the body is spaced', () => {
    const records = '[{"a":1,"b":"x ] } \\" \\\\"},\n  {"a":[1,[2,{"c":"]"}]],"b":null}]';
    const bodies = [
      `{"table":"s.t","records":${records}}`,
      `{"records":${records},"table":"s.t"}`,
      `{ "mode" : "append" , "records" :\t${records} ,\r\n "table":"s.t", "primary_key": ["a", "b\\"]"] }\n`,
      `\ufeff{"table":"s.t","records":${records}}`,
      `{"table":"s.t","x":{"records":[1]},"records":${records},"y":[{"records":"]"}],"z":-1.5e3,"w":true}`,
    ];
    for (const body of bodies) {
      expect(spanOf(body)).toBe(records);
      expectSafe(body);
    }
  });

  test('nothing, or nothing a reader takes, where the text could mislead', () => {
    const misleading = [
      // JSON.parse keeps the last of two members of one name.
      '{"table":"s.t","records":[{"a":1}],"records":[{"a":2}]}',
      '{"records":[{"a":1}],"table":"s.t","records":[{"a":2}]}',
      '{"records":[{"a":1}],"rec\\u006frds":[{"a":2}]}',
      '{"rec\\u006frds":[{"a":2}],"records":[{"a":1}]}',
      '{"table":"s.t","table":"s.t","records":[{"a":1}],"mode":"append"}',
      '{"table":"s.t","records":[{"a":1}],"mode":"append","mode":"overwrite"}',
      // Integer-like names come first in Object.keys, whatever their place in the text.
      '{"records":[{"a":1}],"1":2}',
      '{"table":"s.t","records":"not an array"}',
      '{"table":"s.t"}',
      '[1,2]',
    ];
    for (const body of misleading) expectSafe(body);
    expect(spanOf('{"table":"s.t","records":[{"a":1}],"records":[{"a":2}]}')).not.toBe('[{"a":2}]');
  });

  test('members around it longer than the scan are not read: no span', () => {
    const long = 'x'.repeat(140 * 1024);
    expect(spanOf(`{"note":"${long}","records":[{"a":1}]}`)).toBeUndefined();
    expect(spanOf(`{"records":[{"a":1}],"note":"${long}"}`)).toBeUndefined();
    // The records themselves may be as long as they like.
    const records = `[${Array.from({ length: 5000 }, (_, i) => `{"i":${i},"s":"${'y'.repeat(30)}"}`).join(',')}]`;
    expect(spanOf(`{"table":"s.t","records":${records}}`)).toBe(records);
  });

  test('random bodies: every span found reads as the records', () => {
    const outcomes = { read: 0, refused: 0, none: 0 };
    for (const body of randomBodies(2000)) outcomes[expectSafe(body)]++;
    // Many bodies are plain enough to tell; some name `records` twice, which no reader may take.
    expect(outcomes.read).toBeGreaterThan(200);
    expect(outcomes.refused).toBeGreaterThan(10);
  });
});

/** Bodies of every layout a push may have: members in any order, named twice, spaced anyhow, nested values that look like members. */
function randomBodies(count: number): string[] {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const space = () => pick(['', ' ', '\n', '\t', ' \r\n ']);
  const scalars = ['1', '-0.0', '1e5', 'true', 'null', '"a]"', '"\\""', '"\\\\"', '"}{"', '""', '"],\\"records\\":["'];
  const value = (depth: number): string => {
    if (depth > 2 || random() < 0.5) return pick(scalars);
    const items = Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
    return random() < 0.5 ? `[${items.join(`,${space()}`)}]` : `{${items.map((item, i) => `"k${i}":${space()}${item}`).join(',')}}`;
  };
  return Array.from({ length: count }, () => {
    const names = ['table', 'mode', 'records', 'primary_key', 'extra', 'records', '0', 'rec\\u006frds'].filter(() => random() < 0.7);
    if (!names.includes('records')) names.push('records');
    const members = names.map(
      (name) => `${space()}"${name}"${space()}:${space()}${name === 'records' || random() < 0.3 ? `[${value(0)},${value(0)}]` : value(0)}${space()}`,
    );
    return `${space()}{${members.join(',')}}${space()}`;
  });
}

describe('the records of a push body not parsed yet, found in its text', () => {
  /**
   * What a large push relies on: when the span reads as an array, and the body with `[]` in its place
   * reads as an object whose records are that `[]`, the body reads as that object holding the span's
   * records; a span that misleads reads as no array at all.
   */
  function taken(body: string): 'read' | 'refused' | 'none' {
    const bytes = encoder.encode(body);
    const span = jsonArrayMemberSpanUnparsed(bytes, 'records');
    if (!span) return 'none';
    const around = decoder.decode(bytes.subarray(0, span.start)) + '[]' + decoder.decode(bytes.subarray(span.end + 1));
    let records: unknown;
    let members: Record<string, unknown>;
    try {
      records = JSON.parse(decoder.decode(bytes.subarray(span.start, span.end + 1)));
      members = JSON.parse(around) as Record<string, unknown>;
    } catch {
      return 'refused';
    }
    if (!Array.isArray(records) || !Array.isArray(members.records) || members.records.length > 0) return 'refused';
    expect(parse(body)).toEqual({ ...members, records });
    return 'read';
  }

  test('wherever the member stands, however the body is spaced', () => {
    const records = '[{"a":1,"b":"x ] } \\" \\\\"},\n  {"a":[1,[2,{"c":"]"}]],"b":null}]';
    for (const body of [
      `{"table":"s.t","records":${records}}`,
      `{"records":${records},"table":"s.t","mode":"overwrite"}`,
      `{ "mode" : "append" , "records" :\t${records} ,\r\n "table":"s.t", "primary_key": ["a", "b\\"]"] }\n`,
      `{"records":${records},"extra":[[1],{"records":[]}],"table":"s.t"}`,
    ]) {
      expect(taken(body)).toBe('read');
    }
  });

  test('random bodies: every span taken reads as the body', () => {
    const outcomes = { read: 0, refused: 0, none: 0 };
    for (const body of randomBodies(3000)) outcomes[taken(body)]++;
    expect(outcomes.read).toBeGreaterThan(300);
    expect(outcomes.refused).toBeGreaterThan(10);
  });
});
