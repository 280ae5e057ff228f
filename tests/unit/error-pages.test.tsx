// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RootErrorPage } from '../../client/app/error-pages';

// The root error page of spec part 1 section 2, rendered by the real router around a failing route.

function Broken(): never {
  throw new Error('the layout itself failed');
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('RootErrorPage', () => {
  it("shows 'Whoops!' and the generic message when the whole layout fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <RootErrorPage /> }]);
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => createRoot(container).render(<RouterProvider router={router} />));
    expect(container.querySelector('h1')?.textContent).toBe('Whoops!');
    expect(container.textContent).toContain('Sorry, something went wrong. Please try again later.');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/');
  });
});
