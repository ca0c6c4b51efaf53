import { useId, useState } from 'preact/hooks';
import { Form } from './forms';
import { formatTime } from './format';

type Mode = 'manual' | 'every' | 'cron';

interface Props {
  /** The schedule as the service keeps it: null (manual), `every <duration>` or a 5-field cron in UTC. */
  schedule: string | null;
  /** The next times it starts, as the service computed them. */
  nextRuns: string[];
  /** Null: no schedule. A thrown error (a 422 at the schedule) is shown in the form. */
  onSave: (schedule: string | null) => Promise<void>;
  canEdit: boolean;
  /** What runs: "a sync", "all transforms". */
  what: string;
}

function modeOf(schedule: string | null): Mode {
  if (schedule === null) return 'manual';
  return /^every\s/i.test(schedule) ? 'every' : 'cron';
}

/**
 * A schedule: none, an interval (`every 15m`, `every 6h`) or a cron in UTC. The next runs come from
 * the service, which parses the expression; the console never guesses them.
 */
export function ScheduleEditor({ schedule, nextRuns, onSave, canEdit, what }: Props) {
  const [mode, setMode] = useState<Mode>(modeOf(schedule));
  const id = useId();
  const every = modeOf(schedule) === 'every' ? schedule!.replace(/^every\s+/i, '') : '1h';
  const cron = modeOf(schedule) === 'cron' ? schedule! : '0 6 * * *';
  const save = async (values: Record<string, string>) => {
    if (mode === 'manual') return onSave(null);
    return onSave(mode === 'every' ? `every ${values.every?.trim() ?? ''}` : (values.cron?.trim() ?? ''));
  };
  const runs = (
    <div class="next-runs">
      <h3 id={`${id}-next`}>Next runs (UTC)</h3>
      {nextRuns.length === 0 ? (
        <p class="field-hint">{schedule === null ? `No schedule: ${what} starts only when asked.` : 'None planned (paused).'}</p>
      ) : (
        <ol aria-labelledby={`${id}-next`}>
          {nextRuns.map((time) => (
            <li key={time}>{formatTime(time)}</li>
          ))}
        </ol>
      )}
    </div>
  );
  if (!canEdit) {
    return (
      <div>
        <p>{schedule === null ? 'Manual' : <code>{schedule}</code>}</p>
        {runs}
      </div>
    );
  }
  return (
    <div class="schedule-editor">
      <Form onSubmit={save} submitLabel="Save schedule" busyLabel="Saving…" label="Schedule">
        <fieldset>
          <legend>When {what} runs</legend>
          {(['manual', 'every', 'cron'] as const).map((option) => (
            <label key={option} class="check">
              <input type="radio" name="mode" value={option} checked={mode === option} onChange={() => setMode(option)} />{' '}
              {option === 'manual' ? 'Only when asked' : option === 'every' ? 'At an interval' : 'On a cron (UTC)'}
            </label>
          ))}
        </fieldset>
        {mode === 'every' ? (
          <div class="field">
            <label for={`${id}-every`}>Every</label>
            <input id={`${id}-every`} name="every" required defaultValue={every} pattern="\s*\d+\s*[a-zA-Z]+\s*" aria-describedby={`${id}-every-hint`} />
            <p class="field-hint" id={`${id}-every-hint`}>
              A number and a unit: 15m, 6h, 1d.
            </p>
          </div>
        ) : null}
        {mode === 'cron' ? (
          <div class="field">
            <label for={`${id}-cron`}>Cron expression</label>
            <input id={`${id}-cron`} name="cron" required defaultValue={cron} class="mono" aria-describedby={`${id}-cron-hint`} />
            <p class="field-hint" id={`${id}-cron-hint`}>
              Five fields in UTC: minute, hour, day of month, month, day of week (0 6 * * 1-5: weekdays at 06:00).
            </p>
          </div>
        ) : null}
      </Form>
      {runs}
    </div>
  );
}
