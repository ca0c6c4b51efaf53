import type { OverageReport } from '../billing/overage-reporter';
import type { TemporalClient } from '../temporal/client';
import type { ScheduleDefinition } from '../temporal/schedules';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { meterReportWorkflow } from '../workflows/meter-report';

/**
 * The schedule that reports overage (visible, pausable and triggerable in the Temporal UI as
 * `usage-meter-report`); runs never overlap, so two cannot report the same query at once.
 */
export function meterReportSchedule(every: string): ScheduleDefinition<typeof meterReportWorkflow> {
  return { scheduleId: 'usage-meter-report', workflow: meterReportWorkflow, args: [], every, labels: { kind: 'meter_report' } };
}

/** Runs now, outside the schedule (an operator's, or a test's): the workflow id, and the report once it ends. */
export class MeterReportClient {
  constructor(private readonly temporal: TemporalClient) {}

  async runNow(): Promise<{ workflowId: string; report: OverageReport }> {
    const workflowId = `usage-meter-report-manual-${Bun.randomUUIDv7()}`;
    await startWorkflowOnce(this.temporal, meterReportWorkflow, { workflowId, args: [], labels: { kind: 'meter_report', trigger: 'manual' } });
    const report = await this.temporal.call(() => this.temporal.client.workflow.getHandle<typeof meterReportWorkflow>(workflowId).result(), 120_000);
    return { workflowId, report };
  }
}
