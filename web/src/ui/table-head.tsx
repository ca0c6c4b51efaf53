import type { ComponentChildren } from 'preact';

/** A column heading: its label, and whether the column holds numbers (set right, like its cells). */
export type ColumnHeading = ComponentChildren | { label: ComponentChildren; number: true };

const isNumber = (heading: ColumnHeading): heading is { label: ComponentChildren; number: true } =>
  typeof heading === 'object' && heading !== null && 'number' in heading;

/** A table's head row: one `<th scope="col">` a column, numeric ones with the `number` class. */
export function TableHead({ columns }: { columns: ColumnHeading[] }) {
  return (
    <thead>
      <tr>
        {columns.map((heading) =>
          isNumber(heading) ? (
            <th scope="col" class="number">
              {heading.label}
            </th>
          ) : (
            <th scope="col">{heading}</th>
          ),
        )}
      </tr>
    </thead>
  );
}
