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
  date_trunc: { label: 'date_trunc(date): timestamptz', rewrite: (call) => (call.argNodes.length === 2 ? `pgx_date_trunc(${call.args.join(', ')})` : null) },
};
