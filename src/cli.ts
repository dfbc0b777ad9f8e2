/**
 * The `tms` command (`npx tms <command>`):
 *   migrate | serve | simulator
 *   company create --name NAME
 *   token create --company ID [--name NAME] | token revoke --id TOKEN_ID
 *   channel add --company ID --phone-number-id ID --waba-id ID [--access-token-stdin] [--throughput MPS]
 *     (the token from stdin or TMS_CHANNEL_ACCESS_TOKEN; --access-token TOKEN still works, with a warning)
 *   channel update --company ID --phone-number-id ID [--access-token-stdin] [--throughput MPS|auto] [--marketing-messages on|off]
 *     (the new token from stdin, or from env TMS_CHANNEL_ACCESS_TOKEN; never from the command line)
 *   channel list --company ID
 *   opt-out add --company ID (--phone-number N | --user-id BSUID) [--reason TEXT]
 *   opt-out remove --company ID (--phone-number N | --user-id BSUID)
 *   opt-out list --company ID [--search DIGITS] [--user-id TEXT] [--page N] [--page-size N]
 *   webhook-endpoint add --company ID --url URL [--events TYPE,...] [--description D] [--secret-stdin]
 *   webhook-endpoint list --company ID | webhook-endpoint remove --company ID --id ENDPOINT_ID
 *   rate-card show --company ID | rate-card set --company ID --file CARD.json | rate-card reset --company ID
 * Add --json for machine-readable output. The database comes from DATABASE_URL or DATA_DIR, as for the
 * service; with PGlite (DATA_DIR) admin commands need the service stopped.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { addChannel, createCompany, createToken, revokeToken, updateChannel } from './admin.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { UNKNOWN_TIER } from './domain/channel.js';
import { createSecretBox } from './domain/secret-box.js';
import { sealStoredTokens } from './engine/credentials.js';
import { addOptOut, listOptOutPage, removeOptOut, requireRecipient } from './engine/opt-outs.js';
import { rateCardOf, replaceRateCard, resetRateCard } from './engine/pricing.js';
import { marketingMessagesOf, setMarketingMessages } from './engine/marketing-route.js';
import { LIST_PRICE_NOTE, type RateCard } from './domain/pricing/rate-card.js';
import { createEndpoint, listEndpoints, removeEndpoint } from './engine/webhook-endpoints.js';
import { AppError } from './errors.js';
import { listChannels } from './store/channels.js';
import { findCompany } from './store/companies.js';
import { DataDirInUseError, migrate, openDatabase, type Store } from './store/db.js';

const USAGE = `usage: tms <command> [options]
  migrate                                  apply pending migrations
  serve                                    run the service (same as npm start)
  simulator [--port N] [--webhook-url URL] [--app-secret S] [--seed N] [--approval-delay-ms N] [--mps N|off] [--username-share 0..1]
                                           run the network simulator standalone
  company create --name NAME               create a company and its first API token
  token create --company ID [--name NAME]  create an API token (shown once)
  token revoke --id TOKEN_ID               revoke a token
  channel add --company ID --phone-number-id ID --waba-id ID [--access-token-stdin] [--throughput MPS]
                                           add a number; the token from stdin or TMS_CHANNEL_ACCESS_TOKEN
                                           (--access-token TOKEN works too, with a warning)
  channel update --company ID --phone-number-id ID [--access-token-stdin] [--throughput MPS|auto] [--marketing-messages on|off]
                                           rotate the network access token (read from stdin, or from
                                           TMS_CHANNEL_ACCESS_TOKEN), set the throughput (auto = the network's) and/or
                                           send MARKETING templates through the Marketing Messages API (on) or /messages
  channel list --company ID
  opt-out add --company ID (--phone-number N | --user-id BSUID) [--reason TEXT]
                                           put a number and/or a BSUID on the company's opt-out list (never sent to)
  opt-out remove --company ID (--phone-number N | --user-id BSUID)
  opt-out list --company ID [--search DIGITS] [--user-id TEXT] [--page N] [--page-size N]
  webhook-endpoint add --company ID --url URL [--events TYPE,...] [--description D] [--secret-stdin]
                                           register a client webhook endpoint (events: message.status_changed,
                                           bulk_send.status_changed or *; the signing secret is generated and
                                           printed once, or read from stdin with --secret-stdin)
  webhook-endpoint list --company ID       the company's endpoints (never the secrets)
  webhook-endpoint remove --company ID --id ENDPOINT_ID
  rate-card show --company ID              the rate card costs are estimated with (Meta's list prices; not an invoice)
  rate-card set --company ID --file CARD.json
                                           replace it: {currency, effective_date, rates: [{market, category, price, source?}]}
                                           (--file - reads stdin); a bad figure is refused naming it, nothing written
  rate-card reset --company ID             back to the card shipped with the service
options: --json  print JSON`;

const OPTIONS = {
  name: { type: 'string' },
  company: { type: 'string' },
  id: { type: 'string' },
  'phone-number-id': { type: 'string' },
  'waba-id': { type: 'string' },
  'access-token': { type: 'string' },
  throughput: { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  'access-token-stdin': { type: 'boolean' },
  'phone-number': { type: 'string' },
  'user-id': { type: 'string' },
  reason: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  'page-size': { type: 'string' },
  file: { type: 'string' },
  'marketing-messages': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function print(json: boolean, result: Record<string, unknown>, lines: string[]): void {
  console.log(json ? JSON.stringify(result) : lines.join('\n'));
}

/** All of stdin as text, trimmed (a token piped in or typed, then end of input). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * The access token of `channel add`: from stdin (`--access-token-stdin`) or TMS_CHANNEL_ACCESS_TOKEN, as `channel
 * update` takes it; `--access-token` on the command line still works but warns (shell history and `ps` show it).
 */
async function tokenForAdd(values: Record<string, unknown>): Promise<string> {
  if (values['access-token-stdin']) {
    const token = await readStdin();
    if (!token) throw new UsageError('--access-token-stdin: stdin held no token');
    return token;
  }
  if (typeof values['access-token'] === 'string' && values['access-token'].trim() !== '') {
    console.error('warning: --access-token puts the token in shell history and the process list; prefer --access-token-stdin or TMS_CHANNEL_ACCESS_TOKEN');
    return values['access-token'];
  }
  const fromEnv = process.env.TMS_CHANNEL_ACCESS_TOKEN;
  if (fromEnv) return fromEnv;
  throw new UsageError('channel add needs the access token: --access-token-stdin, or TMS_CHANNEL_ACCESS_TOKEN');
}

async function withStore<T>(config: Config, work: (store: Store) => Promise<T>, migrateFirst = true): Promise<T> {
  const store = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir }, { statementTimeoutMs: config.dbStatementTimeoutSeconds * 1000 });
  try {
    if (migrateFirst) await migrate(store.db);
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `tms rate-card show|set|reset` (the same rules as GET, PUT and DELETE /api/v1/rate-card). */
async function rateCardCommand(store: Store, sub: string, values: Record<string, unknown>, json: boolean): Promise<number> {
  const companyId = required(values, 'company');
  if (!(await findCompany(store.db, companyId))) throw new UsageError(`no company ${companyId}`);
  let card: RateCard;
  if (sub === 'set') {
    const file = required(values, 'file');
    const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((e: Error) => { throw new UsageError(`--file: ${e.message}`); });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--file: not JSON (${(e as Error).message})`);
    }
    card = await replaceRateCard(store.db, companyId, body);
  } else if (sub === 'reset') card = await resetRateCard(store.db, companyId);
  else card = await rateCardOf(store.db, companyId);
  print(json, { ...card }, [
    `${card.source === 'company' ? "the company's own card" : 'the card shipped with the service'}: ${card.currency}, effective ${card.effective_date}`,
    ...card.rates.map((r) => [r.market, r.category, r.price ?? 'unknown', r.source ?? ''].join('\t')),
    LIST_PRICE_NOTE,
  ]);
  return 0;
}

/** The recipient of `opt-out add|remove`: `--phone-number` and/or `--user-id` (at least one). */
function recipientOptions(values: Record<string, unknown>): { phone_number: string | null; user_id: string | null } {
  const phone = typeof values['phone-number'] === 'string' ? values['phone-number'] : null;
  const userId = typeof values['user-id'] === 'string' ? values['user-id'] : null;
  if (phone === null && userId === null) throw new UsageError('--phone-number or --user-id is required');
  return { phone_number: phone, user_id: userId };
}

/** `tms opt-out add|remove|list` (the same rules as the /api/v1/opt-outs routes). */
async function optOutCommand(store: Store, sub: string, values: Record<string, unknown>, json: boolean): Promise<number> {
  const companyId = required(values, 'company');
  if (!(await findCompany(store.db, companyId))) throw new UsageError(`no company ${companyId}`);
  if (sub === 'add') {
    const reason = typeof values.reason === 'string' ? values.reason : null;
    const { optOut, created } = await addOptOut(store.db, companyId, { ...recipientOptions(values), reason });
    const who = [optOut.phone_number, optOut.user_id].filter(Boolean).join(' / ');
    print(json, { phone_number: optOut.phone_number, user_id: optOut.user_id, created }, [`${who} ${created ? 'added to' : 'was already on'} the opt-out list`]);
    return 0;
  }
  if (sub === 'remove') {
    await removeOptOut(store.db, companyId, requireRecipient(recipientOptions(values)));
    print(json, { removed: true }, ['removed']);
    return 0;
  }
  const int = (name: string, fallback: number, max: number) => {
    const raw = values[name];
    const n = raw === undefined ? fallback : Number(raw);
    if (!(Number.isInteger(n) && n >= 1 && n <= max)) throw new UsageError(`--${name} must be an integer 1-${max}`);
    return n;
  };
  const page = int('page', 1, 1_000_000_000);
  const pageSize = int('page-size', 50, 500);
  const search = typeof values.search === 'string' ? values.search : undefined;
  const userId = typeof values['user-id'] === 'string' ? values['user-id'] : undefined;
  const { items, total } = await listOptOutPage(store.db, companyId, { page, page_size: pageSize, search, user_id: userId });
  const rows = items.map((r) => ({
    phone_number: r.phone_number, user_id: r.user_id, source: r.source, applies_to: r.applies_to, keyword: r.keyword, reason: r.reason,
    created_at: new Date(r.created_at).toISOString(),
  }));
  const line = (r: (typeof rows)[number]) => [r.phone_number ?? '-', r.user_id ?? '-', r.source, r.keyword ?? r.reason ?? '', r.created_at].join('\t');
  print(json, { items: rows, total }, rows.length ? [...rows.map(line), `total: ${total}`] : [`no opt-outs (total ${total})`]);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'simulator') {
    // The simulator has its own flags (--port, --webhook-url, --app-secret, --seed, ...): hand them over as they are.
    const { runSimulatorStandalone } = await import('./network/simulator/index.js');
    const running = await runSimulatorStandalone(argv.slice(1), process.env);
    await running.closed;
    return 0;
  }
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub] = positionals;
  const json = values.json === true;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  if (command === 'serve') {
    // Loaded here, like the simulator above: the service's modules (the HTTP app, the engine, the network adapter)
    // cost an admin command over a second of CPU at every start, and none of them runs there.
    const { runService } = await import('./runtime.js');
    await runService(config);
    return 0;
  }
  const key = sub ? `${command} ${sub}` : command;
  switch (key) {
    case 'migrate':
      return withStore(config, async (store) => {
        const applied = await migrate(store.db);
        // After the SQL: seal channel tokens still stored in plaintext (a migration cannot see TMS_SECRET_KEY).
        const sealed = await sealStoredTokens(store.db, createSecretBox(config.secretKey));
        print(json, { applied, sealed_tokens: sealed }, [
          applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply',
          ...(sealed ? [`sealed ${sealed} channel access token(s)`] : []),
        ]);
        return 0;
      }, false);
    case 'company create':
      return withStore(config, async (store) => {
        const result = await createCompany(store.db, required(values, 'name'));
        print(json, { company_id: result.companyId, token_id: result.tokenId, token: result.token }, [
          `company_id: ${result.companyId}`,
          `token_id:   ${result.tokenId}`,
          `token:      ${result.token}   (shown once; only its hash is stored)`,
        ]);
        return 0;
      });
    case 'token create':
      return withStore(config, async (store) => {
        const result = await createToken(store.db, required(values, 'company'), values.name ?? '');
        print(json, { token_id: result.tokenId, token: result.token }, [
          `token_id: ${result.tokenId}`,
          `token:    ${result.token}   (shown once; only its hash is stored)`,
        ]);
        return 0;
      });
    case 'token revoke':
      return withStore(config, async (store) => {
        const revoked = await revokeToken(store.db, required(values, 'id'));
        print(json, { revoked }, [revoked ? 'revoked' : 'no live token with that id']);
        return revoked ? 0 : 1;
      });
    case 'channel add':
      return withStore(config, async (store) => {
        const throughput = values.throughput === undefined ? undefined : Number(values.throughput);
        if (throughput !== undefined && !(Number.isInteger(throughput) && throughput >= 1 && throughput <= 1000)) {
          throw new UsageError('--throughput must be an integer 1-1000');
        }
        const channel = {
          companyId: required(values, 'company'),
          phoneNumberId: required(values, 'phone-number-id'),
          wabaId: required(values, 'waba-id'),
          accessToken: await tokenForAdd(values),
          throughputMps: throughput,
        };
        await addChannel(store.db, channel, createSecretBox(config.secretKey));
        print(json, { channel_id: channel.phoneNumberId }, [`channel_id: ${channel.phoneNumberId}`]);
        return 0;
      });
    case 'channel update':
      return withStore(config, async (store) => {
        if (values['access-token'] !== undefined) {
          throw new UsageError('channel update takes the token from stdin (--access-token-stdin) or TMS_CHANNEL_ACCESS_TOKEN, never from the command line');
        }
        const accessToken = values['access-token-stdin'] ? await readStdin() : process.env.TMS_CHANNEL_ACCESS_TOKEN || undefined;
        if (values['access-token-stdin'] && !accessToken) throw new UsageError('--access-token-stdin: stdin held no token');
        const raw = values.throughput;
        const throughputMps = raw === undefined ? undefined : raw === 'auto' ? ('auto' as const) : Number(raw);
        if (typeof throughputMps === 'number' && !(Number.isInteger(throughputMps) && throughputMps >= 1 && throughputMps <= 1000)) {
          throw new UsageError('--throughput must be an integer 1-1000 or auto');
        }
        const marketing = values['marketing-messages'];
        if (marketing !== undefined && marketing !== 'on' && marketing !== 'off') throw new UsageError('--marketing-messages must be on or off');
        if (accessToken === undefined && throughputMps === undefined && marketing === undefined) {
          throw new UsageError('channel update needs a token (--access-token-stdin or TMS_CHANNEL_ACCESS_TOKEN), --throughput and/or --marketing-messages');
        }
        const channelId = required(values, 'phone-number-id');
        const companyId = required(values, 'company');
        const result = accessToken === undefined && throughputMps === undefined
          ? { tokenRotated: false, throughput: undefined }
          : await updateChannel(store.db, { companyId, phoneNumberId: channelId, accessToken, throughputMps }, createSecretBox(config.secretKey));
        const setting = marketing === undefined ? undefined : marketingMessagesOf(await setMarketingMessages(store.db, companyId, channelId, marketing === 'on'));
        print(json, {
          channel_id: channelId, token_rotated: result.tokenRotated,
          ...(result.throughput !== undefined ? { throughput: result.throughput } : {}),
          ...(setting ? { marketing_messages: setting } : {}),
        }, [
          `channel_id: ${channelId}`,
          ...(result.tokenRotated ? ['access token rotated (stored sealed); paused bulk sends resume when the service sees the channel healthy'] : []),
          ...(result.throughput !== undefined ? [`throughput: ${result.throughput}`] : []),
          ...(setting ? [`marketing messages: ${setting.enabled ? 'on (MARKETING templates through /marketing_messages)' : 'off'}`] : []),
        ]);
        return 0;
      });
    case 'channel list':
      return withStore(config, async (store) => {
        const rows = await listChannels(store.db, required(values, 'company'));
        const items = rows.map((r) => ({
          channel_id: r.id,
          whatsapp_account_id: r.waba_id,
          display_phone_number: r.display_phone_number,
          status: r.status,
          quality_rating: r.quality_rating,
          messaging_limit_tier: r.messaging_limit_tier ?? UNKNOWN_TIER,
          marketing_messages: r.marketing_messages_enabled ? 'on' : r.marketing_messages_disabled_reason ? `off: ${r.marketing_messages_disabled_reason}` : 'off',
        }));
        print(json, { items }, items.length ? items.map((i) => Object.values(i).join('\t')) : ['no channels']);
        return 0;
      });
    case 'opt-out add':
    case 'opt-out remove':
    case 'opt-out list':
      return withStore(config, (store) => optOutCommand(store, sub, values, json));
    case 'rate-card show':
    case 'rate-card set':
    case 'rate-card reset':
      return withStore(config, (store) => rateCardCommand(store, sub, values, json));
    case 'webhook-endpoint add':
      return withStore(config, async (store) => {
        const secret = values['secret-stdin'] ? await readStdin() : undefined;
        if (values['secret-stdin'] && !secret) throw new UsageError('--secret-stdin: stdin held no secret');
        const events = values.events === undefined ? undefined : values.events.split(',').map((e) => e.trim()).filter(Boolean);
        const deps = { db: store.db, secrets: createSecretBox(config.secretKey) };
        const { endpoint, secret: shown } = await createEndpoint(deps, required(values, 'company'), {
          url: required(values, 'url'),
          description: values.description,
          events,
          secret,
        });
        print(json, { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret: shown }, [
          `id:     ${endpoint.id}`,
          `url:    ${endpoint.url}`,
          `events: ${endpoint.events.join(', ')}`,
          `secret: ${shown}   (shown once; stored sealed)`,
        ]);
        return 0;
      });
    case 'webhook-endpoint list':
      return withStore(config, async (store) => {
        const rows = await listEndpoints({ db: store.db, secrets: createSecretBox(config.secretKey) }, required(values, 'company'));
        const items = rows.map((r) => ({
          id: r.id,
          url: r.url,
          events: r.events,
          enabled: r.enabled,
          disabled_reason: r.disabled_reason,
          consecutive_failures: r.consecutive_failures,
        }));
        print(json, { items }, items.length
          ? items.map((i) => [i.id, i.url, i.events.join(','), i.enabled ? 'enabled' : `disabled (${i.disabled_reason ?? ''})`].join('\t'))
          : ['no webhook endpoints']);
        return 0;
      });
    case 'webhook-endpoint remove':
      return withStore(config, async (store) => {
        await removeEndpoint({ db: store.db, secrets: createSecretBox(config.secretKey) }, required(values, 'company'), required(values, 'id'));
        print(json, { removed: true }, ['removed']);
        return 0;
      });
    default:
      throw new UsageError(`unknown command "${key}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      console.error(`tms: ${(error as Error).message}\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof AppError) {
      const field = error instanceof AppError && error.field ? ` (${error.code}, field ${error.field})` : '';
      console.error(`tms: ${(error as Error).message}${field}`);
      process.exitCode = 1;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  },
);
