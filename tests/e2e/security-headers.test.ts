import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { takeConsoleProblems } from '../fixtures/console-errors';
import { newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import type { TestServer } from '../fixtures/test-server';

// The security headers as a real browser reads them (tests/api/security-headers.test.ts checks
// what they say): a header the browser cannot read is logged on every page, and must fail tests.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

/** Chromium's own list of the features a Permissions-Policy may name. */
type WithFeaturePolicy = Document & { featurePolicy: { features(): string[] } };

describe('Permissions-Policy', () => {
  it('names only features Chromium knows', async () => {
    const { page } = await newPage(browser);
    const answer = await page.goto(`${server.baseUrl}/browse`);
    const header = (await answer!.allHeaders())['permissions-policy'] ?? '';
    const named = header.split(', ').map((entry) => entry.split('=')[0]!);
    expect(named).toContain('camera');
    const known = await page.evaluate(() => (document as WithFeaturePolicy).featurePolicy.features());
    expect(named.filter((feature) => !known.includes(feature))).toEqual([]);
  });

  it("fails a test on the browser's own warning about a page's headers, not on a script's console.warn", async () => {
    const site = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.setHeader('permissions-policy', 'bluetooth=(), camera=()');
      // A favicon of its own, so the browser asks this server for nothing more once it is closed.
      response.end(
        '<!doctype html><title>x</title><link rel="icon" href="data:,">' +
          '<script>console.warn("advice from a library")</script>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const { page } = await newPage(browser);
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      const problems: string[] = [];
      await expect
        .poll(() => {
          problems.push(...takeConsoleProblems());
          return problems.join('\n');
        })
        .toContain("Unrecognized feature: 'bluetooth'");
      expect(problems.join('\n')).not.toContain('advice from a library');
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
