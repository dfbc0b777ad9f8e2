// Preloaded into a profiled service (`node --import`): SIGUSR2 starts V8's CPU profiler, the next SIGUSR2 stops it and
// writes the profile to $TMS_PROFILE_DIR/window.<pid>.cpuprofile, so a profile covers one phase, not the process's life.
// The same window counts the garbage collections (gc.<pid>.json: count and ms by kind), and with TMS_HEAP_PROFILE=1
// also samples allocations, the collected ones included (V8's sampling heap profiler, every 32 KiB on average:
// heap.<pid>.heapprofile).
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const session = new Session();
session.connect();
const heap = process.env.TMS_HEAP_PROFILE === '1';
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major (mark-compact)',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
let gc = {};
const count = (entries) => {
  for (const entry of entries) {
    const kind = KINDS[entry.detail?.kind] ?? String(entry.detail?.kind);
    const k = (gc[kind] ??= { count: 0, ms: 0 });
    k.count += 1;
    k.ms += entry.duration;
  }
};
const observer = new PerformanceObserver((list) => count(list.getEntries()));
let running = false;
/** Written under another name first: the file appears whole. */
const writeWhole = (dir, name, text) => {
  writeFileSync(join(dir, `partial.${name}`), text);
  renameSync(join(dir, `partial.${name}`), join(dir, name));
};
process.on('SIGUSR2', () => {
  void (async () => {
    if (!running) {
      running = true;
      gc = {};
      observer.observe({ entryTypes: ['gc'] });
      if (heap) {
        await session.post('HeapProfiler.enable');
        // Objects already collected are kept in the profile: the young ones are the ones that cost scavenges.
        await session.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      }
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await session.post('Profiler.stop');
    count(observer.takeRecords()); // those not yet handed to the callback
    observer.disconnect();
    const dir = process.env.TMS_PROFILE_DIR ?? '.';
    writeWhole(dir, `gc.${process.pid}.json`, JSON.stringify(gc));
    if (heap) {
      const { profile: heapProfile } = await session.post('HeapProfiler.stopSampling');
      writeWhole(dir, `heap.${process.pid}.heapprofile`, JSON.stringify(heapProfile));
    }
    // The CPU profile last: its file tells the bench the window's files are all there.
    writeWhole(dir, `window.${process.pid}.cpuprofile`, JSON.stringify(profile));
  })();
});
