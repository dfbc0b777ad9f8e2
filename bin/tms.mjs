#!/usr/bin/env node
// The `tms` command: runs src/cli.ts through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
