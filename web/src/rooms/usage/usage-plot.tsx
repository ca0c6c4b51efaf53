import { useId } from 'preact/hooks';
import { TableHead } from '../../ui/table-head';

export interface DayValue {
  date: string;
  value: number;
}

interface Props {
  title: string;
  days: DayValue[];
  /** How a value reads (in the axis, the bars' titles and the table). */
  format: (value: number) => string;
  /** A line the values are measured against (the plan's included amount). */
  allowance?: { value: number; label: string } | undefined;
  /** Bars (a value per day) or a line (a running total). */
  shape: 'bars' | 'line';
}

const size = { width: 420, height: 200 };
const pad = { left: 64, right: 12, top: 16, bottom: 28 };

/** The axis' top: the next of 1, 2 or 5 times a power of ten above the highest value. */
function niceTop(highest: number): number {
  if (highest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(highest));
  return ([1, 2, 5, 10].find((step) => step * power >= highest) ?? 10) * power;
}

/**
 * A plot of a value per day in SVG, styled by class only: bars, or a line for a running total, with
 * the plan's allowance as a dashed line; the same numbers follow as a table for those who do not see
 * the plot.
 */
export function UsagePlot({ title, days, format, allowance, shape }: Props) {
  const id = useId();
  const top = niceTop(Math.max(...days.map((day) => day.value), allowance?.value ?? 0) * 1.05);
  const innerWidth = size.width - pad.left - pad.right;
  const innerHeight = size.height - pad.top - pad.bottom;
  const step = days.length > 0 ? innerWidth / days.length : innerWidth;
  const yOf = (value: number) => pad.top + innerHeight - (value / top) * innerHeight;
  const xOf = (index: number) => pad.left + index * step + step / 2;
  const ticks = [0, top / 2, top];
  const labelled = days.length <= 1 ? [0] : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  const summary = `${title}: ${days.length} days, highest ${format(Math.max(0, ...days.map((day) => day.value)))}${allowance ? `, against ${allowance.label} of ${format(allowance.value)}` : ''}`;
  return (
    <figure class="usage-plot">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <svg viewBox={`0 0 ${size.width} ${size.height}`} class="plot" role="img" aria-label={summary}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={pad.left} x2={size.width - pad.right} y1={yOf(tick)} y2={yOf(tick)} class="plot-grid" />
            <text x={pad.left - 6} y={yOf(tick) + 4} class="plot-axis" text-anchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        {shape === 'bars' ? (
          days.map((day, index) => (
            <rect
              key={day.date}
              x={pad.left + index * step + step * 0.15}
              width={Math.max(1, step * 0.7)}
              y={yOf(day.value)}
              height={Math.max(0, pad.top + innerHeight - yOf(day.value))}
              class="plot-bar"
            >
              <title>{`${day.date}: ${format(day.value)}`}</title>
            </rect>
          ))
        ) : (
          <polyline points={days.map((day, index) => `${xOf(index)},${yOf(day.value)}`).join(' ')} class="plot-line" />
        )}
        {allowance ? (
          <g>
            <line x1={pad.left} x2={size.width - pad.right} y1={yOf(allowance.value)} y2={yOf(allowance.value)} class="plot-allowance" />
            <text x={size.width - pad.right} y={yOf(allowance.value) - 4} class="plot-axis" text-anchor="end">
              {allowance.label}
            </text>
          </g>
        ) : null}
        {labelled.map((index) =>
          days[index] ? (
            <text key={index} x={xOf(index)} y={size.height - 8} class="plot-axis" text-anchor="middle">
              {days[index].date.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <details class="plot-table">
        <summary>{title} as a table</summary>
        <table class="data-table">
          <caption class="visually-hidden">{title}</caption>
          <TableHead columns={['Day', { label: 'Value', number: true }]} />
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{day.date}</td>
                <td class="number">{format(day.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
