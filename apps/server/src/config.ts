/**
 * The configuration contract of DESIGN.md, parsed once at start-up from the environment.
 * Nothing else in the server reads `process.env`: the typed `Config` is passed in. An
 * invalid value stops the process with a message that names the variable and says what
 * it expects, because a server that starts half-configured fails later and less clearly.
 */
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import type { IngestConfig } from "@epicenter/ingest";
import { z } from "zod";

/** A comma-separated list: items trimmed and lower-cased, empty ones dropped, each checked by `problem`. */
const commaList = (problem: (item: string) => string | undefined) =>
  z.string().transform((value, ctx) => {
    const list = value
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
    for (const item of list) {
      const message = problem(item);
      if (message) ctx.addIssue({ code: "custom", message });
    }
    return list;
  });

const emails = commaList((email) =>
  z.email().safeParse(email).success ? undefined : `a comma-separated list of e-mail addresses ("${email}" is not one)`,
).default([]);

/** The scheduler's work between snapshots, each of which an operator may turn off. */
export const SYNC_WORKERS = ["books", "backfill", "history", "crossvenue", "live"] as const;
export type SyncWorker = (typeof SYNC_WORKERS)[number];

const syncWorkers = commaList((name) =>
  (SYNC_WORKERS as readonly string[]).includes(name)
    ? undefined
    : `a comma-separated list of ${SYNC_WORKERS.join(", ")} ("${name}" is not one; empty runs snapshots only)`,
)
  .default([...SYNC_WORKERS])
  .transform((list) => new Set(list as SyncWorker[]));

const optionalUrl = (what: string) =>
  z
    .string()
    .trim()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url({ error: `a URL (${what})` }).optional())
    .optional();

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const integer = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .transform((value, ctx) => {
      const parsed = Number(value);
      if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
        ctx.addIssue({ code: "custom", message: `a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

/** A DNS name as RFC 1123 allows it: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const ZEnvironment = z.object({
  PORT: integer(0, 65535, 3000),
  // Loopback unless the operator opens it: a server that answers every interface by
  // default is reachable from wherever the machine is before its keys and allow-list are set.
  HOST: z
    .string()
    .trim()
    .default("127.0.0.1")
    .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), {
      message: "an IP address or a host name to listen on, for example 127.0.0.1, 0.0.0.0 or ::",
    }),
  CLICKHOUSE_HTTP_PORT: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return undefined;
      const parsed = Number(value);
      if (!/^\d+$/.test(value) || parsed > 65535) {
        ctx.addIssue({ code: "custom", message: "a whole number from 0 to 65535 (or unset)" });
        return z.NEVER;
      }
      return parsed;
    }),
  DATA_DIR: z.string().trim().min(1, "a directory path").default("./data"),
  CLICKHOUSE_URL: optionalUrl("for example http://user:password@host:8123/default"),
  CLICKHOUSE_USER: optionalString,
  CLICKHOUSE_PASSWORD: optionalString,
  CLICKHOUSE_CLUSTER: optionalString,
  CLICKHOUSE_SANDBOX_USER: optionalString,
  CLICKHOUSE_SANDBOX_PASSWORD: optionalString,
  DATABASE_URL: optionalUrl("for example postgres://user:password@host:5432/epicenter"),
  PUBLIC_URL: optionalUrl("the origin users open, for example https://epicenter.example.com"),
  POLYMARKET_API_URL: z.url({ error: "a URL of the Polymarket Gamma API" }).default("https://gamma-api.polymarket.com"),
  POLYMARKET_CLOB_URL: z
    .url({ error: "a URL of the Polymarket CLOB API (price history)" })
    .default("https://clob.polymarket.com"),
  POLYMARKET_DATA_URL: z
    .url({ error: "a URL of the Polymarket Data API (trades)" })
    .default("https://data-api.polymarket.com"),
  KALSHI_API_URL: z
    .url({ error: "a URL of the Kalshi Trade API v2" })
    .default("https://external-api.kalshi.com/trade-api/v2"),
  KALSHI_RATE_TOKENS_PER_SECOND: integer(10, 100_000, 200),
  POLYMARKET_WS_URL: z
    .url({ error: "a WebSocket URL of Polymarket's CLOB market channel" })
    .default("wss://ws-subscriptions-clob.polymarket.com/ws/market"),
  KALSHI_WS_URL: z
    .url({ error: "a WebSocket URL of the Kalshi Trade API" })
    .default("wss://external-api-ws.kalshi.com/trade-api/ws/v2"),
  KALSHI_API_KEY_ID: optionalString,
  KALSHI_PRIVATE_KEY_PATH: optionalString.transform((path, ctx) => {
    if (path === undefined) return undefined;
    try {
      const pem = readFileSync(resolve(path), "utf8");
      createPrivateKey(pem);
      return pem;
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not an RSA private key in PEM";
      ctx.addIssue({ code: "custom", message: `the path of the Kalshi API key's private key (${path}: ${why})` });
      return z.NEVER;
    }
  }),
  SYNC_INTERVAL_SECONDS: integer(0, 86_400, 600),
  SYNC_WORKERS: syncWorkers,
  SMTP_URL: optionalUrl("for example smtp://user:password@smtp.example.com:587"),
  MAIL_FROM: optionalString,
  ADMIN_EMAILS: emails,
  ALLOWED_EMAILS: emails,
  SEISMO_BASE_URL: optionalUrl("an OpenAI-compatible endpoint, for example http://localhost:11434/v1"),
  SEISMO_API_KEY: optionalString,
  SEISMO_MODEL: optionalString,
  SEARCH_API_URL: optionalUrl("a web search endpoint for Seismo"),
  SEARCH_API_KEY: optionalString,
  SUPPORT_EMAIL: z.union([z.literal(""), z.email({ error: "an e-mail address" })]).optional(),
  COMMUNITY_URL: optionalUrl("the community link shown on the support page"),
  POSTHOG_KEY: optionalString,
  POSTHOG_HOST: optionalUrl("for example https://eu.i.posthog.com"),
  SANDBOX_UNCONFINED: z
    .enum(["refuse", "allow"], { error: "refuse or allow" })
    .default("refuse")
    .describe("allow: everyone may run SQL even where the sandbox cannot confine it"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface Config {
  port: number;
  /** The address both ports bind (`PORT` and `CLICKHOUSE_HTTP_PORT`). */
  host: string;
  /** A port serving the ClickHouse HTTP interface at its root, for tools that cannot take a path. */
  clickhouseHttpPort?: number;
  dataDir: string;
  warehouse: {
    url?: string;
    username?: string;
    password?: string;
    cluster?: string;
    path: string;
    /** The read-only user user SQL runs as on a server (see `sandboxUserDdl`). */
    sandboxUser?: string;
    sandboxPassword?: string;
  };
  appDatabase: { url?: string; path: string };
  outboxDir: string;
  publicUrl: string;
  upstream: IngestConfig;
  syncIntervalSeconds: number;
  /** What the scheduler does between snapshots (`SYNC_WORKERS`); snapshots always run. */
  syncWorkers: ReadonlySet<SyncWorker>;
  mail: { smtpUrl?: string; from: string };
  adminEmails: string[];
  allowedEmails: string[];
  seismo: { baseUrl?: string; apiKey?: string; model?: string };
  /** Web search for Seismo; the tool is offered only when this is set. */
  search: { url?: string; apiKey?: string };
  support: { email?: string; communityUrl?: string };
  analytics: { posthogKey?: string; posthogHost: string };
  logLevel: z.infer<typeof ZEnvironment>["LOG_LEVEL"];
  /** Where user SQL cannot be confined: `refuse` admits admins only, `allow` everyone (the operator's choice). */
  unconfinedSql: "refuse" | "allow";
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = ZEnvironment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? "environment");
      const got = env[variable];
      return `${variable} must be ${issue.message}${got === undefined ? "" : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  if ((e.KALSHI_API_KEY_ID === undefined) !== (e.KALSHI_PRIVATE_KEY_PATH === undefined)) {
    const missing = e.KALSHI_API_KEY_ID === undefined ? "KALSHI_API_KEY_ID" : "KALSHI_PRIVATE_KEY_PATH";
    throw new ConfigError(
      `Invalid configuration:\n  ${missing} must be set too: Kalshi's live feed is signed with the key id and its private key together`,
    );
  }
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    ...(e.CLICKHOUSE_HTTP_PORT === undefined ? {} : { clickhouseHttpPort: e.CLICKHOUSE_HTTP_PORT }),
    dataDir,
    warehouse: {
      path: resolve(dataDir, "warehouse"),
      ...(e.CLICKHOUSE_URL ? { url: e.CLICKHOUSE_URL } : {}),
      ...(e.CLICKHOUSE_USER ? { username: e.CLICKHOUSE_USER } : {}),
      ...(e.CLICKHOUSE_PASSWORD ? { password: e.CLICKHOUSE_PASSWORD } : {}),
      ...(e.CLICKHOUSE_CLUSTER ? { cluster: e.CLICKHOUSE_CLUSTER } : {}),
      ...(e.CLICKHOUSE_SANDBOX_USER ? { sandboxUser: e.CLICKHOUSE_SANDBOX_USER } : {}),
      ...(e.CLICKHOUSE_SANDBOX_PASSWORD ? { sandboxPassword: e.CLICKHOUSE_SANDBOX_PASSWORD } : {}),
    },
    appDatabase: { path: resolve(dataDir, "app"), ...(e.DATABASE_URL ? { url: e.DATABASE_URL } : {}) },
    outboxDir: resolve(dataDir, "outbox"),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    upstream: {
      polymarket: {
        apiUrl: e.POLYMARKET_API_URL,
        clobUrl: e.POLYMARKET_CLOB_URL,
        dataUrl: e.POLYMARKET_DATA_URL,
        wsUrl: e.POLYMARKET_WS_URL,
      },
      kalshi: {
        apiUrl: e.KALSHI_API_URL,
        rateTokensPerSecond: e.KALSHI_RATE_TOKENS_PER_SECOND,
        wsUrl: e.KALSHI_WS_URL,
        ...(e.KALSHI_API_KEY_ID && e.KALSHI_PRIVATE_KEY_PATH
          ? { credentials: { keyId: e.KALSHI_API_KEY_ID, privateKey: e.KALSHI_PRIVATE_KEY_PATH } }
          : {}),
      },
    },
    syncIntervalSeconds: e.SYNC_INTERVAL_SECONDS,
    syncWorkers: e.SYNC_WORKERS,
    mail: { ...(e.SMTP_URL ? { smtpUrl: e.SMTP_URL } : {}), from: e.MAIL_FROM ?? "Epicenter <no-reply@localhost>" },
    adminEmails: e.ADMIN_EMAILS,
    // Admins are always allowed in.
    allowedEmails: [...new Set([...e.ALLOWED_EMAILS, ...e.ADMIN_EMAILS])],
    seismo: {
      ...(e.SEISMO_BASE_URL ? { baseUrl: e.SEISMO_BASE_URL } : {}),
      ...(e.SEISMO_API_KEY ? { apiKey: e.SEISMO_API_KEY } : {}),
      ...(e.SEISMO_MODEL ? { model: e.SEISMO_MODEL } : {}),
    },
    search: {
      ...(e.SEARCH_API_URL ? { url: e.SEARCH_API_URL } : {}),
      ...(e.SEARCH_API_KEY ? { apiKey: e.SEARCH_API_KEY } : {}),
    },
    support: {
      ...(e.SUPPORT_EMAIL ? { email: e.SUPPORT_EMAIL } : {}),
      ...(e.COMMUNITY_URL ? { communityUrl: e.COMMUNITY_URL } : {}),
    },
    analytics: {
      ...(e.POSTHOG_KEY ? { posthogKey: e.POSTHOG_KEY } : {}),
      posthogHost: e.POSTHOG_HOST ?? "https://us.i.posthog.com",
    },
    logLevel: e.LOG_LEVEL,
    unconfinedSql: e.SANDBOX_UNCONFINED,
  };
}
