import { GOAL_BAR_SEGMENTS, goalSegmentsFilled } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';

type GoalBarProps = {
  raisedCents: number;
  goalCents: number;
};

/**
 * The 10-segment goal bar of the fundraiser page (spec part 2 sections 2 and 9). The segments are
 * decoration; assistive technology reads the progressbar's value and its text instead.
 */
export function GoalBar({ raisedCents, goalCents }: GoalBarProps) {
  const filled = goalSegmentsFilled(raisedCents, goalCents);
  const percent = goalCents > 0 ? Math.min(100, Math.floor((raisedCents * 100) / goalCents)) : 0;
  const text = `${formatCents(raisedCents)} raised of a ${formatCents(goalCents)} goal`;
  return (
    <div className="goal-bar">
      <div
        className="goal-bar-segments"
        role="progressbar"
        aria-label="Progress toward the goal"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${text}`}
        data-filled={filled}
      >
        {Array.from({ length: GOAL_BAR_SEGMENTS }, (_, index) => (
          <span
            key={index}
            className={index < filled ? 'goal-bar-segment goal-bar-segment-filled' : 'goal-bar-segment'}
          />
        ))}
      </div>
      <p className="goal-bar-text">{percent}% funded</p>
    </div>
  );
}
