// The reasons a tracker drops an event, as the proxy names them: a leaf module, so the option and
// log types (../types.ts) and the loss report's reader (client-report.ts) both import it downward
// and neither imports the other (issue 47 §4: the only import circle in the source was theirs).

/**
 * The labels of `engage_proxy_client_dropped_events_total` and `engage_proxy_loss_reports_total`:
 * the tracker's reasons in their wire order (src/tracker/drop-counts.ts), and `other`.
 */
export const DROP_REASONS = ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed', 'other'] as const;
export type DropReason = (typeof DROP_REASONS)[number];
