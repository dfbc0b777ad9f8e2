/** The answer of a start's dry run, shared by the calls (api.ts) and the state (state.ts). */

/** A dry run's answer (files-api's `dry_run: true`, beyond the interface). */
export interface DryRun {
  rows: number;
  duplicates_removed: number;
  tier_quota_needed: number;
  /** null when the tier has no cap. */
  tier_quota_left: number | null;
}
