import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { DiskStringTable } from '../../src/engine/disk-string-table.js';

function withTable(fn: (table: DiskStringTable, path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tms-strings-'));
  const path = join(dir, 'strings');
  const table = new DiskStringTable(path);
  try {
    fn(table, path);
  } finally {
    table.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a string table gives back every string by its index, multi-byte and empty ones too', () => {
  withTable((table) => {
    const texts = ['+905551234567', '', 'Ayşe Yılmaz', '名前', 'x'.repeat(70_000), 'last'];
    for (const t of texts) table.add(t);
    table.seal();
    assert.equal(table.size, texts.length);
    texts.forEach((t, i) => assert.equal(table.get(i), t));
    assert.equal(table.get(texts.length), undefined);
    assert.equal(table.get(-1), undefined);
  });
});

test('a string table keeps its texts in the file, not in memory: 200,000 strings grow the file, and lookups read it', () => {
  withTable((table, path) => {
    for (let i = 0; i < 200_000; i += 1) table.add(`+90555${String(i).padStart(7, '0')}`);
    table.seal();
    assert.equal(statSync(path).size, 200_000 * 13);
    assert.equal(table.get(0), '+905550000000');
    assert.equal(table.get(123_456), '+905550123456');
    assert.equal(table.get(199_999), '+905550199999');
  });
});
