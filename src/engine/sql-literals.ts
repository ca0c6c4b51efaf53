/** A SQL string literal; the only way engine code puts a value into statement text it builds itself. */
export function sqlString(value: string): string {
  if (value.includes('\0')) throw new Error('NUL byte in SQL string literal');
  return `'${value.replaceAll("'", "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdentifier(name: string): string {
  if (name.includes('\0')) throw new Error('NUL byte in SQL identifier');
  return `"${name.replaceAll('"', '""')}"`;
}
