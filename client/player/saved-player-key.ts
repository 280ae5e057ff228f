/** Where a tab keeps its player for a reload (sessionStorage; spec part 1 section 4). */
export const SAVED_PLAYER_KEY = 'soundcause-player';
