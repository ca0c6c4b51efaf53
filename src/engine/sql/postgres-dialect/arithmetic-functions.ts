import type { Call, CallRules } from './calls';

/** `DISTINCT x` / `ALL x` as the quantifier and the operand. */
function quantified(arg: string): [string, string] {
  const match = /^(distinct|all)\s+([\s\S]*)$/i.exec(arg);
  return match ? [`${match[1]} `, match[2]!] : ['', arg];
}

/** An aggregate of one argument whose argument goes through a macro (see macros.ts). */
function aggregateArgument(macro: (operand: string, name: string) => string, label: string) {
  return {
    label,
    rewrite: (call: Call) => {
      if (call.argNodes.length !== 1) return null;
      const [quantifier, operand] = quantified(call.args[0]!);
      if (/\border\s+by\b/i.test(operand)) return null;
      return `${call.name}(${quantifier}${macro(operand, call.name)})`;
    },
  };
}

/** Aggregates and numeric functions whose result type or rounding differs from Postgres'. */
export const arithmeticFunctionRules: CallRules = {
  sum: aggregateArgument((operand) => `pgx_sum_arg(${operand})`, 'sum of integers: numeric as in Postgres'),
  max: aggregateArgument((operand, name) => `pgx_ordered(${operand}, '${name}')`, 'max/min: no boolean, as in Postgres'),
  min: aggregateArgument((operand, name) => `pgx_ordered(${operand}, '${name}')`, 'max/min: no boolean, as in Postgres'),
  // An average is numeric in Postgres (DuckDB: a double), so rounding one rounds halves away from zero.
  round: {
    label: 'round(double precision): halves to even',
    rewrite: (call) => (call.argNodes.length === 1 && !/\bavg\s*\(/i.test(call.args[0]!) ? `pgx_round(${call.args[0]})` : null),
  },
  pg_typeof: { label: 'pg_typeof: Postgres type names', rewrite: (call) => (call.argNodes.length === 1 ? `pgx_typeof(${call.args[0]})` : null) },
  // Postgres counts a start before the first character: substr('hello', -1, 3) is 'h'.
  substr: { label: 'substr from a start before 1', rewrite: fromStart },
  mod: { label: 'mod: division by zero raised', rewrite: (call) => (call.argNodes.length === 2 ? `mod(${call.args[0]}, pgx_divisor(${call.args[1]}))` : null) },
  date_trunc: { label: 'date_trunc(date): timestamptz', rewrite: (call) => (call.argNodes.length === 2 ? `pgx_date_trunc(${call.args.join(', ')})` : null) },
};

function fromStart(call: Call): string | null {
  if (call.argNodes.length < 2 || call.argNodes.length > 3 || call.args.some((arg) => /^(from|for|similar)\b|\s(from|for|similar)\s/i.test(arg))) return null;
  const [text, start, length] = call.args as [string, string, string | undefined];
  if (length === undefined) return `substr(${text}, greatest(${start}, 1))`;
  return `substr(${text}, greatest(${start}, 1), greatest((${start}) + (${length}) - greatest(${start}, 1), 0))`;
}
