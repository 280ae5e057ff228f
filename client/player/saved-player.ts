import * as z from 'zod/mini';
import { playerTrackSchema } from '../../shared/answers/library';
import type { SavedPlayer } from './player-logic';
import { SAVED_PLAYER_KEY } from './saved-player-key';

// What this tab saved of its player for a reload (spec part 1 section 4: sessionStorage), read
// back only when the player's link starts (start-player.ts), with the link's own code: checking
// it takes the schema library, which a page that only shows Play buttons does not load (issue 24).

const savedSchema = z.object({
  tracklist: z.array(playerTrackSchema),
  index: z.int().check(z.nonnegative()),
  position: z.number().check(z.nonnegative()),
});

/** The player this tab saved, if it is still there and still has the shape of one. */
export function readSavedPlayer(): SavedPlayer | undefined {
  try {
    const raw = sessionStorage.getItem(SAVED_PLAYER_KEY);
    const parsed = raw ? savedSchema.safeParse(JSON.parse(raw)) : undefined;
    return parsed?.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
