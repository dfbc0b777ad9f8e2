/**
 * Files in and out at scale: an N-row CSV (generated on disk with csv-stringify) is uploaded
 * to `send-wizard/start-file` of one `tms serve` process on PostgreSQL, streamed from disk as multipart; then the
 * bulk send's report detail is downloaded through the CSV and the XLSX export and counted. Measured: the time
 * to the 200 answer and rows/s, the service's peak RSS during each phase (VmRSS sampled every 100 ms from
 * /proc, and its idle RSS before), the export times and their peak RSS. The FLAGGED channel holds the rows
 * (stored, never sent), as in the large-start figure of `npm run bench`.
 *
 * Standalone: `npx tsx bench/file-start.ts [--rows 1000000] [--xlsx] [--no-exports] [--node-args '--trace-gc']` (`--xlsx`: the
 * list written as XLSX with exceljs' streaming writer instead of CSV; `--no-exports`: the start only; `--node-args`: Node
 * options of the service process); `npm run bench` runs it (CSV) in its PostgreSQL scale world
 * (full form 1,000,000 rows, `--quick` 20,000). Every loop is bounded.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { request } from 'undici';
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { BENCH_TOKEN, startWorld, type World } from './lib/world.js';

const A = '/agent-app/message-template/send-wizard';
const TIMEOUT_MS = 60 * 60_000;

/** The upload's format. */
export type SheetFormat = 'csv' | 'xlsx';

/** What the file bench measured. */
export interface FileBenchResult {
  rows: number;
  format: SheetFormat;
  fileMb: number;
  idleRssMb: number;
  start: { seconds: number; rowsPerSecond: number; peakRssMb: number };
  exports: Array<{ format: 'csv' | 'xlsx'; seconds: number; mb: number; peakRssMb: number; rowsPerSecond: number }>;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** Runs `work` while sampling the process's RSS every 100 ms; returns its result, seconds and the peak RSS. */
async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMb: number }> {
  let peak = await rssMb(pid);
  const timer = setInterval(() => {
    rssMb(pid).then((v) => (peak = Math.max(peak, v)), () => undefined);
  }, 100);
  const t0 = performance.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - t0) / 1000, peakRssMb: Math.max(peak, await rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** The bench's recipient list (for the bench template: body {{1}} {{2}}, URL button variable), header first. */
function* sheetRows(n: number): Generator<Array<string | number>> {
  yield ['id', 'phone_number', 'full_name', 'BODY.1', 'BODY.2', 'url_button_param'];
  for (let i = 0; i < n; i += 1) yield [i + 1, `90578${String(i * 10 + 13).padStart(8, '0')}`, `Customer ${i + 1}`, `N${i}`, `C${i}`, `p${i}`];
}

/** Writes an N-row recipient list as CSV (csv-stringify), streamed to disk. */
async function writeCsv(path: string, n: number): Promise<void> {
  await pipeline(Readable.from(sheetRows(n)), stringify(), createWriteStream(path));
}

/**
 * Writes an N-row recipient list as XLSX with exceljs' streaming WorkbookWriter (shared strings, as spreadsheet
 * programs write them, so the reader's shared-strings table is part of what is measured), streamed to disk.
 */
async function writeXlsx(path: string, n: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('recipients');
  let k = 0;
  for (const row of sheetRows(n)) {
    sheet.addRow(row).commit();
    // Let the zip stream write out what it has (the writer does not wait by itself).
    if (++k % 10_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
}

const FILE_TYPES: Record<SheetFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Uploads the file as multipart (fields first, then the file streamed from disk); returns the answer. */
async function upload(world: World, path: string, format: SheetFormat): Promise<{ send_wizard_id: string; summary: number }> {
  const boundary = `----tmsbench${Date.now()}`;
  const fields = { message_template_id: world.templateId, channel_id: SIM_CHANNEL_IDS.flagged, total_time: '0' };
  const head = Buffer.from(
    Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="recipients.${format}"\r\nContent-Type: ${FILE_TYPES[format]}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = (await stat(path)).size;
  async function* body() {
    yield head;
    for await (const chunk of createReadStream(path)) yield chunk as Buffer;
    yield tail;
  }
  const res = await request(`http://127.0.0.1:${world.ports[0]}${A}/start-file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    body: Readable.from(body()),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const answer = (await res.body.json()) as { data?: { send_wizard_id: string; summary: number } };
  if (res.statusCode !== 200 || !answer.data) throw new Error(`start-file failed: ${res.statusCode} ${JSON.stringify(answer)}`);
  return answer.data;
}

/** Downloads an export, counting its bytes (and, for CSV, its lines); nothing is kept. */
async function download(world: World, id: string, format: 'csv' | 'xlsx'): Promise<{ bytes: number; lines: number }> {
  const res = await request(`http://127.0.0.1:${world.ports[0]}${A}/reports/detail/export?id=${id}&format=${format}`, {
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  if (res.statusCode !== 200) throw new Error(`export failed: ${res.statusCode} ${await res.body.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    if (format === 'csv') for (const b of chunk as Buffer) if (b === 10) lines += 1;
  }
  return { bytes, lines };
}

/** The file bench on a PostgreSQL world (a fresh one unless given; a given one is left running). */
export async function fileBench(
  rows: number,
  log: (line: string) => void = () => undefined,
  given?: World,
  options: { exports?: boolean; format?: SheetFormat; serviceNodeArgs?: string[]; serviceOutput?: boolean } = {},
): Promise<FileBenchResult> {
  const format = options.format ?? 'csv';
  const dir = await mkdtemp(join(tmpdir(), 'tms-file-bench-'));
  const world = given ?? (await startWorld({ database: 'postgres', instances: 1, simMps: null, channelMps: 1000, serviceNodeArgs: options.serviceNodeArgs }));
  try {
    const file = join(dir, `recipients.${format}`);
    const t0 = performance.now();
    await (format === 'csv' ? writeCsv : writeXlsx)(file, rows);
    const fileMb = (await stat(file)).size / 2 ** 20;
    const pid = world.services[0].child.pid!;
    const idleRssMb = await rssMb(pid);
    log(`file-start: ${rows} rows, ${fileMb.toFixed(1)} MB ${format.toUpperCase()} (written in ${((performance.now() - t0) / 1000).toFixed(1)} s); service idle RSS ${idleRssMb} MB`);
    const started = await sampled(pid, () => upload(world, file, format));
    if (started.value.summary !== rows) throw new Error(`start-file stored ${started.value.summary} rows, not ${rows}`);
    const result: FileBenchResult = {
      rows,
      format,
      fileMb,
      idleRssMb,
      start: { seconds: started.seconds, rowsPerSecond: rows / started.seconds, peakRssMb: started.peakRssMb },
      exports: [],
    };
    log(`file-start: 200 after ${started.seconds.toFixed(1)} s, peak RSS ${started.peakRssMb} MB`);
    if (options.serviceOutput) log(`service output (last 20k characters):\n${world.services[0].output()}`);
    for (const format of options.exports === false ? [] : (['csv', 'xlsx'] as const)) {
      const got = await sampled(pid, () => download(world, started.value.send_wizard_id, format));
      if (format === 'csv' && got.value.lines !== rows + 1) throw new Error(`CSV export has ${got.value.lines} lines, not ${rows + 1}`);
      result.exports.push({ format, seconds: got.seconds, mb: got.value.bytes / 2 ** 20, peakRssMb: got.peakRssMb, rowsPerSecond: rows / got.seconds });
      log(`file-start: ${format} export ${(got.value.bytes / 2 ** 20).toFixed(1)} MB in ${got.seconds.toFixed(1)} s, peak RSS ${got.peakRssMb} MB`);
    }
    return result;
  } finally {
    if (!given) await world.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The bench table rows of a result: [scenario, setup, measured]. */
export function fileBenchRows(r: FileBenchResult): Array<[string, string, string]> {
  return [
    [
      `${r.format.toUpperCase()} file start`,
      `postgres, 1 instance, ${r.rows} rows (${r.fileMb.toFixed(0)} MB ${r.format.toUpperCase()}, multipart)`,
      `200 after ${r.start.seconds.toFixed(1)} s (${r.start.rowsPerSecond.toFixed(0)} rows/s); service peak RSS ${r.start.peakRssMb} MB (idle ${r.idleRssMb} MB)`,
    ],
    ...r.exports.map((e): [string, string, string] => [
      'report export',
      `postgres, ${r.rows} rows, ${e.format}`,
      `${e.mb.toFixed(0)} MB in ${e.seconds.toFixed(1)} s (${e.rowsPerSecond.toFixed(0)} rows/s); service peak RSS ${e.peakRssMb} MB`,
    ]),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--rows');
  const rows = at > 0 ? Number(process.argv[at + 1]) : 1_000_000;
  const nodeArgs = process.argv.indexOf('--node-args');
  fileBench(rows, (line) => console.error(`[bench] ${line}`), undefined, {
    exports: !process.argv.includes('--no-exports'),
    format: process.argv.includes('--xlsx') ? 'xlsx' : 'csv',
    serviceNodeArgs: nodeArgs > 0 ? process.argv[nodeArgs + 1].split(' ').filter(Boolean) : undefined,
    serviceOutput: process.argv.includes('--service-output'),
  })
    .then((r) => {
      for (const row of fileBenchRows(r)) console.log(`| ${row.join(' | ')} |`);
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
