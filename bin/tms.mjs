#!/usr/bin/env node
// The `tms` command. In development it runs src/cli.ts through tsx (no build step). With NODE_ENV=production,
// or where src/ is absent (an image with only the build), it runs the build (`npm run build` → dist/cli.js) with
// plain node: no transpiler at run time.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url);
const src = new URL('../src/cli.ts', import.meta.url);
if (process.env.NODE_ENV === 'production' || !existsSync(src)) {
  if (!existsSync(dist)) {
    console.error('tms: dist/cli.js is missing: run `npm run build` first (NODE_ENV=production runs the build, never the sources)');
    process.exit(1);
  }
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(src.href);
}
