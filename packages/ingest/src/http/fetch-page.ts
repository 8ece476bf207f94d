/**
 * One upstream page over HTTP, with the behaviour every source needs and none should
 * re-implement: a per-request timeout, the client-side rate limit, retries with
 * exponential backoff and full jitter that honour `Retry-After` on 429, and a tolerant
 * body reader (a UTF-8 BOM is stripped before parsing).
 *
 * What is retried, and why: network errors, timeouts, 429, 5xx, and a body that is not
 * JSON or does not match the page envelope. The last two are what a truncated or garbled
 * transfer looks like, and a fresh request usually cures them. Other 4xx answers (422 for
 * a bad parameter) are our bug and fail at once. When retries run out the error carries
 * the URL and the reason, and the caller's run fails: it never writes a guessed page.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { z } from "zod";
import type { Logger } from "../logger";
import type { RateLimiter } from "./rate-limiter";

export interface HttpPolicy {
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Ceiling on an upstream `Retry-After`, so a hostile value cannot park a run for hours. */
  maxRetryAfterMs: number;
}

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 30_000,
  retries: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/**
 * How a page body becomes a value when zod is not the reader: the snapshot hot path hands
 * Gamma pages to the engine as bytes (`sources/polymarket/client.ts`). A reader throws for a
 * body that is not a whole page; that is retried like a body that is not JSON.
 */
export interface BodyReader<T> {
  readBody(body: Uint8Array): T;
}

type Envelope = z.ZodType | BodyReader<unknown>;
type EnvelopeOutput<E> = E extends BodyReader<infer T> ? T : E extends z.ZodType ? z.output<E> : never;

/** A page asked for by URL (GET), or by URL and a JSON body (POST: the venues' batch routes). */
export type PageRequest = string | { url: string; body: unknown };

/**
 * `cost` is what the request spends of its limit (`RateLimiter.acquire`): 1 by default, a
 * venue's token price where it bills by tokens. A retry spends it again.
 */
export type PageFetcher = <E extends Envelope>(
  request: PageRequest,
  envelope: E,
  signal?: AbortSignal,
  cost?: number,
) => Promise<EnvelopeOutput<E>>;

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export interface PageFetcherOptions {
  limiter: RateLimiter;
  logger: Logger;
  policy?: Partial<HttpPolicy>;
  random?: () => number;
  /** The HTTP client; the global `fetch` unless a caller measures or wraps it. */
  fetch?: typeof fetch;
}

export function createPageFetcher(options: PageFetcherOptions): PageFetcher {
  const policy = { ...DEFAULT_HTTP_POLICY, ...options.policy };
  const random = options.random ?? Math.random;
  const http = options.fetch ?? globalThis.fetch;

  return async (request, envelope, signal, cost) => {
    const url = typeof request === "string" ? request : request.url;
    const init: RequestInit =
      typeof request === "string"
        ? { headers: { accept: "application/json" } }
        : {
            method: "POST",
            headers: { accept: "application/json", "content-type": "application/json" },
            body: JSON.stringify(request.body),
          };
    for (let attempt = 0; ; attempt += 1) {
      await options.limiter.acquire(signal, cost);
      try {
        return await fetchOnce(http, url, init, envelope, policy.timeoutMs, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const failure = asUpstreamError(error, url);
        if (!failure.retryable || attempt >= policy.retries) throw failure;
        const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * random();
        const retryAfter = error instanceof RetryAfter ? Math.min(error.delayMs, policy.maxRetryAfterMs) : 0;
        const delayMs = Math.max(backoff, retryAfter);
        options.logger.warn(
          {
            url,
            attempt: attempt + 1,
            status: failure.status,
            reason: failure.message,
            delay_ms: Math.round(delayMs),
          },
          "upstream request failed, retrying",
        );
        // An abort while waiting ends the run with the caller's reason, not the timer's.
        await delay(delayMs, undefined, signal ? { signal } : {}).catch((error: unknown) => {
          throw signal?.reason ?? error;
        });
      }
    }
  };
}

class RetryAfter extends UpstreamError {
  constructor(
    url: string,
    readonly delayMs: number,
  ) {
    super(`HTTP 429 from ${url}`, url, 429, true);
  }
}

async function fetchOnce<E extends Envelope>(
  http: typeof fetch,
  url: string,
  init: RequestInit,
  envelope: E,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<EnvelopeOutput<E>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await http(url, { ...init, signal: combined });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (timeout.aborted) throw new UpstreamError(`timed out after ${timeoutMs} ms: ${url}`, url, undefined, true);
    throw new UpstreamError(`network error: ${describe(error)}`, url, undefined, true);
  }
  if (response.status === 429) throw new RetryAfter(url, retryAfterMs(response.headers.get("retry-after")));
  if (response.ok && "readBody" in envelope) {
    try {
      return envelope.readBody(bytes) as EnvelopeOutput<E>;
    } catch (error) {
      throw new UpstreamError(`page failed validation: ${describe(error)}`, url, response.status, true);
    }
  }
  const body = new TextDecoder().decode(bytes);
  if (!response.ok) {
    const retryable = response.status >= 500;
    throw new UpstreamError(
      `HTTP ${response.status} from ${url}: ${body.slice(0, 200)}`,
      url,
      response.status,
      retryable,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
  } catch (error) {
    throw new UpstreamError(`body is not JSON (${describe(error)}), ${body.length} bytes`, url, response.status, true);
  }
  const parsed = (envelope as z.ZodType).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}` : "invalid";
    throw new UpstreamError(`page envelope failed validation: ${where}`, url, response.status, true);
  }
  return parsed.data as EnvelopeOutput<E>;
}

/** `Retry-After` is seconds or an HTTP date; absent or unreadable means "no advice". */
export function retryAfterMs(header: string | null, now: number = Date.now()): number {
  if (!header) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

function asUpstreamError(error: unknown, url: string): UpstreamError {
  if (error instanceof UpstreamError) return error;
  return new UpstreamError(describe(error), url, undefined, false);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
