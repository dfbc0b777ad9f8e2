// A test reporter that writes how long each test file took, slowest first: the runner's own figure for the file's
// subprocess (its `test:complete` event, named by the file's path), hooks and start-up included; files run two at a
// time, so the figures overlap. scripts/test.mjs adds it when TMS_TEST_TIMINGS names a file; .ci/run prints the
// slowest files of each suite so a slow newcomer is seen.
import { resolve } from 'node:path';

export default async function* timings(source) {
  const rows = [];
  for await (const event of source) {
    const { file, name, nesting, details } = event.data ?? {};
    if (event.type !== 'test:complete' || nesting !== 0 || !file || resolve(name) !== resolve(file)) continue;
    rows.push([file.replace(`${process.cwd()}/`, ''), (details?.duration_ms ?? 0) / 1000]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  for (const [file, seconds] of rows) yield `${seconds.toFixed(1).padStart(7)} s  ${file}\n`;
}
