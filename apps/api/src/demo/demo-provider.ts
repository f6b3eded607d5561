import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The simulator's own entry point, built beside this app (`npm run build` compiles both). */
const PROVIDER_SIM_MAIN = resolve(__dirname, '..', '..', '..', 'provider-sim', 'src', 'main.js');
/** The demo connector's secrets: the simulator's development defaults, for a demo on loopback only. */
export const DEMO_PROVIDER_SECRET = 'sim_secret_dev';
export const DEMO_PROVIDER_WEBHOOK_SECRET = 'sim_webhook_dev';
const READY_TIMEOUT_MS = 15_000;
const OUTPUT_KEPT_CHARS_MAX = 4_000;

export interface DemoProvider {
  url: string;
  /** Where the simulator sends its signed webhooks from now on. */
  sendWebhooksTo(url: string): Promise<void>;
  stop(): void;
}

/**
 * The payment provider simulator (apps/provider-sim) as a process of its own beside the demo's API, as a
 * real provider would be: the demo's payment orders go through it, with a few faults on so that the
 * console shows unknown outcomes, refusals and returns. Undefined (and a note printed) when it cannot start,
 * e.g. its port is taken: the demo's orders then wait, asked about again, until it answers.
 */
export async function startDemoProvider(port: number): Promise<DemoProvider | undefined> {
  const child: ChildProcess = spawn(process.execPath, [PROVIDER_SIM_MAIN], {
    env: {
      PROVIDER_SIM_PORT: String(port),
      PROVIDER_SIM_SECRET: DEMO_PROVIDER_SECRET,
      PROVIDER_SIM_WEBHOOK_SECRET: DEMO_PROVIDER_WEBHOOK_SECRET,
      PROVIDER_SIM_FAULTS: 'timeout_after_execute=0.1,error_before_execute=0.1,reject=0.05,return=0.05,latency_ms=30',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT_CHARS_MAX);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const ready = await new Promise<boolean>((resolveReady) => {
    const timer = setTimeout(() => resolveReady(false), READY_TIMEOUT_MS);
    child.stdout?.on('data', () => {
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolveReady(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolveReady(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    console.warn(`the provider simulator did not start on port ${port}:\n${output.trim()}`);
    return undefined;
  }
  process.once('exit', () => child.kill('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async sendWebhooksTo(target: string) {
      const answer = await fetch(`${url}/__sim/webhook-url`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: target, secret: DEMO_PROVIDER_WEBHOOK_SECRET }),
      });
      if (!answer.ok) throw new Error(`the provider simulator refused its webhook URL: ${answer.status}`);
    },
    stop: () => child.kill('SIGTERM'),
  };
}
