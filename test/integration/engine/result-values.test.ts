import { describe, expect, test } from 'bun:test';
import { encodeChunkRows, type JsonValue } from '../../../src/engine/sql/encode-values';
import { memoryDuckDB } from '../../support/memory-duckdb';

/**
 * The documented rule: a decimal of at most 15 significant digits is the number its digits parse to,
 * any other its exact digits, with a zero before the point (DuckDB's own text of DECIMAL(18,18) leaves it out).
 */
function documented(duckdbText: string): number | string {
  const text = duckdbText.replace(/^(-?)\./, '$10.');
  const significant = text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return significant.length <= 15 ? Number(text) : text;
}

/** Digits of a value that fits DECIMAL(width, scale), with a few of every length. */
function decimalTexts(width: number, scale: number, count: number, random: () => number): string[] {
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    const length = 1 + Math.floor(random() * width);
    let digits = '';
    for (let position = 0; position < length; position++) digits += String(Math.floor(random() * 10));
    // Some values end in zeros, which do not count as significant digits.
    if (random() < 0.2) digits = digits.slice(0, Math.max(1, length - 4)).padEnd(length, '0');
    const padded = digits.padStart(scale + 1, '0');
    const text = scale > 0 ? `${padded.slice(0, padded.length - scale)}.${padded.slice(-scale)}` : padded;
    texts.push(random() < 0.5 ? `-${text}` : text);
  }
  return texts;
}

/** Values on either side of 15 significant digits, at every scale the type allows. */
function boundaryTexts(width: number, scale: number): string[] {
  const texts: string[] = [];
  for (const digits of ['999999999999999', '1000000000000000', '999999999999999000', '123456789012345', '1234567890123456', '1', '0']) {
    if (digits.length > width) continue;
    const padded = digits.padStart(scale + 1, '0');
    const text = scale > 0 ? `${padded.slice(0, padded.length - scale)}.${padded.slice(-scale)}` : padded;
    texts.push(text, `-${text}`);
  }
  return texts;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('result values', () => {
  const connection = memoryDuckDB();

  async function encoded(sql: string): Promise<JsonValue[][]> {
    const result = await connection().run(sql);
    const rows: JsonValue[][] = [];
    for (let index = 0; index < result.chunkCount; index++) rows.push(...encodeChunkRows(result.getChunk(index)));
    return rows;
  }

  const types: [width: number, scale: number][] = [
    [4, 1],
    [9, 3],
    [15, 2],
    [18, 0],
    [18, 6],
    [18, 18],
    [38, 0],
    [38, 2],
    [38, 10],
    [38, 30],
  ];

  for (const [width, scale] of types) {
    test(`DECIMAL(${width},${scale}) comes back as its digits parse, or as its digits`, async () => {
      const texts = [...boundaryTexts(width, scale), ...decimalTexts(width, scale, 400, seeded(width * 100 + scale))];
      const values = texts.map((text) => `('${text}')`).join(', ');
      const rows = await encoded(
        `SELECT CAST(t AS DECIMAL(${width},${scale})) AS d, CAST(CAST(t AS DECIMAL(${width},${scale})) AS VARCHAR) AS text FROM (VALUES ${values}, (NULL)) v(t)`,
      );
      expect(rows).toHaveLength(texts.length + 1);
      const wrong = rows.filter(([value, text]) => (text === null ? value !== null : !Object.is(value, documented(String(text)))));
      expect(wrong).toEqual([]);
    });
  }

  test('a decimal of up to 15 digits is a number, of more its exact text', async () => {
    const rows = await encoded(
      'SELECT 12345.67::DECIMAL(38,2), -0.1::DECIMAL(18,6), 9999999999999.99::DECIMAL(15,2), 1234567890123456.7::DECIMAL(38,1), 100000000000000000000::DECIMAL(38,0)',
    );
    expect(rows).toEqual([[12345.67, -0.1, 9999999999999.99, '1234567890123456.7', 100000000000000000000]]);
  });

  test('texts, integers and nulls of every column come back in their rows', async () => {
    const rows = await encoded(
      "SELECT i, 'name ' || i AS name, CASE WHEN i % 3 = 0 THEN NULL ELSE i * 2 END AS twice, i::BIGINT * 1000000000000 AS big FROM range(5000) r(i)",
    );
    expect(rows).toHaveLength(5000);
    expect(rows[0]).toEqual([0, 'name 0', null, 0]);
    expect(rows[4999]).toEqual([4999, 'name 4999', 9998, 4999000000000000]);
    expect(rows.filter(([i, name, twice]) => name !== `name ${i}` || twice !== (Number(i) % 3 === 0 ? null : Number(i) * 2))).toEqual([]);
  });
});
