#!/usr/bin/env node
// Runs node's test runner (through tsx) over test files. The files are found here rather than by --test globs
// (whose support differs between Node versions), so --exclude works and every Node sees the same list.
// Usage: node scripts/test.mjs [dir-or-file ...] [--exclude=dir]   (default: test/)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) collect(join(path, name), out);
  } else if (path.endsWith('.test.ts')) {
    out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// --exclude=<dir> leaves a folder out (test:pg leaves the browser suite to the PGlite run).
const excluded = process.argv.slice(2).filter((a) => a.startsWith('--exclude=')).map((a) => join(a.slice('--exclude='.length), '/'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--') && !a.startsWith('--exclude='));
const files = (roots.length ? roots : ['test'])
  .flatMap((root) => collect(root, []))
  .filter((file) => !excluded.some((dir) => join(file).startsWith(dir)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// A test that hangs fails by name after 10 minutes (the longest crash and soak-style tests take about two)
// instead of eating the CI budget; a --test-timeout given on the command line wins.
const timeout = flags.some((f) => f.startsWith('--test-timeout')) ? [] : ['--test-timeout=600000'];
// TMS_TEST_TIMINGS=<file>: also write each test file's duration there (scripts/test-timings.mjs).
const timings = process.env.TMS_TEST_TIMINGS
  ? ['--test-reporter-destination=stdout', `--test-reporter=${new URL('./test-timings.mjs', import.meta.url).pathname}`, `--test-reporter-destination=${process.env.TMS_TEST_TIMINGS}`]
  : [];
// --liftoff-only (V8's baseline WebAssembly tier only; the test runner passes it on to each file's process): every
// PGlite store runs initdb and the migrations in WebAssembly, and a test file's process lives too short for V8's
// optimising recompilation of PostgreSQL's hot functions to pay for its CPU (about a fifth of a database test
// file's CPU). The same code runs; only how V8 compiles it changes. The suites' `tms` processes: TEST_NODE_ARGS.
// Three files at a time on two cores: a test file spends much of its time waiting (timers, the processes it starts,
// the database), so a third file fills that time. A --test-concurrency given on the command line wins.
const concurrency = flags.some((f) => f.startsWith('--test-concurrency')) ? [] : ['--test-concurrency=3'];
const result = spawnSync(
  process.execPath,
  ['--liftoff-only', '--import', 'tsx', '--test', ...concurrency, '--test-reporter=spec', ...timings, ...timeout, ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
