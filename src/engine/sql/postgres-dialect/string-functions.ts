import { literalArgument, type Call, type CallRule, type CallRules } from './calls';
import { substringFrom } from './arithmetic-functions';
import { format } from './format-function';
import { keywordArguments } from './keyword-arguments';
import { postgresError } from '../postgres-errors';
import { captureGroups } from './regex-pattern';

const initcap: CallRule = {
  label: 'initcap → word-wise upper/lower',
  rewrite: (call) =>
    call.argNodes.length === 1
      ? `array_to_string(list_transform(regexp_extract_all(${call.args[0]}, '[\\pL\\pN]+|[^\\pL\\pN]+'), lambda __w: pgx_upper(__w[1]) || lower(__w[2:])), '')`
      : null,
};

/**
 * Postgres pads with spaces when no fill is given (DuckDB requires the fill), and with an empty fill
 * only cuts the text (DuckDB raises).
 */
const pad = (name: string): CallRule => ({
  label: 'lpad / rpad: blanks without a fill, an empty fill only cuts',
  rewrite(call) {
    if (call.argNodes.length === 2) return `${name}(${call.args[0]}, ${call.args[1]}, ' ')`;
    const fill = literalArgument(call, 2);
    return call.argNodes.length === 3 && (fill === null || fill === '') ? `pgx_${name}(${call.args.join(', ')})` : null;
  },
});

/** A string literal that is not empty. */
const filledLiteral = (call: Call, index: number) => (literalArgument(call, index) ?? '') !== '';

/**
 * `split_part(s, d, n)`: a zero position raises 22023, an empty delimiter makes the whole text the
 * only field. A literal delimiter and a literal position other than zero need neither.
 */
const splitPart: CallRule = {
  label: 'split_part: zero position refused, empty delimiter',
  rewrite(call) {
    if (call.argNodes.length !== 3) return null;
    const position = call.args[2]!;
    if (/^[+-]?0+$/.test(position)) throw postgresError('22023', 'field position must not be zero');
    return filledLiteral(call, 1) && /^[+-]?[0-9]+$/.test(position) ? null : `pgx_split_part(${call.args.join(', ')})`;
  },
};

/**
 * `string_to_array(s, d [, null_text])`: empty text is an empty array, a NULL delimiter splits into
 * characters, an empty one keeps the text whole, and fields equal to null_text are NULL.
 */
const stringToArray: CallRule = {
  label: 'string_to_array: empty text, NULL or empty delimiter, null text',
  rewrite(call) {
    if (call.argNodes.length === 2) return filledLiteral(call, 0) && filledLiteral(call, 1) ? null : `pgx_string_to_array(${call.args.join(', ')})`;
    if (call.argNodes.length !== 3) return null;
    return `list_transform(pgx_string_to_array(${call.args[0]}, ${call.args[1]}), lambda __f: CASE WHEN __f = ${call.args[2]} THEN NULL ELSE __f END)`;
  },
};

/** concat and concat_ws show each value as its output text (a boolean is t or f). */
const concat = (separated: boolean): CallRule => ({
  label: 'concat / concat_ws: output text of each value',
  rewrite(call) {
    const first = separated ? 1 : 0;
    // Text literals and NULLs show as they are.
    const shown = (arg: string) => /^'(?:[^']|'')*'$|^null$/i.test(arg);
    if (call.argNodes.length <= first || call.args.slice(first).every(shown)) return null;
    return `${call.name}(${call.args.map((arg, i) => (i < first || shown(arg) ? arg : `pgx_text(${arg})`)).join(', ')})`;
  },
});

/** chr(0) is refused: Postgres text holds no NUL character. */
const chr: CallRule = {
  label: 'chr(0) refused',
  rewrite(call) {
    if (call.argNodes.length === 1 && /^0+$/.test(call.args[0]!)) throw postgresError('54000', 'null character not permitted');
    return null;
  },
};

/** A regular expression argument Postgres reads with groups: the first group when there is one. */
function regexGroup(pattern: string): number {
  return captureGroups(pattern) > 0 ? 1 : 0;
}

/**
 * `substring(s FROM 'regex')` extracts a match in Postgres; `substring(s FROM n FOR m)` counts a
 * start before the first character as substr does.
 */
const substring: CallRule = {
  label: "substring(… FROM 'regex') → regexp_extract, substring(… FROM n FOR m) → substr",
  rewrite(call) {
    // `substring(s, 'regex')`: a text second argument is a pattern.
    const regex = call.argNodes.length === 2 ? literalArgument(call, 1) : null;
    if (regex !== null) return regexSubstring(call.args[0]!, call.args[1]!, regex);
    if (call.argNodes.length === 2 || call.argNodes.length === 3) return substringFrom(call.args[0]!, call.args[1]!, call.args[2]);
    if (call.argNodes.length !== 1) return null;
    const parts = keywordArguments(call.argNodes[0]!, ['FROM', 'FOR']);
    if (parts && parts[''] !== undefined && (parts.FROM !== undefined || parts.FOR !== undefined) && !parts.FROM?.startsWith("'")) {
      return substringFrom(parts['']!, parts.FROM ?? '1', parts.FOR);
    }
    if (!parts || parts.FOR !== undefined || parts.FROM === undefined || !parts.FROM.startsWith("'")) return null;
    const pattern = literalFrom(parts.FROM);
    if (pattern === null) return null;
    return regexSubstring(parts['']!, parts.FROM, pattern);
  },
};

/** The first group's match (the whole match without a group), NULL without a match. */
function regexSubstring(source: string, regex: string, pattern: string): string {
  return `CASE WHEN regexp_matches(${source}, ${regex}) THEN regexp_extract(${source}, ${regex}, ${regexGroup(pattern)}) END`;
}

function literalFrom(text: string): string | null {
  return /^'(?:[^']|'')*'$/.test(text) ? text.slice(1, -1).replaceAll("''", "'") : null;
}

const overlay: CallRule = {
  label: 'overlay(… PLACING … FROM … FOR …) → substrings',
  rewrite(call) {
    if (call.argNodes.length !== 1) return null;
    const parts = keywordArguments(call.argNodes[0]!, ['PLACING', 'FROM', 'FOR']);
    if (!parts || parts.PLACING === undefined || parts.FROM === undefined) return null;
    const source = parts['']!;
    const length = parts.FOR ?? `length(${parts.PLACING})`;
    return `(substr(${source}, 1, (${parts.FROM}) - 1) || ${parts.PLACING} || substr(${source}, (${parts.FROM}) + (${length})))`;
  },
};

const encodings: Readonly<Record<string, { encode: string; decode: string }>> = {
  hex: { encode: 'lower(hex(%))', decode: 'unhex(%)' },
  base64: { encode: 'to_base64(%)', decode: 'from_base64(%)' },
};

/** encode(bytes, 'hex' | 'base64') and decode(text, …); DuckDB's one-argument forms are left alone. */
const coding = (direction: 'encode' | 'decode'): CallRule => ({
  label: `${direction}(…, 'hex' | 'base64')`,
  rewrite(call) {
    const encoding = literalArgument(call, 1)?.toLowerCase();
    const template = encoding === undefined ? undefined : encodings[encoding]?.[direction];
    return call.argNodes.length === 2 && template ? template.replace('%', call.args[0]!) : null;
  },
});

function digest(name: string): CallRule {
  return { label: 'sha2 digests as bytea', rewrite: (call) => (call.argNodes.length === 1 ? `unhex(${name}(${call.args[0]}))` : null) };
}

function withArgs(count: number, build: (args: string[]) => string): (call: Call) => string | null {
  return (call) => (call.argNodes.length === count ? build(call.args) : null);
}

export const stringFunctionRules: CallRules = {
  initcap,
  lpad: pad('lpad'),
  split_part: splitPart,
  string_to_array: stringToArray,
  concat: concat(false),
  concat_ws: concat(true),
  chr,
  rpad: pad('rpad'),
  btrim: { label: 'btrim → trim', rewrite: (call) => (call.argNodes.length <= 2 ? `trim(${call.args.join(', ')})` : null) },
  to_hex: { label: 'to_hex → lower-case hex of 32 or 64 bits', rewrite: withArgs(1, ([value]) => `pgx_to_hex(${value})`) },
  upper: { label: 'upper leaves ß', rewrite: withArgs(1, ([value]) => `pgx_upper(${value})`) },
  length: { label: 'length(bytea) counts bytes', rewrite: withArgs(1, ([value]) => `pgx_length(${value})`) },
  format,
  substring,
  overlay,
  // DuckDB's octet_length takes bytes only; strlen counts the bytes of text.
  octet_length: {
    label: 'octet_length(text) → strlen',
    rewrite: (call) => (call.argNodes.length === 1 && !/::\s*(bytea|blob)\s*$/i.test(call.args[0]!) ? `strlen(${call.args[0]})` : null),
  },
  // Postgres' digests are bytea; DuckDB's are their hex text.
  sha224: digest('sha224'),
  sha256: digest('sha256'),
  sha384: digest('sha384'),
  sha512: digest('sha512'),
  encode: coding('encode'),
  decode: coding('decode'),
};
