/** How many capturing groups a regular expression has: `(` not escaped, not in a class, not `(?`. */
export function captureGroups(pattern: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '\\') i += 1;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(' && pattern[i + 1] !== '?') count += 1;
  }
  return count;
}

/**
 * A SIMILAR TO pattern as the regular expression Postgres matches it with: `%` is `.*`, `_` is
 * `.`, a backslash escapes the next character, and characters that are special only to regular
 * expressions (`.`, `^`, `$`) are literal. The expression must match the whole string.
 */
export function similarToRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) {
      out += escapeRegexChar(pattern[i + 1]!);
      i += 1;
    } else if (char === '%') out += '.*';
    else if (char === '_') out += '.';
    else if (char === '.' || char === '^' || char === '$') out += `\\${char}`;
    else out += char;
  }
  return out;
}

function escapeRegexChar(char: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(char) ? `\\${char}` : char;
}
