import { DuckDBDecimalValue } from '@duckdb/node-api';

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);
// Any decimal of up to 15 significant digits survives the trip through a double and back unchanged.
const exactDecimalDigits = 15;
/** 10^0 to 10^22: every one of them a double exactly. */
const exactPowersOfTen = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
const exactDecimalBound = 10 ** exactDecimalDigits;

/** An integer as a number while JSON can hold it exactly (±2^53), as its digits beyond. */
export function integerJson(value: bigint | number): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const big = typeof value === 'bigint' ? value : BigInt(value);
  return big <= maxSafe && big >= -maxSafe ? Number(big) : big.toString();
}

/**
 * A decimal, given as its scaled integer, as a number when a double holds it exactly, as its exact
 * digits beyond (DECIMAL(38) and the like). A scaled integer given as a number must be exact.
 */
export function decimalJson(scaled: bigint | number, width: number, scale: number): number | string {
  if (scale < exactPowersOfTen.length) {
    // Below 10^15 the scaled integer has at most 15 significant digits and is a double exactly, as
    // is 10^scale, so their quotient (rounded once, as IEEE division is) is the double its digits parse to.
    const integer = Number(scaled);
    if (Math.abs(integer) < exactDecimalBound) return integer / exactPowersOfTen[scale]!;
  }
  const text = new DuckDBDecimalValue(BigInt(scaled), width, scale).toString();
  const significant = text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return significant.length <= exactDecimalDigits ? Number(text) : text;
}

/** Doubles as numbers; NaN and the infinities, which JSON has no number for, as their names. */
export function floatJson(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

/**
 * A real (single precision) as the fewest digits that read back as the same real, as Postgres
 * shows it (`'3.14'::real` is 3.14, not the 3.140000104904175 its widening to a double spells).
 */
export function realJson(value: number): number | string {
  if (!Number.isFinite(value)) return String(value);
  for (let digits = 1; digits < 9; digits += 1) {
    const shortest = Number(value.toPrecision(digits));
    if (Math.fround(shortest) === value) return shortest;
  }
  return Number(value.toPrecision(9));
}
