import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createRouter } from './app/router';
import { preloadAnswerSchemas } from './api/http';
import './styles.css';

const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);

// The answers' schemas are not needed to draw the first page (its answers came with it); they are
// fetched once it has loaded, ready for the next page's requests (issue 13).
window.addEventListener('load', () => setTimeout(preloadAnswerSchemas, 0), { once: true });
