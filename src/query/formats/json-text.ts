type Frame = { items: unknown[]; next: number } | { entries: [string, unknown][]; next: number };

/**
 * JSON text of a result or a response holding one. A JSON column can hold documents nested deeper than JSON.stringify's
 * recursion reaches (it overflows the stack at a few ten thousand levels); those are written with an
 * explicit stack instead, so a query never fails for the shape of its data.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return deepJsonText(value);
  }
}

function deepJsonText(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (value: unknown) => {
    if (Array.isArray(value)) {
      out.push('[');
      stack.push({ items: value, next: 0 });
    } else if (value !== null && typeof value === 'object') {
      out.push('{');
      stack.push({ entries: Object.entries(value), next: 0 });
    } else {
      out.push(JSON.stringify(value) ?? 'null');
    }
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const isArray = 'items' in frame;
    const length = isArray ? frame.items.length : frame.entries.length;
    if (frame.next >= length) {
      out.push(isArray ? ']' : '}');
      stack.pop();
      continue;
    }
    if (frame.next > 0) out.push(',');
    if (isArray) {
      open(frame.items[frame.next++]!);
    } else {
      const [key, value] = frame.entries[frame.next++]!;
      out.push(JSON.stringify(key), ':');
      open(value);
    }
  }
  return out.join('');
}
