import { sqlString } from './literals';

/**
 * `to_char(number, template)` for the common templates: an optional FM, digit positions 9 and 0
 * with optional `,` group separators, and an optional `.` with fraction digits. It follows
 * Postgres: rounding half away from zero, a sign position padded with spaces unless FM, zeros forced
 * from the first 0 on, FM trimming fraction zeros that stand on 9s, and `#` when the value has more
 * integer digits than the template; G and D are `,` and `.`, S a sign before or after the digits.
 * Other templates (PR, MI, L, EEEE, V) are not translated.
 */
export function numericToChar(value: string, template: string): string | null {
  const parsed = parseNumericTemplate(template);
  if (!parsed) return null;
  const { fill, integer, fraction, grouped, sign } = parsed;
  const digits = integer.replaceAll(',', '');
  const firstZero = digits.indexOf('0');
  const forcedIntegerDigits = firstZero === -1 ? 0 : digits.length - firstZero;
  if (grouped && forcedIntegerDigits > 1) return null;
  const scale = fraction.length;
  const forcedFraction = /^0*/.exec(fraction)![0].length;

  // A double is rounded as printf rounds its exact value (half to even), a numeric half away from zero.
  const rounded = `pgx_to_char_value(${value}, ${scale})`;
  // Fixed-point output always shows one integer digit, so a width is needed only for more zeros.
  const width = forcedIntegerDigits > 1 ? `0${forcedIntegerDigits + (scale > 0 ? 1 + scale : 0)}` : '';
  let body = `format('{:${width}${grouped ? ',' : ''}.${scale}f}', CAST(abs(${rounded}) AS DOUBLE))`;
  // Without a forced integer digit Postgres prints `.50`, not `0.50`.
  if (forcedIntegerDigits === 0 && scale > 0) body = `regexp_replace(${body}, '^0\\.', '.')`;
  if (fill && scale > forcedFraction) {
    body = `regexp_replace(${body}, '0{1,${scale - forcedFraction}}$', '')`;
    // Fill mode never prints nothing: zero shows as `0.`.
    if (forcedIntegerDigits === 0) body = `regexp_replace(${body}, '^\\.$', '0.')`;
  }
  // S writes + or - where it stands; without it a minus (or a blank) takes a position before the digits.
  const mark = sign === null ? `CASE WHEN ${rounded} < 0 THEN '-' ELSE '' END` : `CASE WHEN ${rounded} < 0 THEN '-' ELSE '+' END`;
  const signed = sign === 'after' ? `${body} || ${mark}` : `${mark} || ${body}`;
  const fieldWidth = 1 + integer.length + (scale > 0 ? 1 + scale : 0);
  const shown = fill ? signed : `lpad(${signed}, ${fieldWidth}, ' ')`;
  const overflow = `${fill || sign !== null ? '' : ' '}${template.replace(/^FM/i, '').replace(/[90S]/gi, '#').replace(/G/gi, ',').replace(/D/gi, '.')}`;
  return `(CASE WHEN abs(round(${value}, ${scale})) >= 1e${digits.length} THEN ${sqlString(overflow)} ELSE ${shown} END)`;
}

interface NumericTemplate {
  fill: boolean;
  integer: string;
  fraction: string;
  grouped: boolean;
  /** Where an S stands, if the template has one. */
  sign: 'before' | 'after' | null;
}

function parseNumericTemplate(written: string): NumericTemplate | null {
  // G and D are the locale's group separator and decimal point: `,` and `.` in C and English locales.
  const template = written.replace(/G/gi, ',').replace(/D/gi, '.');
  const match = /^(FM)?(S)?([90,]*)(?:\.([90]*))?(S)?$/i.exec(template);
  if (!match || !/[90]/.test(template) || (match[2] !== undefined && match[5] !== undefined)) return null;
  const integer = match[3]!;
  if (integer.startsWith(',') || integer.endsWith(',')) return null;
  const sign = match[2] !== undefined ? 'before' : match[5] !== undefined ? 'after' : null;
  return { fill: match[1] !== undefined, integer, fraction: match[4] ?? '', grouped: integer.includes(','), sign };
}

/**
 * `to_number(text, template)` for the templates numericToChar reads: the digits, a decimal point
 * and a minus anywhere, the scale the template's fraction digits give; others are left as written.
 */
export function numericFromText(text: string, template: string): string | null {
  const parsed = parseNumericTemplate(template);
  if (!parsed) return null;
  const digits = `CAST(nullif(regexp_replace(${text}, '[^0-9.]', '', 'g'), '') AS DECIMAL(38, ${parsed.fraction.length}))`;
  return `(CASE WHEN contains(${text}, '-') THEN -1 ELSE 1 END * ${digits})`;
}
