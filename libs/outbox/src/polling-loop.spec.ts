import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingLoop } from './polling-loop';

/** Long enough that a step which follows it within the test can only have been woken. */
const IDLE_MS = 60_000;
const OPTIONS = { name: 'test-loop', idleDelayMs: IDLE_MS, errorDelayBaseMs: IDLE_MS, errorDelayCapMs: IDLE_MS };

/** A loop whose steps play `outcomes` in turn (a number is work done, an Error a failure), then find nothing. */
function loopOf(outcomes: (number | Error)[], during?: (step: number) => void) {
  const steps: number[] = [];
  const loop = new PollingLoop(OPTIONS, async () => {
    steps.push(steps.length + 1);
    during?.(steps.length);
    const outcome = outcomes[steps.length - 1] ?? 0;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return { loop, steps };
}

/** Lets the loop run what it can without any timer firing. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('PollingLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('runs again at once after work, and pauses for the idle delay after none', async () => {
    const { loop, steps } = loopOf([3, 1, 0]);
    loop.start();
    await settle();
    expect(steps).toEqual([1, 2, 3]);
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(steps).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(steps).toHaveLength(4);
    await loop.stop();
  });

  it('wake() ends the idle pause at once', async () => {
    const { loop, steps } = loopOf([0]);
    loop.start();
    await settle();
    expect(steps).toHaveLength(1);
    loop.wake();
    await settle();
    expect(steps).toHaveLength(2);
    await loop.stop();
  });

  it('wake() during a step that found nothing spares the pause after it', async () => {
    let loop: PollingLoop | undefined;
    const played = loopOf([0, 0], (step) => {
      if (step === 1) loop?.wake();
    });
    loop = played.loop;
    loop.start();
    await settle();
    expect(played.steps).toEqual([1, 2]);
    await loop.stop();
  });

  it('wake() does not cut the backoff after a failure', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { loop, steps } = loopOf([new Error('database away')]);
    loop.start();
    await settle();
    loop.wake();
    await settle();
    expect(steps).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(steps).toHaveLength(2);
    await loop.stop();
  });

  it('stop() ends a pause and resolves without another step', async () => {
    const { loop, steps } = loopOf([0]);
    loop.start();
    await settle();
    await loop.stop();
    await vi.advanceTimersByTimeAsync(IDLE_MS * 2);
    expect(steps).toHaveLength(1);
  });
});
