// The background jobs of the worker (apps/worker), which the API process also runs in embedded mode:
// a lib, so that neither app imports the other.
export { JobsModule, type JobsOptions } from './jobs.module';
export { ScheduledJobs } from './scheduled-jobs';
export { QueuedRunJobs } from './queued-run-jobs';
export { PaymentOrderJobs } from './payment-order-jobs';
