/** Helpers for the file routes: recipient lists made with csv-stringify and exceljs, and multipart requests. */
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { Harness } from './harness.js';

/** A table: the header row, then data rows. */
export type Table = Array<Array<string | number | null>>;

/** The table as CSV bytes (csv-stringify). */
export function csvOf(table: Table, delimiter = ','): Buffer {
  return Buffer.from(stringify(table, { delimiter }));
}

/** The table as XLSX bytes (exceljs), on the first worksheet. */
export async function xlsxOf(table: Table): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('recipients');
  for (const row of table) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** One multipart part: a field, or the file. */
export type Part = { name: string; value: string } | { name: string; fileName: string; type: string; data: Buffer };

/** A multipart/form-data body with the parts in the given order. */
export function multipartBody(parts: Part[]) {
  const boundary = '----tms' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.type}\r\n\r\n`));
      chunks.push(p.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts a file start; answers status and JSON body. */
export async function startFile(h: Harness, parts: Part[], token = h.a.token, headers: Record<string, string> = {}) {
  const { payload, contentType } = multipartBody(parts);
  const res = await h.app.http.inject({
    method: 'POST',
    url: '/agent-app/message-template/send-wizard/start-file',
    headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** The usual fields of a file start, as parts. */
export function fieldParts(fields: Record<string, string | number | boolean | object>): Part[] {
  return Object.entries(fields).map(([name, v]) => ({ name, value: typeof v === 'object' ? JSON.stringify(v) : String(v) }));
}

/** A CSV file part. */
export function csvPart(table: Table, fileName = 'recipients.csv'): Part {
  return { name: 'file', fileName, type: 'text/csv', data: csvOf(table) };
}

/** An XLSX file part. */
export async function xlsxPart(table: Table, fileName = 'recipients.xlsx'): Promise<Part> {
  return { name: 'file', fileName, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: await xlsxOf(table) };
}
