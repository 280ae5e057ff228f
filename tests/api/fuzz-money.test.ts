import { describe } from 'vitest';
import { moneyPlans } from '../fixtures/fuzz-plans';
import { fuzzRoutes } from '../fixtures/fuzz-suite';

// Issue 14, fuzzing (tests/fixtures/fuzz-suite.ts): donations, payments, receipts' links, the
// admins' money and featured lists, and the charity directory.

describe('fuzzing donations, payments, admin money and charities', () => {
  fuzzRoutes('money', moneyPlans);
});
