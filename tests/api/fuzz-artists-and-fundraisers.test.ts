import { describe } from 'vitest';
import { musicPlans } from '../fixtures/fuzz-plans';
import { fuzzRoutes } from '../fixtures/fuzz-suite';

// Issue 14, fuzzing (tests/fixtures/fuzz-suite.ts): artists, fundraisers, their audio and Your music.

describe('fuzzing artists, fundraisers, audio and the library', () => {
  fuzzRoutes('artists and fundraisers', musicPlans);
});
