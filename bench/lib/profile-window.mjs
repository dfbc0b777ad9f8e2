// Preloaded into a profiled service (`node --import`): SIGUSR2 starts V8's CPU profiler, the next SIGUSR2 stops it and
// writes the profile to $TMS_PROFILE_DIR/window.<pid>.cpuprofile, so a profile covers one phase, not the process's life.
import { Session } from 'node:inspector/promises';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const session = new Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  void (async () => {
    if (!running) {
      running = true;
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await session.post('Profiler.stop');
    const dir = process.env.TMS_PROFILE_DIR ?? '.';
    // Written under another name first: the file appears whole.
    writeFileSync(join(dir, `partial.${process.pid}`), JSON.stringify(profile));
    renameSync(join(dir, `partial.${process.pid}`), join(dir, `window.${process.pid}.cpuprofile`));
  })();
});
