// Every workflow the worker runs. Deterministic code only: no I/O, no Node built-ins,
// and activities are imported as types.
export { accountRetentionWorkflow } from './account-retention';
export { mailDeliveryWorkflow, mailOutboxSweepWorkflow } from './mail-delivery';
export { housekeepingWorkflow } from './housekeeping';
export { workspacePurgeWorkflow } from './workspace-purge';
export { workspaceMaintenanceWorkflow } from './workspace-maintenance';
export { queryJobWorkflow } from './query-job';
export { jobResultsCleanupWorkflow } from './job-results-cleanup';
export { queryJobReconciliationWorkflow } from './job-reconciliation';
export { connectionSyncWorkflow } from './connection-sync';
export { transformDagWorkflow } from './transform-dag';
export { meterReportWorkflow } from './meter-report';
export { oauthConnectionWorkflow } from './oauth-connection';
