/**
 * What asks a running service to stop: SIGINT, SIGTERM, or the end of the npm or npx command that started it.
 *
 * npm and npx run a command through `sh -c`. On SIGTERM npm forwards the signal to that shell, and Debian's dash
 * dies without passing it on (it does not exec the last command), so the service would run on, holding its port and
 * its data directory. The package scripts therefore `exec` their command (the signal then reaches node itself), but
 * `npx tms serve` cannot: there the process notices that its parent is gone (it was re-parented) and stops as on
 * SIGTERM. The watch is on only under npm or npx (`npm_lifecycle_event` set): `node dist/server.js &` from a shell
 * that exits must keep running.
 */

/** How often the parent is checked; the service stops at most this long after its launcher ended. */
export const LAUNCHER_POLL_MS = 500;

export type StopReason = 'SIGINT' | 'SIGTERM' | 'launcher gone';

/** Resolves with the first stop request; only the first counts (later signals are the caller's to handle). */
export function whenStopRequested(env: NodeJS.ProcessEnv = process.env): Promise<StopReason> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const done = (reason: StopReason) => {
      clearInterval(timer);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(reason);
    };
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    if (env.npm_lifecycle_event) {
      const parent = process.ppid;
      timer = setInterval(() => {
        if (process.ppid !== parent) done('launcher gone');
      }, LAUNCHER_POLL_MS);
      timer.unref();
    }
  });
}
