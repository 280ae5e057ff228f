import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { csvLine } from '../server/infra/csv';
import { insertSucceededDonations } from '../tests/fixtures/donations';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { adminClient, startTestServer, verifiedUser } from '../tests/fixtures/test-server';

// Issue 11, Transactions CSV: the download is streamed a page of rows at a time, so 100,000
// transactions cost the server what 10,000 do. Downloads GET /api/admin/transactions/download at
// both sizes to the end, sampling the process's RSS, next to a bare node:http server writing CSV
// lines of the same shape from a loop (no database, no framework) in the same run.

const MB = 1024 * 1024;

type Download = { rows: number; seconds: number; peakGrowthMb: number };

async function download(url: string, headers: Record<string, string>): Promise<Download> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  let lines = 0;
  try {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (response.headers.get('content-length')) throw new Error('the CSV was not streamed');
    // Count line ends as they pass; each chunk is dropped once counted.
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
    }
    return {
      rows: lines - 1,
      seconds: (performance.now() - started) / 1000,
      peakGrowthMb: (Math.max(peak, process.memoryUsage().rss) - baseline) / MB,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The same kind of lines, written by a bare server 1,000 at a time as the socket drains. */
function bareCsvServer(rows: number) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
    let written = 0;
    const writeSome = () => {
      while (written < rows) {
        let chunk = '';
        const end = Math.min(rows, written + 1000);
        for (; written < end; written++) {
          chunk += csvLine([
            new Date(1767225600000 + written * 1000).toISOString(),
            written,
            1,
            'Bench fundraiser',
            'American National Red Cross',
            '530196605',
            'https://www.redcross.org',
            `Fan "Number", ${written}`,
            `fan${written}@example.org`,
            1000,
            0,
            52,
            '10.00',
            '0.00',
          ]);
        }
        if (!res.write(chunk)) return void res.once('drain', writeSome);
      }
      res.end();
    };
    writeSome();
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function benchTransactionsCsv(sizes = [10_000, 100_000]) {
  console.log('\nTransactions CSV: GET /api/admin/transactions/download read to the end');
  for (const count of sizes) {
    const server = await startTestServer();
    const owner = await verifiedUser(server, 'csv-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
    insertSucceededDonations(server, fundraiser.id, count);
    const admin = await adminClient(server, 'csv-admin@example.org');
    const headers = {
      cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-forwarded-for': admin.ip,
      // The same bytes as the bare server sends: a browser asking for gzip gets it compressed as
      // it streams, which is the compressor's time, not the download's.
      'accept-encoding': 'identity',
    };
    const bare = await bareCsvServer(count);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const appUrl = `${server.baseUrl}/api/admin/transactions/download`;
    try {
      await download(bareUrl, {}); // warm-up: the HTTP client and the code paths
      const bareRun = await download(bareUrl, {});
      const appRun = await download(appUrl, headers);
      if (appRun.rows !== count) throw new Error(`expected ${count} rows in the CSV, read ${appRun.rows}`);
      const show = (name: string, run: Download) =>
        console.log(
          `  ${name.padEnd(44)} ${(run.rows / run.seconds).toFixed(0).padStart(8)} rows/s  ` +
            `peak RSS +${run.peakGrowthMb.toFixed(1)} MB`,
        );
      console.log(`  ${count.toLocaleString('en-US')} transactions`);
      show('baseline: bare node:http writing CSV lines', bareRun);
      show('the app: keyset pages from SQLite, streamed', appRun);
      console.log(`  ${''.padEnd(44)} ${(bareRun.seconds / appRun.seconds).toFixed(2)}× the baseline's rate`);
    } finally {
      bare.close();
      await server.close();
    }
  }
}
