import { literalArgument, type CallRule } from './calls';
import { sqlString } from './literals';
import { postgresError } from '../postgres-errors';

/**
 * `format(template, …)` with a literal template, as Postgres' text_format reads it: `%[n$][-][width]type`
 * where type is `s` (the value's text, NULL as nothing), `I` (an identifier, quoted when it must
 * be) or `L` (a literal, NULL as NULL), width is digits, `*` or `*n$` (an argument; negative pads on
 * the right), and `%%` is a percent sign. Arguments are taken in turn, or by position. DuckDB's own
 * format speaks another syntax, so the result is a concatenation.
 */
const directive = /%(?:(\d+)\$)?(-)?(?:(\d+)|\*(?:(\d+)\$)?)?([sIL%])?/g;

export const format: CallRule = {
  label: 'format → concatenation',
  rewrite(call) {
    const template = literalArgument(call, 0);
    if (template === null || template.length > 10_000) return null;
    const values = call.args.slice(1);
    const parts: string[] = [];
    let next = 0;
    let last = 0;
    const take = (position: string | undefined): string => {
      const index = position === undefined ? next : Number(position) - 1;
      if (index < 0) throw postgresError('22023', 'format specifies argument 0, but arguments are numbered from 1');
      if (index >= values.length) throw postgresError('22023', 'too few arguments for format()');
      next = index + 1;
      return values[index]!;
    };
    for (const match of template.matchAll(directive)) {
      if (match.index > last) parts.push(sqlString(template.slice(last, match.index)));
      last = match.index + match[0].length;
      const [text, position, left, width, widthPosition, type] = match;
      if (text === '%%' || type === '%') {
        parts.push("'%'");
        continue;
      }
      if (type === undefined) throw postgresError('22023', `unrecognized format() type specifier "${template.charAt(last)}"`);
      const starWidth = text.includes('*') ? take(widthPosition) : null;
      const value = take(position);
      // Each value as its output text first: a boolean is t or f.
      const shown = type === 's' ? `pgx_text(${value})` : type === 'I' ? `pgx_identifier(pgx_text(${value}))` : `quote_nullable(pgx_text(${value}))`;
      if (starWidth !== null) parts.push(`pgx_pad(${shown}, ${left ? `-abs(${starWidth})` : starWidth})`);
      else if (width !== undefined) parts.push(`pgx_pad(${shown}, ${left ? '-' : ''}${width})`);
      else parts.push(type === 's' ? `coalesce(${shown}, '')` : shown);
    }
    if (last < template.length) parts.push(sqlString(template.slice(last)));
    if (parts.length === 0) return "''";
    return parts.length === 1 ? parts[0]! : `(${parts.join(' || ')})`;
  },
};
