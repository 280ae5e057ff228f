import { describe, expect, it } from 'vitest';
import { GOAL_BAR_SEGMENTS, goalSegmentsFilled } from '../../shared/constants';

// Spec part 2 section 2: filled segments = floor(min(raised, goal) * 10 / goal).
describe('goalSegmentsFilled', () => {
  it('fills nothing before the first donation and everything at the goal', () => {
    expect(goalSegmentsFilled(0, 50_000)).toBe(0);
    expect(goalSegmentsFilled(50_000, 50_000)).toBe(GOAL_BAR_SEGMENTS);
  });

  it('rounds down: a segment fills only once its whole tenth is raised', () => {
    expect(goalSegmentsFilled(4_999, 50_000)).toBe(0);
    expect(goalSegmentsFilled(5_000, 50_000)).toBe(1);
    expect(goalSegmentsFilled(49_999, 50_000)).toBe(9);
    expect(goalSegmentsFilled(1, 3)).toBe(3);
    expect(goalSegmentsFilled(2, 3)).toBe(6);
  });

  it('never fills more than 10, however far past the goal', () => {
    expect(goalSegmentsFilled(1_000_000, 50_000)).toBe(10);
  });

  it('fills nothing for a missing or zero goal rather than dividing by zero', () => {
    expect(goalSegmentsFilled(1_000, 0)).toBe(0);
    expect(goalSegmentsFilled(1_000, -5)).toBe(0);
  });
});
