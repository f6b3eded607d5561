import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_FLAG, withApiNodeFlags } from './node-flags';

describe('withApiNodeFlags', () => {
  it('adds the young generation flag to the node flags the API process was started with', () => {
    expect(withApiNodeFlags([])).toEqual([YOUNG_GENERATION_FLAG]);
    expect(withApiNodeFlags(['--enable-source-maps'])).toEqual(['--enable-source-maps', YOUNG_GENERATION_FLAG]);
  });

  it('leaves a young generation sized on the command line as it is', () => {
    expect(withApiNodeFlags(['--max-semi-space-size=16'])).toEqual(['--max-semi-space-size=16']);
    expect(withApiNodeFlags(['--max-semi-space-size', '8'])).toEqual(['--max-semi-space-size', '8']);
  });
});
