// Preloaded into a service (`node --import`) by `bench/versus-naive.ts --waits`: every 100 ms it appends one JSON
// line to $TMS_WAITS_FILE with what the process waits on, so the bench can cut the run's window and bin it by second:
// - `elu`: the event loop's utilisation since the last line (performance.eventLoopUtilization; 1 = the one thread busy,
//   or runnable but waiting for a core: it is measured in wall-clock time), and `cpuMs`, the process's CPU meanwhile
//   (all threads: the garbage collector's and libuv's too),
// - `pg`: the pg pools' connections (total, idle) and callers waiting for one, and the connections handed out since
//   the last line with the time they waited in all (ms),
// - `http`: the undici pools' requests running on a connection and queued for one (the Graph API client's pool).
// The pools are found by wrapping `pg.Pool.prototype.connect` and `undici.Pool.prototype.dispatch` (the service
// imports the same module instances). Bounded: one line per 100 ms, the timer unref'd.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Pool as UndiciPool } from 'undici';

const file = process.env.TMS_WAITS_FILE;
if (file) {
  const pgPools = new Set();
  const httpPools = new Set();
  let acquired = 0;
  let waitedMs = 0;
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function (cb) {
    pgPools.add(this);
    const t0 = performance.now();
    const took = () => {
      acquired += 1;
      waitedMs += performance.now() - t0;
    };
    if (typeof cb === 'function') {
      return connect.call(this, (err, client, done) => {
        took();
        cb(err, client, done);
      });
    }
    return connect.call(this).then((client) => {
      took();
      return client;
    });
  };
  const dispatch = UndiciPool.prototype.dispatch;
  UndiciPool.prototype.dispatch = function (opts, handler) {
    httpPools.add(this);
    return dispatch.call(this, opts, handler);
  };
  let last = performance.eventLoopUtilization();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    let total = 0, idle = 0, waiting = 0;
    for (const p of pgPools) {
      total += p.totalCount;
      idle += p.idleCount;
      waiting += p.waitingCount;
    }
    let running = 0, queued = 0;
    for (const p of httpPools) {
      const s = p.stats;
      running += s.running;
      queued += s.pending;
    }
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), elu, cpuMs: (cpu.user + cpu.system) / 1000, pg: { total, idle, waiting, acquired, waitedMs }, http: { running, queued } })}\n`);
    acquired = 0;
    waitedMs = 0;
  }, 100);
  timer.unref();
}
