/**
 * Where a bulk start's time goes, step by step (bench/start-trace.ts reads it). Off unless TMS_TRACE_START=1 (the
 * service turns it on at start from its configuration: `traceStarts`); then
 * each step writes `trace <step> <process CPU ms> <epoch ms>` to stderr, the epoch time to the tenth of a
 * millisecond (performance.timeOrigin + now), so a client on the same machine can place each step after its
 * request. One line a step, a handful a start (one a COPY statement): no cost worth counting when on, none off.
 */
/** Whether this process traces its starts. A process-wide switch: the steps are written from deep in the start's code. */
let startTracing = false;

/** Turns start tracing on or off for this process (the service's runner, from TMS_TRACE_START). */
export function traceStarts(on: boolean): void {
  startTracing = on;
}

/** Whether start tracing is on (a route adds its request and answer steps only then). */
export function tracingStarts(): boolean {
  return startTracing;
}

/** Notes that a start reached `step` (when tracing is on). */
export function traceStart(step: string): void {
  if (!startTracing) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`trace ${step} ${((cpu.user + cpu.system) / 1000).toFixed(1)} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
}
