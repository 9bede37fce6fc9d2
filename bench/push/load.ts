/**
 * The load generator: for one server, a fixed number of keep-alive connections (an undici Pool),
 * each sending the next pre-signed body as soon as its previous response is read. Load comes in
 * slices: during a slice every connection is busy; between slices the server is left idle, so the
 * servers of a run can take turns.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** What one slice of load observed. */
export interface SliceResult {
  /** 200 responses completed inside the slice. */
  ok: number;
  /** 200 responses in all, with those that completed while the slice drained. */
  completed: number;
  /** Non-200 responses and transport errors: must be zero. */
  errors: number;
  /** From the first request sent to the end of the slice, in ms. */
  windowMs: number;
  /** Latency of each counted response, in ms. */
  latencies: Float64Array;
  /** CPU used by this (load generator) process during the slice, in µs. */
  loadCpuUs: number;
  /** True when the slice ended early because no body was left. */
  exhausted: boolean;
}

/** Keep-alive load against one server, drawing bodies from a shared list with its own cursor. */
export class LoadTarget {
  readonly errorKinds: Record<string, number> = {};
  firstError: string | undefined;
  private readonly pool: Pool;
  private next = 0;

  constructor(
    origin: string,
    private readonly path: string,
    private readonly headers: Record<string, string>,
    /** Each body is sent once to this server, in order; the list may grow between slices. */
    private readonly bodies: readonly Buffer[],
    private readonly connections: number,
  ) {
    this.pool = new Pool(origin, { connections, pipelining: 1 });
  }

  /** Bodies this server has not been sent yet. */
  get remaining(): number {
    return this.bodies.length - this.next;
  }

  /**
   * Keeps every connection busy for `ms`, then waits for the requests in flight to finish. With
   * `rate` (requests per second), sends no faster than that: every server then gets the same load,
   * and its CPU per request can be compared without the load generator's own share varying.
   */
  async slice(ms: number, rate?: number): Promise<SliceResult> {
    const latencies: number[] = [];
    let errors = 0;
    let completed = 0;
    let open = true;
    let exhausted = false;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const deadline = started + ms;
    let ended = deadline;
    let endSlice: () => void = () => {};
    const sliceEnded = new Promise<void>((resolve) => {
      endSlice = () => {
        if (!open) return;
        open = false;
        ended = Math.min(performance.now(), deadline);
        resolve();
      };
    });
    const timer = setTimeout(endSlice, ms);

    let scheduled = 0;
    const worker = async () => {
      while (open) {
        if (rate !== undefined) {
          const due = started + (scheduled++ * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
          if (!open) return;
        }
        const body = this.bodies[this.next];
        if (body === undefined) {
          exhausted = true;
          endSlice();
          return;
        }
        this.next++;
        const sent = performance.now();
        try {
          const response = await this.pool.request({
            method: 'POST',
            path: this.path,
            headers: this.headers,
            body,
          });
          if (response.statusCode === 200) {
            await response.body.dump();
            completed++;
            if (open) latencies.push(performance.now() - sent);
          } else {
            errors++;
            this.fail(String(response.statusCode), await response.body.text());
          }
        } catch (error) {
          errors++;
          this.fail(error instanceof Error ? error.name : 'error', String(error));
        }
      }
    };

    const workers = Array.from({ length: this.connections }, worker);
    await sliceEnded;
    clearTimeout(timer);
    const cpu = process.cpuUsage(cpuStart);
    await Promise.all(workers);
    return {
      ok: latencies.length,
      completed,
      errors,
      windowMs: ended - started,
      latencies: Float64Array.from(latencies),
      loadCpuUs: cpu.user + cpu.system,
      exhausted,
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private fail(kind: string, detail: string): void {
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
    this.firstError ??= `${kind}: ${detail.slice(0, 300)}`;
  }
}

/** The `q` quantile of sorted values, or 0 when there are none. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
