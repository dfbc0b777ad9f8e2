// Preloaded (`node --import`) into the service and the simulator by `bench/singles-tail.ts`, and imported by it (the
// client): appends one line to $TMS_STALLS_DIR/<pid>.log for every event-loop stall (a 5 ms timer that fired more
// than 8 ms late: the thread was busy, or runnable but waiting for a core) and every garbage-collection pause over
// 4 ms, with the wall-clock time (epoch ms) it ended, so the bench can line them up with its slow requests. The
// first line names the process. Bounded: a line per stall or pause only, the timer unref'd.
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';

const dir = process.env.TMS_STALLS_DIR;
if (dir) {
  const file = `${dir}/${process.pid}.log`;
  const role = process.argv.includes('simulator') ? 'simulator' : process.argv.includes('serve') ? 'service' : 'client';
  appendFileSync(file, `${role}\n`);
  const PERIOD_MS = 5;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const lateMs = now - last - PERIOD_MS;
    last = now;
    if (lateMs > 8) appendFileSync(file, `stall ${(performance.timeOrigin + now).toFixed(1)} ${lateMs.toFixed(1)}\n`);
  }, PERIOD_MS).unref();
  const kinds = { [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= 4) continue;
      appendFileSync(file, `gc ${(performance.timeOrigin + e.startTime + e.duration).toFixed(1)} ${e.duration.toFixed(1)} ${kinds[e.detail?.kind] ?? 'other'}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}
