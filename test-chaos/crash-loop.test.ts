/**
 * The crash loop of the bulk-send issue, 10 kills (TMS_CHAOS_FULL=1). The short form (CI) runs it with
 * 3 kills as part of `npm test` and `npm run test:pg` (test/crash/bulk-crash-loop.test.ts), so it is not
 * repeated here.
 */
if (process.env.TMS_CHAOS_FULL === '1') {
  process.env.TMS_CRASH_KILLS ??= '10';
  process.env.TMS_CRASH_ROWS ??= '800';
  await import('../test/crash/bulk-crash-loop.test.js');
}
