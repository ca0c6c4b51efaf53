/**
 * Postgres datetime templates (`to_char`, `to_timestamp`, `to_date`) in DuckDB terms. Most fields
 * have a strftime code; the rest become small expressions over the value. A template holding a
 * field neither can express (Roman numerals, TH suffixes, Julian days…) is not translated at all.
 */

export type FormatPiece =
  | { kind: 'text'; text: string }
  | { kind: 'code'; code: string }
  /** An expression over the formatted value, given as SQL text; the strptime code that reads it back, if any. */
  | { kind: 'expr'; build(value: string): string; parse?: string };

type Field = (fillMode: boolean) => FormatPiece;

const code =
  (padded: string, unpadded = padded): Field =>
  (fill) => ({ kind: 'code', code: fill ? unpadded : padded });
const expr =
  (build: (value: string, fill: boolean) => string): Field =>
  (fill) => ({ kind: 'expr', build: (value) => build(value, fill) });
// Postgres pads month and day names to the longest name (9 characters) unless FM is given.
const named =
  (strftimeCode: string, casing: 'upper' | 'lower' | null, pad: boolean): Field =>
  (fill) => ({
    kind: 'expr',
    build: (value) => {
      const name = `strftime(${value}, '${strftimeCode}')`;
      const cased = casing ? `${casing}(${name})` : name;
      return pad && !fill ? `rpad(${cased}, 9, ' ')` : cased;
    },
    // Names are read back whatever their case and padding.
    parse: strftimeCode,
  });
/** A numeric field zero-padded to `width` digits unless FM is given. */
const number = (sql: (value: string) => string, width: number): Field =>
  expr((value, fill) => (fill || width === 1 ? `CAST(${sql(value)} AS VARCHAR)` : `lpad(CAST(${sql(value)} AS VARCHAR), ${width}, '0')`));

type Pattern = readonly [spelling: string, field: Field | null, caseSensitive: boolean];

// Postgres distinguishes MONTH, Month and month (and the like); the other fields ignore case.
const sensitive = (spelling: string, field: Field): Pattern => [spelling, field, true];
const insensitive = (spelling: string, field: Field | null): Pattern => [spelling, field, false];
const secondsOfDay = (v: string) => `CAST(epoch(${v}) - epoch(date_trunc('day', ${v})) AS BIGINT)`;

/** Every template field Postgres knows; a null field has no translation and abandons the template. */
const patterns: readonly Pattern[] = [
  sensitive('MONTH', named('%B', 'upper', true)),
  sensitive('Month', named('%B', null, true)),
  sensitive('month', named('%B', 'lower', true)),
  sensitive('MON', named('%b', 'upper', false)),
  sensitive('Mon', named('%b', null, false)),
  sensitive('mon', named('%b', 'lower', false)),
  sensitive('DAY', named('%A', 'upper', true)),
  sensitive('Day', named('%A', null, true)),
  sensitive('day', named('%A', 'lower', true)),
  sensitive('DY', named('%a', 'upper', false)),
  sensitive('Dy', named('%a', null, false)),
  sensitive('dy', named('%a', 'lower', false)),
  sensitive('AM', code('%p')),
  sensitive('PM', code('%p')),
  sensitive('am', named('%p', 'lower', false)),
  sensitive('pm', named('%p', 'lower', false)),
  insensitive('HH24', code('%H', '%-H')),
  insensitive('HH12', code('%I', '%-I')),
  insensitive('HH', code('%I', '%-I')),
  insensitive('MI', code('%M', '%-M')),
  insensitive('SS', code('%S', '%-S')),
  insensitive('SSSS', number(secondsOfDay, 1)),
  insensitive('SSSSS', number(secondsOfDay, 1)),
  insensitive('MS', code('%g')),
  insensitive('US', code('%f')),
  insensitive('FF3', code('%g')),
  insensitive('FF6', code('%f')),
  insensitive('IYYY', code('%G')),
  insensitive('YYYY', code('%Y')),
  insensitive('YY', code('%y', '%-y')),
  insensitive('MM', code('%m', '%-m')),
  insensitive('DDD', code('%j', '%-j')),
  insensitive('DD', code('%d', '%-d')),
  insensitive('ID', code('%u')),
  insensitive('IW', code('%V', '%-V')),
  insensitive(
    'WW',
    number((v) => `((dayofyear(${v}) - 1) // 7 + 1)`, 2),
  ),
  insensitive(
    'W',
    number((v) => `((day(${v}) - 1) // 7 + 1)`, 1),
  ),
  insensitive(
    'CC',
    number((v) => `century(${v})`, 2),
  ),
  insensitive(
    'Q',
    number((v) => `quarter(${v})`, 1),
  ),
  insensitive(
    'D',
    number((v) => `(dayofweek(${v}) + 1)`, 1),
  ),
  // The offset from UTC in the session's time zone: +00, +05:30.
  insensitive('OF', code('%z')),
  ...[
    'Y,YYY',
    'YYY',
    'IYY',
    'IY',
    'I',
    'Y',
    'RM',
    'J',
    'TZH',
    'TZM',
    'TZ',
    'BC',
    'AD',
    'B.C.',
    'A.D.',
    'A.M.',
    'P.M.',
    'FF1',
    'FF2',
    'FF4',
    'FF5',
    'TH',
    'TM',
    'FX',
    'IDDD',
  ].map((spelling) => insensitive(spelling, null)),
];

export function parseDatetimeFormat(template: string): FormatPiece[] | null {
  const pieces: FormatPiece[] = [];
  let i = 0;
  while (i < template.length) {
    const rest = template.slice(i);
    if (rest.startsWith('"')) {
      const close = quotedTextEnd(template, i);
      pieces.push({ kind: 'text', text: template.slice(i + 1, close).replace(/\\(.)/g, '$1') });
      i = close + 1;
      continue;
    }
    const fill = /^FM/i.test(rest);
    const body = fill ? rest.slice(2) : rest;
    const pattern = longestMatch(body);
    if (pattern && !pattern[1]) return null;
    if (pattern) {
      pieces.push(pattern[1]!(fill));
      i += (fill ? 2 : 0) + pattern[0].length;
    } else if (fill) {
      return null;
    } else {
      pieces.push({ kind: 'text', text: rest[0]! });
      i += 1;
    }
  }
  return pieces;
}

/** Longer than any field's spelling: what longestMatch needs to see of the rest of the template. */
const longestSpelling = 8;

function longestMatch(rest: string): Pattern | null {
  let best: Pattern | null = null;
  // Only the next few characters: upper-casing the whole rest at every position would be quadratic.
  const body = rest.slice(0, longestSpelling);
  const upper = body.toUpperCase();
  for (const pattern of patterns) {
    const [spelling, , caseSensitive] = pattern;
    const matches = caseSensitive ? body.startsWith(spelling) : upper.startsWith(spelling.toUpperCase());
    if (matches && (!best || spelling.length > best[0].length)) best = pattern;
  }
  return best;
}

function quotedTextEnd(template: string, open: number): number {
  for (let j = open + 1; j < template.length; j += 1) {
    if (template[j] === '\\') j += 1;
    else if (template[j] === '"') return j;
  }
  return template.length;
}

/**
 * A strftime template for a run of code and text pieces; `%` in text is escaped. For reading text
 * (strptime), a piece that is an expression in output may have a code of its own (a month's name).
 */
export function strftimeTemplate(pieces: readonly FormatPiece[], reading = false): string | null {
  let out = '';
  for (const piece of pieces) {
    if (piece.kind === 'expr' && !(reading && piece.parse)) return null;
    out += piece.kind === 'code' ? piece.code : piece.kind === 'expr' ? piece.parse : piece.text.replaceAll('%', '%%');
  }
  return out;
}
