import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// GET /metrics (DESIGN.md, metrics): Prometheus's text format through prom-client, behind
// METRICS_TOKEN. Without the token nothing is recorded (the recorder does nothing), so a site
// nobody scrapes pays nothing per request. With several server processes (WEB_CONCURRENCY) each
// keeps its own figures, labelled with its slot (`server="0"` … and `server="primary"`); a scrape
// answered by any of them asks the primary, which gathers every process's (prom-client's
// AggregatorRegistry.aggregate) and leaves out one that does not answer within two seconds (a
// server starting or dying), so a scrape never fails for a restart. Sum by route in PromQL.

/** What the site counts; each call is a few additions, on the request's own path. */
export type Metrics = {
  /** Whether anything is counted (METRICS_TOKEN is set): callers skip working out what to count. */
  readonly enabled: boolean;
  /** A request answered: its method, the route it matched (a pattern, never an id) and status. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** A job ended: done, failed for now (retrying) or for good, or cut short by a stop. */
  jobEnded(kind: string, outcome: 'done' | 'retrying' | 'failed' | 'interrupted'): void;
  /** A payment intent made for a donation. */
  donationStarted(): void;
  /** A payment fulfilled (the album given, the receipt queued): once per payment, whoever reports it. */
  fulfilled(): void;
  /** How long a write transaction waited for SQLite's write lock (another writer had it). */
  writeLockWaited(seconds: number): void;
  /** SQLite stayed busy past busy_timeout: the request was refused with a 503. */
  sqliteBusy(): void;
  /** Reads the job queue's depth for each scrape. */
  watchJobQueue(depth: () => { kind: string; status: string; count: number }[]): void;
  /** The text of a scrape, every process's figures included; undefined when metrics are off. */
  scrape(): Promise<string | undefined>;
  /** This process's own figures (the primary adds them to the servers'). */
  registry?: Registry;
};

const noMetrics: Metrics = {
  enabled: false,
  request: () => undefined,
  jobEnded: () => undefined,
  donationStarted: () => undefined,
  fulfilled: () => undefined,
  writeLockWaited: () => undefined,
  sqliteBusy: () => undefined,
  watchJobQueue: () => undefined,
  scrape: () => Promise.resolve(undefined),
};

/** Latency buckets, in seconds: from a cached answer (a millisecond) to a long upload's reply. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(enabled: boolean): Metrics {
  if (!enabled) return noMetrics;
  const register = new Registry();
  // Process memory and CPU, the event loop's delay, garbage collection.
  collectDefaultMetrics({ register });
  const requests = new Counter({
    name: 'soundcause_http_requests_total',
    help: 'Requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [register],
  });
  const latency = new Histogram({
    name: 'soundcause_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route.',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [register],
  });
  const jobs = new Counter({
    name: 'soundcause_jobs_ended_total',
    help: 'Background jobs ended, by kind and outcome (done, retrying, failed, interrupted).',
    labelNames: ['kind', 'outcome'],
    registers: [register],
  });
  let queueDepth: (() => { kind: string; status: string; count: number }[]) | undefined;
  new Gauge({
    name: 'soundcause_jobs',
    help: 'Jobs in the queue now, by kind and status (queued, running).',
    labelNames: ['kind', 'status'],
    registers: [register],
    // Read from the shared database: every process reads the same figure, so not summed.
    aggregator: 'first',
    collect() {
      this.reset();
      for (const row of queueDepth?.() ?? []) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  const donations = new Counter({
    name: 'soundcause_donations_started_total',
    help: 'Payment intents made for donations.',
    registers: [register],
  });
  const fulfilments = new Counter({
    name: 'soundcause_fulfilments_total',
    help: 'Payments fulfilled (each once, whoever reported it).',
    registers: [register],
  });
  const lockWait = new Histogram({
    name: 'soundcause_sqlite_write_lock_wait_seconds',
    help: 'How long write transactions waited for SQLite’s write lock.',
    buckets: [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [register],
  });
  const busy = new Counter({
    name: 'soundcause_sqlite_busy_total',
    help: 'Requests refused because SQLite stayed locked past busy_timeout.',
    registers: [register],
  });

  if (cluster.isWorker) {
    // Each server's series carry its slot (SERVER_SLOT, 0 … N-1, kept by its replacement): a
    // server started again restarts its own counters, which Prometheus reads as that series'
    // reset, instead of a site-wide sum going backwards.
    register.setDefaultLabels({ server: process.env.SERVER_SLOT ?? String(cluster.worker?.id ?? 0) });
    process.on('message', (message: CollectRequest) => {
      if (message?.type !== 'soundcause:metrics-collect') return;
      void register
        .getMetricsAsJSON()
        .then((metrics) =>
          process.send?.({ type: 'soundcause:metrics-collected', id: message.id, metrics } satisfies Collected),
        );
    });
  }

  return {
    enabled: true,
    request: (method, route, status, seconds) => {
      requests.inc({ method, route, status });
      latency.observe({ method, route }, seconds);
    },
    jobEnded: (kind, outcome) => jobs.inc({ kind, outcome }),
    donationStarted: () => donations.inc(),
    fulfilled: () => fulfilments.inc(),
    writeLockWaited: (seconds) => lockWait.observe(seconds),
    sqliteBusy: () => busy.inc(),
    // The queue is the same database for every server: read once, by the primary when there is one.
    watchJobQueue: (depth) => {
      if (!cluster.isWorker) queueDepth = depth;
    },
    scrape: () => (cluster.isWorker ? askPrimary() : register.metrics()),
    registry: register,
  };
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

type ScrapeRequest = { type: 'soundcause:metrics'; id: string };
type ScrapeAnswer = { type: 'soundcause:metrics-answer'; id: string; text?: string; error?: string };
type CollectRequest = { type: 'soundcause:metrics-collect'; id: string };
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type Collected = { type: 'soundcause:metrics-collected'; id: string; metrics: MetricsJson };

/** How long the primary waits for each server's figures: one that is starting or dying is left out. */
const COLLECT_WAIT_MS = 2000;

/** A worker's scrape: the primary gathers every process's figures (answerScrapes). */
function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onAnswer);
      reject(new Error('the primary did not answer the metrics scrape'));
    }, 10_000);
    function onAnswer(message: ScrapeAnswer) {
      if (message?.type !== 'soundcause:metrics-answer' || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onAnswer);
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics'));
    }
    process.on('message', onAnswer);
    process.send!({ type: 'soundcause:metrics', id } satisfies ScrapeRequest);
  });
}

/** Every live server's figures, each within COLLECT_WAIT_MS (a server that does not answer is left out). */
function collectFromServers(): Promise<MetricsJson[]> {
  const id = randomUUID();
  const servers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
  return new Promise((resolve) => {
    const gathered: MetricsJson[] = [];
    let waiting = servers.length;
    const done = () => {
      clearTimeout(timer);
      cluster.off('message', onCollected);
      resolve(gathered);
    };
    const timer = setTimeout(done, COLLECT_WAIT_MS);
    function onCollected(_worker: unknown, message: Collected) {
      if (message?.type !== 'soundcause:metrics-collected' || message.id !== id) return;
      gathered.push(message.metrics);
      if (--waiting === 0) done();
    }
    cluster.on('message', onCollected);
    if (waiting === 0) done();
    for (const worker of servers) worker!.send({ type: 'soundcause:metrics-collect', id } satisfies CollectRequest);
  });
}

/**
 * In the primary: answers a server's scrape with every server's figures and the primary's own
 * (the job queue, its memory), each series labelled with its server.
 */
export function answerScrapes(own: Metrics) {
  own.registry?.setDefaultLabels({ server: 'primary' });
  cluster.on('message', (worker, message: ScrapeRequest) => {
    if (message?.type !== 'soundcause:metrics') return;
    void (async () => {
      try {
        const servers = await collectFromServers();
        const mine = own.registry ? [await own.registry.getMetricsAsJSON()] : [];
        const text = await AggregatorRegistry.aggregate([...servers, ...mine]).metrics();
        worker.send({ type: 'soundcause:metrics-answer', id: message.id, text } satisfies ScrapeAnswer);
      } catch (error) {
        worker.send({ type: 'soundcause:metrics-answer', id: message.id, error: String(error) } satisfies ScrapeAnswer);
      }
    })();
  });
}
