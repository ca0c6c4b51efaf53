import { literalArgument, type Call, type CallRule, type CallRules } from './calls';
import { substringFrom } from './arithmetic-functions';
import { format } from './format-function';
import { keywordArguments } from './keyword-arguments';
import { checkRewriteSize } from './pass';
import { captureGroups } from './regex-pattern';

const initcap: CallRule = {
  label: 'initcap → word-wise upper/lower',
  rewrite: (call) =>
    call.argNodes.length === 1
      ? `array_to_string(list_transform(regexp_extract_all(${call.args[0]}, '[\\pL\\pN]+|[^\\pL\\pN]+'), lambda __w: pgx_upper(__w[1]) || lower(__w[2:])), '')`
      : null,
};

/** Postgres pads with spaces when no fill is given; DuckDB requires the fill. */
const pad = (name: string): CallRule => ({
  label: 'lpad / rpad without fill → fill with spaces',
  rewrite: (call) => (call.argNodes.length === 2 ? `${name}(${call.args[0]}, ${call.args[1]}, ' ')` : null),
});


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
    if (call.argNodes.length === 2 || call.argNodes.length === 3) return substringFrom(call.args[0]!, call.args[1]!, call.args[2]);
    if (call.argNodes.length !== 1) return null;
    const parts = keywordArguments(call.argNodes[0]!, ['FROM', 'FOR']);
    if (parts && parts[''] !== undefined && (parts.FROM !== undefined || parts.FOR !== undefined) && !parts.FROM?.startsWith("'")) {
      return substringFrom(parts['']!, parts.FROM ?? '1', parts.FOR);
    }
    if (!parts || parts.FOR !== undefined || parts.FROM === undefined || !parts.FROM.startsWith("'")) return null;
    const pattern = literalFrom(parts.FROM);
    if (pattern === null) return null;
    const source = parts['']!;
    return `CASE WHEN regexp_matches(${source}, ${parts.FROM}) THEN regexp_extract(${source}, ${parts.FROM}, ${regexGroup(pattern)}) END`;
  },
};

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

/** `regexp_match` returns the groups (or the whole match) as an array, NULL without a match. */
const regexpMatch: CallRule = {
  label: 'regexp_match → regexp_extract list',
  rewrite(call) {
    const pattern = literalArgument(call, 1);
    if (call.argNodes.length !== 2 || pattern === null) return null;
    const [source, regex] = call.args as [string, string];
    const groups = captureGroups(pattern);
    checkRewriteSize(groups * (source.length + regex.length));
    const items = groups === 0 ? [`regexp_extract(${source}, ${regex})`] : Array.from({ length: groups }, (_, i) => `regexp_extract(${source}, ${regex}, ${i + 1})`);
    return `CASE WHEN regexp_matches(${source}, ${regex}) THEN [${items.join(', ')}] END`;
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

function withArgs(count: number, build: (args: string[]) => string): (call: Call) => string | null {
  return (call) => (call.argNodes.length === count ? build(call.args) : null);
}

export const stringFunctionRules: CallRules = {
  initcap,
  lpad: pad('lpad'),
  rpad: pad('rpad'),
  btrim: { label: 'btrim → trim', rewrite: (call) => (call.argNodes.length <= 2 ? `trim(${call.args.join(', ')})` : null) },
  to_hex: { label: 'to_hex → lower-case hex of 32 or 64 bits', rewrite: withArgs(1, ([value]) => `pgx_to_hex(${value})`) },
  upper: { label: 'upper leaves ß', rewrite: withArgs(1, ([value]) => `pgx_upper(${value})`) },
  length: { label: 'length(bytea) counts bytes', rewrite: withArgs(1, ([value]) => `pgx_length(${value})`) },
  format,
  substring,
  overlay,
  regexp_match: regexpMatch,
  regexp_count: { label: 'regexp_count → regexp_extract_all', rewrite: withArgs(2, ([source, regex]) => `len(regexp_extract_all(${source}, ${regex}))`) },
  regexp_like: { label: 'regexp_like → regexp_matches', rewrite: (call) => (call.argNodes.length >= 2 && call.argNodes.length <= 3 ? `regexp_matches(${call.args.join(', ')})` : null) },
  // DuckDB's octet_length takes bytes only; strlen counts the bytes of text.
  octet_length: {
    label: 'octet_length(text) → strlen',
    rewrite: (call) => (call.argNodes.length === 1 && !/::\s*(bytea|blob)\s*$/i.test(call.args[0]!) ? `strlen(${call.args[0]})` : null),
  },
  encode: coding('encode'),
  decode: coding('decode'),
};
