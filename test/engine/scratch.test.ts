import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeLeftoverScratch, scratchDir } from '../../src/engine/scratch.js';

/** The pid of a process that ran and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

test('scratch folders of processes no longer running are removed, those of running ones kept', async () => {
  const root = mkdtempSync(join(tmpdir(), 'scratch-test-'));
  try {
    const dead = deadPid();
    const alive = process.ppid; // the test runner
    for (const name of [`tms-file-start-${dead}-aaaaaa`, `tms-media-${dead}-bbbbbb`, `tms-start-${alive}-cccccc`, 'tms-file-start-Xy12ab', 'other-folder']) {
      mkdirSync(join(root, name));
    }
    const removed = await removeLeftoverScratch(root);
    assert.deepEqual(removed.sort(), [`tms-file-start-${dead}-aaaaaa`, 'tms-file-start-Xy12ab', `tms-media-${dead}-bbbbbb`].sort());
    assert.deepEqual(readdirSync(root).sort(), ['other-folder', `tms-start-${alive}-cccccc`]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a scratch folder carries this process's pid, and a start removes those a previous run under the same pid left", async () => {
  const root = mkdtempSync(join(tmpdir(), 'scratch-test-'));
  try {
    const dir = await scratchDir('tms-file-start-', root);
    assert.match(dir, new RegExp(`tms-file-start-${process.pid}-`));
    assert.deepEqual(await removeLeftoverScratch(root), [dir.slice(root.length + 1)]);
    assert.equal(existsSync(dir), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
