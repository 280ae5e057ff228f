// @vitest-environment happy-dom
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../client/app/router';
import { findPage, pagePaths } from '../../shared/routes';

// The client's router and the server's 404 table (shared/routes.ts) must list the same pages: a
// page the router draws but the table lacks would show fine and still answer 404 (issue 9).

function routePaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [...(route.path ? [route.path] : []), ...routePaths(route.children ?? [])]);
}

/** An address of `pattern`, every parameter filled in ('/artists/:id' → '/artists/x1'). */
function addressOf(pattern: string): string {
  return pattern.replace(/\/:\w+\??/g, '/x1').replace(/\/\*$/, '/x1');
}

/** The page name the router would draw for `pathname`, or null for its Not found page. */
function routerPage(pathname: string): string | null {
  const leaf = matchRoutes(routes, pathname)?.at(-1)?.route;
  if (!leaf?.path || leaf.path === '*') return null;
  return Object.entries(pagePaths).find(([, pattern]) => pattern === leaf.path)?.[0] ?? `unlisted ${leaf.path}`;
}

describe('the client router and shared/routes.ts', () => {
  it('has one route per page of pagePaths, and no other, besides the catch-all Not found', () => {
    const paths = routePaths(routes).filter((path) => path !== '*');
    expect(paths.toSorted()).toEqual(Object.values(pagePaths).toSorted());
  });

  it('chooses the same page as the server for every page address and for addresses of no page', () => {
    const addresses = [
      ...Object.values(pagePaths).map(addressOf),
      '/artists/new',
      '/artists/user',
      '/fundraisers/user',
      '/music/albums/past-donations',
      '/browse',
      '/admin',
      '/fundraisers/new',
      '/nope',
      '/artists',
      '/projects',
      '/projects/x1/elsewhere',
      '/user/x1',
      '/music/album',
      '/support/donate/x1',
    ];
    for (const address of addresses) {
      expect(routerPage(address), address).toBe(findPage(address)?.name ?? null);
    }
  });
});
