/**
 * A sample recipient list for a template, to download and fill in: the header row in plain words (the wizard
 * maps it back by itself) and two example rows with the template's own examples: one customer known by phone
 * number, one known only by the BSUID the network gave (a row needs one of them). CSV through papaparse; XLSX
 * written here as the smallest workbook Excel, LibreOffice and Numbers open (one sheet of inline text cells,
 * so a phone number stays text), zipped with fflate.
 */
import { strToU8, zipSync } from 'fflate';
import Papa from 'papaparse';
import { exampleValues } from '../templates/message.js';
import type { ApiComponent } from '../templates/types.js';
import { sampleHeaders } from './mapping.js';
import type { Slot } from './slots.js';

/** The example rows' phone number, BSUID and names (to be replaced by the user). */
const EXAMPLE_PHONE = '+905551234567';
const EXAMPLE_NAME = 'Ayse Yilmaz';
const EXAMPLE_USER_ID = 'TR.13491208655302741918';
const EXAMPLE_USER_NAME = 'Mehmet Kaya';

/** A URL button's example is the whole link; its column takes the end after the link's fixed part. */
function linkEnd(components: ApiComponent[], slot: Slot, example: string): string {
  const scope = slot.card === undefined ? components : components.find((c) => c.type.toUpperCase() === 'CAROUSEL')?.cards?.[slot.card]?.components ?? [];
  const url = scope.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons?.[slot.index]?.url ?? '';
  const fixedPart = url.split('{{')[0];
  return fixedPart && example.startsWith(fixedPart) ? example.slice(fixedPart.length) : example;
}

/** The sample's rows: the header, then the two example rows. */
export function sampleRows(components: ApiComponent[], slots: Slot[]): string[][] {
  const examples = exampleValues(components);
  const value = (s: Slot) => {
    const example = examples[s.column] ?? '';
    return s.buttonType === 'URL' ? linkEnd(components, s, example) : example;
  };
  return [sampleHeaders(slots), [EXAMPLE_PHONE, '', EXAMPLE_NAME, ...slots.map(value)], ['', EXAMPLE_USER_ID, EXAMPLE_USER_NAME, ...slots.map(value)]];
}

/** The rows as CSV text (with a byte-order mark, so Excel reads it as UTF-8). */
export function sampleCsv(rows: string[][]): string {
  return `\uFEFF${Papa.unparse(rows)}\r\n`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006';

/** The rows as an XLSX workbook (one sheet "Recipients", every cell text). */
export function sampleXlsx(rows: string[][]): Uint8Array {
  const sheetRows = rows.map((row, r) => `<row r="${r + 1}">${row.map((v, c) =>
    `<c r="${columnName(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${xml(v)}</t></is></c>`).join('')}</row>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(`${HEAD}<Types xmlns="${PKG}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    '_rels/.rels': strToU8(`${HEAD}<Relationships xmlns="${PKG}/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Recipients" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`${HEAD}<Relationships xmlns="${PKG}/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    'xl/worksheets/sheet1.xml': strToU8(`${HEAD}<worksheet xmlns="${MAIN}"><sheetData>${sheetRows}</sheetData></worksheet>`),
  });
}
