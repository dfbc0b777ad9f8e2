/**
 * `npm run openapi`: writes the client types generated from the OpenAPI document (web/src/generated/api.d.ts: the console and the tests import them) and,
 * with `--json FILE`, the document itself. `npm run openapi:check` (CI): validates the document against the
 * OpenAPI 3.1 schema (@readme/openapi-parser), applies the house rules (test/support/openapi-check.ts) and fails
 * when the committed client types are not what the document generates.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { compileErrors, validate } from '@readme/openapi-parser';
import { checkDocument } from '../test/support/openapi-check.js';
import { buildOpenapiDocument, generateClientTypes, GENERATED_TYPES_PATH } from '../test/support/openapi-doc.js';

const args = process.argv.slice(2);
const doc = await buildOpenapiDocument();
const types = await generateClientTypes(doc);
const jsonAt = args.indexOf('--json');
if (jsonAt >= 0 && args[jsonAt + 1]) await writeFile(args[jsonAt + 1], JSON.stringify(doc, null, 2) + '\n');

if (!args.includes('--check')) {
  await writeFile(GENERATED_TYPES_PATH, types);
  console.log(`wrote ${GENERATED_TYPES_PATH.pathname}`);
} else {
  let failed = false;
  const result = await validate(structuredClone(doc) as never);
  if (!result.valid) {
    failed = true;
    console.error(`The document is not valid OpenAPI:\n${compileErrors(result)}`);
  }
  const problems = checkDocument(doc);
  for (const p of problems) console.error(`rule: ${p}`);
  failed ||= problems.length > 0;
  const committed = await readFile(GENERATED_TYPES_PATH, 'utf8').catch(() => '');
  if (committed !== types) {
    failed = true;
    console.error('web/src/generated/api.d.ts is not what the document generates: run `npm run openapi` and commit it.');
  }
  console.log(failed ? 'openapi:check failed' : `openapi:check passed (${Object.keys(doc.paths).length} paths)`);
  process.exit(failed ? 1 : 0);
}
