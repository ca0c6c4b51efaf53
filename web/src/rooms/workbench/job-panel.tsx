import { useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorNotice, Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { formatBytes, formatCount, formatEuros, formatTime } from '../../ui/format';
import { allJobRows, cancelJob, jobCsv, jobSource, useJob } from './query-job';
import { ResultView } from './result-view';

/** A query job: its status and progress while it runs, cancel, then its result read page by page from the service. */
export function JobPanel({ jobId, onFinished }: { jobId: string; onFinished: () => void }) {
  const { status, error } = useJob(jobId);
  const [cancelError, setCancelError] = useState<unknown>(undefined);
  const [cancelling, setCancelling] = useState(false);
  const result = status?.status === 'succeeded' ? status.result : undefined;
  const source = useMemo(() => (result ? jobSource(jobId, result) : undefined), [jobId, result?.row_count]);
  const done = status && ['succeeded', 'failed', 'cancelled'].includes(status.status);
  useEffect(() => {
    if (done) onFinished();
  }, [done]);
  const cancel = async () => {
    setCancelling(true);
    setCancelError(undefined);
    try {
      await cancelJob(jobId);
    } catch (caught) {
      setCancelError(caught);
    } finally {
      setCancelling(false);
    }
  };
  const progress = status?.progress;
  return (
    <Section title="Job">
      <dl class="details">
        <dt>Job</dt>
        <dd class="mono">{jobId}</dd>
        <dt>Status</dt>
        <dd>
          <span class={`badge badge-${status?.status ?? 'pending'}`} role="status">
            {status?.status ?? 'submitted'}
          </span>
        </dd>
        <dt>Submitted</dt>
        <dd>{formatTime(status?.submitted_at)}</dd>
      </dl>
      {!done ? (
        <div class="progress-row">
          <label for={`job-progress-${jobId}`}>Progress</label>
          {typeof progress === 'number' ? (
            <progress id={`job-progress-${jobId}`} max={1} value={progress}>
              {Math.round(progress * 100)}%
            </progress>
          ) : (
            <progress id={`job-progress-${jobId}`} />
          )}
          <button type="button" class="button danger small" onClick={() => void cancel()} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel job'}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={error ?? cancelError} />
      {status?.status === 'failed' && status.error ? (
        <ErrorNotice error={new Error(`${status.error.code}: ${status.error.message}${status.error.hint ? ` ${status.error.hint}` : ''}`)} />
      ) : null}
      {status?.status === 'cancelled' ? <Notice kind="info">The job was cancelled.</Notice> : null}
      {result && source ? (
        <>
          <p class="result-meta">
            {formatCount(result.row_count)} rows · {formatBytes(result.bytes_scanned)} scanned · {formatEuros(result.cost_eur)} · kept until{' '}
            {formatTime(result.expires_at)}
          </p>
          <ResultView
            source={source}
            columns={result.columns}
            allRows={() => allJobRows(jobId, result.row_count)}
            csv={() => jobCsv(jobId, result.row_count, result.columns)}
          />
        </>
      ) : null}
    </Section>
  );
}
