import { useState } from 'preact/hooks';
import { ResultsGrid, type ResultColumn, type ResultSource } from '../../ui/results-grid';
import { ErrorNotice } from '../../ui/notice';
import { ResultChart } from './result-chart';
import { csvText, downloadName, jsonText, saveFile } from './downloads';

interface Props {
  source: ResultSource;
  columns: ResultColumn[];
  /** Every row, when the browser holds them; otherwise `allRows` fetches them. */
  rows?: unknown[][];
  allRows?: () => Promise<unknown[][]>;
  /** The CSV as the service writes it, when it keeps the result (a job). */
  csv?: () => Promise<string[]>;
}

/** A result as a paged table or a chart, and its downloads. */
export function ResultView({ source, columns, rows, allRows, csv }: Props) {
  const [view, setView] = useState<'table' | 'chart'>('table');
  const [chartRows, setChartRows] = useState<unknown[][] | undefined>(rows);
  const [error, setError] = useState<unknown>(undefined);
  const everything = async () => rows ?? (await allRows?.()) ?? [];
  const download = async (format: 'csv' | 'json') => {
    setError(undefined);
    try {
      if (format === 'csv') saveFile(downloadName('csv'), 'text/csv', csv ? await csv() : [csvText(columns, await everything())]);
      else saveFile(downloadName('json'), 'application/json', [jsonText(columns, await everything())]);
    } catch (caught) {
      setError(caught);
    }
  };
  const showChart = async () => {
    setView('chart');
    if (!chartRows) setChartRows(await everything().catch((caught: unknown) => (setError(caught), [])));
  };
  return (
    <div class="result-view">
      <div class="toolbar" role="toolbar" aria-label="Result">
        <button type="button" class="button small" aria-pressed={view === 'table'} onClick={() => setView('table')}>
          Table
        </button>
        <button type="button" class="button small" aria-pressed={view === 'chart'} onClick={() => void showChart()}>
          Chart
        </button>
        <button type="button" class="button small" onClick={() => void download('csv')}>
          Download CSV
        </button>
        <button type="button" class="button small" onClick={() => void download('json')}>
          Download JSON
        </button>
      </div>
      <ErrorNotice error={error} />
      {view === 'table' ? <ResultsGrid source={source} label="Query result" /> : chartRows ? <ResultChart columns={columns} rows={chartRows} /> : null}
    </div>
  );
}
