/** `npx tms simulator`: the simulator as its own process (the service and the network apart, for crash tests). */
import { parseArgs } from 'node:util';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNELS, SIM_WABA_ID } from './constants.js';
import { createSimulator } from './server.js';

/** A standalone simulator: `closed` settles after SIGINT/SIGTERM (or `stop()`) has stopped it. */
export interface StandaloneSimulator {
  url: string;
  rootUrl: string;
  stop(): Promise<void>;
  closed: Promise<void>;
}

function int(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function share(raw: string): number {
  const n = Number(raw);
  if (!/^(0|1|0?\.\d+|1\.0*)$/.test(raw) || n < 0 || n > 1) throw new Error(`--username-share must be a number from 0 to 1, got "${raw}"`);
  return n;
}

/**
 * Starts the simulator from CLI arguments (`--port N --webhook-url URL --app-secret S --seed N
 * --approval-delay-ms N --mps N|off --username-share 0..1`) and env (SIM_PORT, SIM_WEBHOOK_URL, APP_SECRET, SIM_SEED,
 * SIM_APPROVAL_DELAY_MS, SIM_MPS, SIM_USERNAME_SHARE), prints
 * where it listens and the world, and stops cleanly on SIGINT/SIGTERM.
 */
export async function runSimulatorStandalone(
  argv: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void = (line) => console.log(line),
): Promise<StandaloneSimulator> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== 'simulator'),
    options: {
      port: { type: 'string' },
      'webhook-url': { type: 'string' },
      'app-secret': { type: 'string' },
      seed: { type: 'string' },
      'approval-delay-ms': { type: 'string' },
      mps: { type: 'string' },
      'username-share': { type: 'string' },
    },
    strict: true,
  });
  const port = int('--port', values.port ?? env.SIM_PORT, 0);
  const mpsRaw = values.mps ?? env.SIM_MPS;
  const shareRaw = values['username-share'] ?? env.SIM_USERNAME_SHARE;
  const simulator = createSimulator({
    seed: int('--seed', values.seed ?? env.SIM_SEED, 1),
    webhookUrl: values['webhook-url'] ?? env.SIM_WEBHOOK_URL,
    appSecret: values['app-secret'] ?? env.APP_SECRET,
    timings: { templateApprovalDelayMs: int('--approval-delay-ms', values['approval-delay-ms'] ?? env.SIM_APPROVAL_DELAY_MS, 1000) },
    limits: mpsRaw === undefined ? {} : { throughputMps: mpsRaw === 'off' ? null : int('--mps', mpsRaw, 80) },
    users: shareRaw === undefined ? {} : { usernameShare: share(shareRaw) },
  });
  const { url, rootUrl } = await simulator.start(port);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | null = null;
  const stop = () => {
    if (!stopping) {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      stopping = simulator.stop().then(() => {
        print('simulator stopped');
        resolveClosed();
      });
    }
    return stopping;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  print(`simulator listening on ${url}`);
  print(`  admin and inspection: ${rootUrl}/_sim/stats, ${rootUrl}/_sim/received?to=NUMBER`);
  print(`  WABA ${SIM_WABA_ID}, app ${SIM_APP_ID}, access token ${SIM_ACCESS_TOKEN}`);
  for (const c of SIM_CHANNELS) {
    print(`  channel ${c.id} ${c.displayPhoneNumber} "${c.verifiedName}" ${c.status}/${c.qualityRating}/${c.messagingLimitTier}`);
  }
  const target = values['webhook-url'] ?? env.SIM_WEBHOOK_URL;
  print(`  webhooks: ${target ?? '(no target: events are dropped; POST /_sim/webhook-target to set one)'}`);
  return { url, rootUrl, stop, closed };
}
