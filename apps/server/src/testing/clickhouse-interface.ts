/**
 * The ClickHouse HTTP interface as its tests meet it: a test app with three Polymarket
 * markets, one Kalshi market and a table user SQL must not reach, an API key of a signed-in
 * user, the app listening on a real port (`/clickhouse`) and the interface at the root of a
 * port of its own, and the ways clients call it.
 */
import type { AddressInfo } from "node:net";
import { type ClickHouseClient, createClient } from "@clickhouse/client";
import { toDateTime64 } from "@epicenter/warehouse";
import { serve } from "@hono/node-server";
import { expect } from "vitest";
import { clickhouseRoot } from "../app";
import { allowEmail } from "../services/admin/admin";
import { json, signIn } from "./sign-in";
import { createTestApp, type TestApp } from "./test-app";

export interface ClickHouseInterface {
  t: TestApp;
  /** The API key the clients use. */
  key: string;
  /** A session token of the same user: not a key. */
  session: string;
  /** The interface under the main port: `http://127.0.0.1:PORT/clickhouse`. */
  base: string;
  /** The interface at the root of its own port. */
  rootBase: string;
  /** `@clickhouse/client` pointed at `base` with the key. */
  connect(options?: Parameters<typeof createClient>[0]): ClickHouseClient;
  /** A raw request as a client sends it: the statement as the body, the key as Basic auth. */
  post(sql: string, search?: string, headers?: Record<string, string>): Promise<Response>;
  /** The TabSeparated rows of a statement that must succeed. */
  rowsOf(sql: string, search?: string): Promise<string[][]>;
  close(): Promise<void>;
}

export async function startClickHouseInterface(): Promise<ClickHouseInterface> {
  const servers: ReturnType<typeof serve>[] = [];
  const listen = async (fetch: (request: Request) => Response | Promise<Response>): Promise<string> => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
  const now = toDateTime64(Date.now());
  await t.stores.warehouse.insert(
    "polymarket.markets",
    ["m1", "m2", "m3"].map((id, index) => ({
      sync_timestamp: now,
      id,
      event_id: "e1",
      question: `Will ${id} happen?`,
      volume24hr: (index + 1) * 100,
      raw: "{}",
    })),
  );
  await t.stores.warehouse.insert("kalshi.markets", [{ sync_timestamp: now, ticker: "K-1", title: "Kalshi one" }]);
  await t.stores.warehouse.command(
    "CREATE TABLE IF NOT EXISTS internal.secret (id UInt32, value String) ENGINE = MergeTree ORDER BY id",
  );
  await t.stores.warehouse.insert("internal.secret", [{ id: 1, value: "hunter2" }]);
  const ada = await signIn(t, "ada@example.com");
  await allowEmail({ db: t.stores.appDatabase.db, adminEmails: [] }, "ada@example.com", "test");
  const created = await t.app.request(
    "/api/keys/create",
    json({ name: "bi", user_id: ada.user.id }, { token: ada.access_token }),
  );
  const key = ((await created.json()) as { key: string }).key;
  const origin = await listen(t.app.fetch);
  const base = `${origin}/clickhouse`;
  const rootBase = await listen(clickhouseRoot(t.app));
  const post = (sql: string, search = "", headers: Record<string, string> = {}) =>
    fetch(`${base}/?${search}`, {
      method: "POST",
      body: sql,
      headers: { authorization: `Basic ${Buffer.from(`any:${key}`).toString("base64")}`, ...headers },
    });
  return {
    t,
    key,
    session: ada.access_token,
    base,
    rootBase,
    // The client reads a path in `url` as a database name; a path before its own is `pathname`.
    connect: (options = {}) =>
      createClient({ url: origin, pathname: "/clickhouse", username: "epicenter", password: key, ...options }),
    post,
    async rowsOf(sql, search = "") {
      const response = await post(sql, search);
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.text())
        .trimEnd()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.split("\t"));
    },
    async close() {
      for (const server of servers) server.close();
      await t.close();
    },
  };
}
