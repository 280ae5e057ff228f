// The route to come back to after logging in or verifying travels in navigation state as a path
// string, `state.from` (spec part 1 section 2, access rules).

export function fromState(location: { state: unknown }): string | undefined {
  const state = location.state as { from?: unknown } | null;
  // Only paths on this site: never an absolute URL someone slipped into history state.
  return typeof state?.from === 'string' && state.from.startsWith('/') && !state.from.startsWith('//')
    ? state.from
    : undefined;
}

export function currentPath(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
