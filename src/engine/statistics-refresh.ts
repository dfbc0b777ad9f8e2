/**
 * Fresh planner statistics after a bulk load (docs/decisions.md, "Plans that hold without fresh statistics"). A large start
 * stores its rows in one COPY; until the table is analysed the planner still believes the old shape of `messages`
 * (no QUEUED rows, empty partial indexes) and chooses scans over every queued row for each claim. PostgreSQL's
 * documentation asks for `ANALYZE` after a bulk load; autovacuum would do it later, or never where it is off.
 */
import type { Logger } from 'pino';

/** Rows a start must store to be worth a fresh sample (a smaller one barely changes the table's shape). */
export const ANALYZE_AFTER_ROWS = 5_000;

export interface StatisticsRefresh {
  /** A start committed `rows` rows: samples the table in the background if that is a large load. */
  loaded(rows: number): void;
  /** Resolves when no sample is running or wanted (shutdown, tests). */
  idle(): Promise<void>;
}

/**
 * One sample at a time; loads that land while one runs ask for one more after it (the shared-run-and-again form of
 * `WebhookInbox.drain` and `syncTemplates`).
 */
export function createStatisticsRefresh(analyze: () => Promise<void>, log: Pick<Logger, 'warn'>): StatisticsRefresh {
  let running: Promise<void> | null = null;
  let again = false;
  return {
    loaded(rows) {
      if (rows < ANALYZE_AFTER_ROWS) return;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await analyze().catch((error: unknown) =>
              log.warn({ err: error }, 'analyze after a bulk load failed; the planner keeps its older statistics'));
          } while (again);
        } finally {
          running = null;
        }
      })();
    },
    idle: () => running ?? Promise.resolve(),
  };
}
