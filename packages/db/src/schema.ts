/**
 * The app database schema: everything about people and their work, nothing about markets.
 *
 * One Drizzle schema serves embedded PGlite (PostgreSQL 18) and a real PostgreSQL server
 * (15 here), so it keeps to what both have. User SQL never reaches this store: it runs
 * only in the warehouse, which is why secrets such as key and token hashes can live here.
 * Every secret is stored as a SHA-256 hash, never in the clear.
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Lower-cased on the way in; sign-in and the allow-list match on it. */
  email: text("email").notNull().unique(),
  createdAt: createdAt(),
  lastSeenAt: at("last_seen_at"),
});

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessTokenHash: text("access_token_hash").notNull().unique(),
    refreshTokenHash: text("refresh_token_hash").notNull().unique(),
    accessExpiresAt: at("access_expires_at").notNull(),
    refreshExpiresAt: at("refresh_expires_at").notNull(),
    createdAt: createdAt(),
    revokedAt: at("revoked_at"),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const magicLinkTokens = pgTable("magic_link_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  /** Where the user was going when they asked for the link (a path on this origin). */
  redirectTo: text("redirect_to").notNull().default("/"),
  createdAt: createdAt(),
  expiresAt: at("expires_at").notNull(),
  usedAt: at("used_at"),
  requestIp: text("request_ip"),
});

/** The allow-list; the table name is the specification's. */
export const whitelistEmails = pgTable("whitelist_emails", {
  email: text("email").primaryKey(),
  addedBy: text("added_by"),
  /** Granted with `npm run admin -- allow add EMAIL --admin`; `ADMIN_EMAILS` needs no row. */
  isAdmin: boolean("is_admin").notNull().default(false),
  createdAt: createdAt(),
});

export const waitlist = pgTable("waitlist", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  createdAt: createdAt(),
});

export const savedQueries = pgTable(
  "saved_queries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null for the system's example queries, which no user owns. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    sql: text("sql").notNull(),
    description: text("description"),
    isPublic: boolean("is_public").notNull().default(false),
    isExample: boolean("is_example").notNull().default(false),
    /** The chart drawn from the result, a plain data value (`{ kind: "chart", … }`). */
    chart: jsonb("chart"),
    /** The values of its `{name:Type}` parameters, by name, as text (`{ "market_id": "512272" }`). */
    params: jsonb("params").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [index("saved_queries_user_idx").on(table.userId), index("saved_queries_created_idx").on(table.createdAt)],
);

export const queryRuns = pgTable(
  "query_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    queryId: uuid("query_id").references(() => savedQueries.id, { onDelete: "set null" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    apiKeyId: uuid("api_key_id"),
    /** Which surface ran it: editor, api, dashboard, seismo. */
    origin: text("origin").notNull().default("editor"),
    sql: text("sql").notNull(),
    startedAt: at("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    rowCount: integer("row_count").notNull().default(0),
    error: text("error"),
  },
  (table) => [index("query_runs_query_idx").on(table.queryId), index("query_runs_started_idx").on(table.startedAt)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
    revokedAt: at("revoked_at"),
  },
  (table) => [
    uniqueIndex("api_keys_hash_idx").on(table.keyHash),
    index("api_keys_user_idx").on(table.userId).where(sql`${table.revokedAt} IS NULL`),
  ],
);
