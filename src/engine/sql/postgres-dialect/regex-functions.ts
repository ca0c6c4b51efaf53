import { literalArgument, type Call, type CallRule, type CallRules } from './calls';
import { checkRewriteSize } from './pass';
import { postgresError } from '../postgres-errors';
import { captureGroups } from './regex-pattern';

/**
 * Postgres' regexp_* functions over DuckDB's regexp_extract and regexp_extract_all. Their flags are
 * a literal: `i` and `c` (case) are DuckDB's options too; `g` is refused where Postgres refuses it,
 * and other flags leave the call to DuckDB.
 */
function flagsOf(call: Call, index: number, name: string): string | null {
  if (call.argNodes.length <= index) return '';
  const flags = literalArgument(call, index);
  if (flags === null) return null;
  if (flags.includes('g')) throw postgresError('22023', `${name}() does not support the "global" option`);
  return /^[ic]*$/.test(flags) ? flags : null;
}

/** `, 'i'` for DuckDB's options argument, or nothing. */
const options = (flags: string) => (flags === '' ? '' : `, '${flags}'`);

/** The text from the `start`th character on (Postgres counts from 1). */
const from = (source: string, start: string | undefined) => (start === undefined ? source : `substr(${source}, ${start})`);

/** `regexp_match(s, p [, flags])`: the groups (or the whole match) as an array, NULL without a match. */
const regexpMatch: CallRule = {
  label: 'regexp_match → regexp_extract list',
  rewrite(call) {
    const pattern = literalArgument(call, 1);
    const flags = flagsOf(call, 2, 'regexp_match');
    if (call.argNodes.length < 2 || call.argNodes.length > 3 || pattern === null || flags === null) return null;
    const [source, regex] = call.args as [string, string];
    const groups = captureGroups(pattern);
    checkRewriteSize(groups * (source.length + regex.length));
    const items =
      groups === 0
        ? [`regexp_extract(${source}, ${regex}, 0${options(flags)})`]
        : Array.from({ length: groups }, (_, i) => `regexp_extract(${source}, ${regex}, ${i + 1}${options(flags)})`);
    return `CASE WHEN regexp_matches(${source}, ${regex}${options(flags)}) THEN [${items.join(', ')}] END`;
  },
};

/** `regexp_count(s, p [, start [, flags]])`: how many matches from the start on. */
const regexpCount: CallRule = {
  label: 'regexp_count → regexp_extract_all',
  rewrite(call) {
    const flags = flagsOf(call, 3, 'regexp_count');
    if (call.argNodes.length < 2 || call.argNodes.length > 4 || flags === null) return null;
    const [source, regex, start] = call.args as [string, string, string | undefined];
    return `len(regexp_extract_all(${from(source, start)}, ${regex}${flags === '' ? '' : `, 0${options(flags)}`}))`;
  },
};

/** `regexp_substr(s, p [, start [, n [, flags [, group]]]])`: the nth match (or its group), NULL when there is none. */
const regexpSubstr: CallRule = {
  label: 'regexp_substr → regexp_extract_all',
  rewrite(call) {
    const flags = flagsOf(call, 4, 'regexp_substr');
    if (call.argNodes.length < 2 || call.argNodes.length > 6 || flags === null) return null;
    const [source, regex, start, nth = '1', , group = '0'] = call.args as [string, string, string?, string?, string?, string?];
    return `regexp_extract_all(${from(source, start)}, ${regex}, ${group}${options(flags)})[${nth}]`;
  },
};

/** `regexp_instr(s, p [, start])`: where the first match from the start on begins, 0 when there is none. */
const regexpInstr: CallRule = {
  label: 'regexp_instr → the length before the first match',
  rewrite(call) {
    if (call.argNodes.length < 2 || call.argNodes.length > 3) return null;
    const [source, regex, start] = call.args as [string, string, string | undefined];
    const text = from(source, start);
    const offset = start === undefined ? '' : ` + (${start}) - 1`;
    return `CASE WHEN regexp_matches(${text}, ${regex}) THEN length(regexp_extract(${text}, '(?s)^(.*?)(?:' || ${regex} || ')', 1)) + 1${offset} ELSE 0 END`;
  },
};

export const regexFunctionRules: CallRules = {
  regexp_match: regexpMatch,
  regexp_count: regexpCount,
  regexp_substr: regexpSubstr,
  regexp_instr: regexpInstr,
  regexp_like: {
    label: 'regexp_like → regexp_matches',
    rewrite: (call) => (call.argNodes.length >= 2 && call.argNodes.length <= 3 ? `regexp_matches(${call.args.join(', ')})` : null),
  },
};
