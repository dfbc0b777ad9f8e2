#!/usr/bin/env node
// Builds the web console (web/ -> web/dist) with Vite. Run by `prestart` and `pretest` (and
// `npm run build:console`, which passes --force). Without --force it builds only when web/dist is missing
// or older than a source under web/ or src/domain/ (or package-lock.json), so `npm start` stays fast after the first
// build. Parallel callers (test files) take a lock directory; the second finds the build fresh and skips.
// When Vite is not installed (a production install without dev dependencies) it warns and exits 0: the
// service then answers 503 at / with how to build it, and the API works as before.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const dist = join(web, 'dist');
const lockDir = join(web, '.build-lock');

/** Newest modification time (ms) of the console's sources. */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(web);
  // The console imports the service's pure rules and limits from src/domain.
  walk(join(root, 'src', 'domain'));
  for (const file of ['package-lock.json']) {
    try {
      newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
    } catch {
      // not there: nothing to compare
    }
  }
  return newest;
}

/** Whether web/dist is missing or older than its sources. */
export function consoleIsStale() {
  let built;
  try {
    built = statSync(join(dist, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  return built < newestSource();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the build lock (bounded wait; a lock left by a dead process is taken over). */
async function lock() {
  for (let i = 0; i < 600; i++) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        // pid not written yet
      }
      if (Number.isInteger(owner) && owner > 0) {
        try {
          process.kill(owner, 0);
        } catch {
          rmSync(lockDir, { recursive: true, force: true });
          continue;
        }
      }
      await sleep(200);
    }
  }
  throw new Error(`build-console: ${lockDir} is held for more than 2 minutes`);
}

/** Builds the console if stale (or always with force). Returns 'built', 'fresh' or 'no-vite'. */
export async function buildConsole({ force = false, quiet = false } = {}) {
  if (!force && !consoleIsStale()) return 'fresh';
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.warn('build-console: vite is not installed (production install?); the console at / will answer 503 until it is built with `npm run build:console`');
    return 'no-vite';
  }
  await lock();
  try {
    if (!force && !consoleIsStale()) return 'fresh';
    const started = Date.now();
    await vite.build({ configFile: join(web, 'vite.config.ts'), logLevel: quiet ? 'error' : 'warn' });
    if (!quiet) console.log(`build-console: web/dist built in ${Date.now() - started} ms`);
    return 'built';
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const force = process.argv.includes('--force');
  buildConsole({ force }).catch((err) => {
    console.error(`build-console: the Vite build failed: ${err?.stack ?? err}`);
    process.exit(1);
  });
}
