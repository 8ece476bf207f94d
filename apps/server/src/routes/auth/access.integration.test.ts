import { existsSync, readdirSync } from "node:fs";
import { ZApiError, ZApiKeyList, ZCreatedApiKey, ZSessionResponse, ZSessionTokens } from "@epicenter/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignInLimits } from "../../services/access/rate-limits";
import { allowEmail, disallowEmail, waitlistView } from "../../services/admin/admin";
import { bearer, json, latestMailTo, signIn, tokenOf } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let now = new Date("2026-11-01T12:00:00Z");
let t: TestApp;
const db = () => t.stores.appDatabase.db;

beforeAll(async () => {
  t = await createTestApp({
    env: { ADMIN_EMAILS: "boss@example.com", ALLOWED_EMAILS: "ada@example.com,grace@example.com" },
    clock: () => now,
  });
});
afterAll(async () => {
  await t.close();
});

const errorOf = async (response: Response) => ZApiError.parse(await response.json()).error;
const outboxCount = () => (existsSync(t.outboxDir) ? readdirSync(t.outboxDir).length : 0);

describe("magic link", () => {
  it("mails a link to an allow-listed e-mail, matching case-insensitively", async () => {
    const before = outboxCount();
    const response = await t.app.request("/api/auth/magic-link", json({ email: "ADA@Example.com" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "sent", message: "Check your email for the magic link!" });
    expect(outboxCount()).toBe(before + 1);
    const mail = latestMailTo(t.outboxDir, "ada@example.com");
    expect(mail.subject).toMatch(/sign-in link/);
    expect(mail.text).toContain("expires in 15 minutes");
    expect(tokenOf(mail.link).length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
  });

  it("puts an e-mail that is not allow-listed on the waitlist once, and sends nothing", async () => {
    const before = outboxCount();
    for (const email of ["stranger@example.com", "Stranger@Example.com"]) {
      const response = await t.app.request("/api/auth/magic-link", json({ email }));
      expect(response.status).toBe(403);
      expect((await errorOf(response)).message).toContain("not whitelisted");
    }
    expect(outboxCount()).toBe(before);
    const waiting = (await waitlistView({ db: db() })).entries.filter(
      (entry) => entry.email === "stranger@example.com",
    );
    expect(waiting).toHaveLength(1);
  });

  it("refuses a malformed e-mail with a 400 that names the field", async () => {
    const response = await t.app.request("/api/auth/magic-link", json({ email: "not-an-email" }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/email/);
  });

  it("signs in once per link, and lands where the user was going", async () => {
    await t.app.request("/api/auth/magic-link", json({ email: "grace@example.com", redirect_to: "/queries?x=1" }));
    const token = tokenOf(latestMailTo(t.outboxDir, "grace@example.com").link);

    const first = await t.app.request("/api/auth/verify", json({ token }));
    expect(first.status).toBe(200);
    const session = ZSessionTokens.parse(await first.json());
    expect(session.user).toMatchObject({ email: "grace@example.com", is_allowed: true, is_admin: false });
    expect(session.redirect_to).toBe("/queries?x=1");

    const second = await t.app.request("/api/auth/verify", json({ token }));
    expect(second.status).toBe(400);
    expect((await errorOf(second)).message).toMatch(/already been used/);
  });

  it("refuses an open redirect", async () => {
    const response = await t.app.request(
      "/api/auth/magic-link",
      json({ email: "grace@example.com", redirect_to: "//evil.example.com" }),
    );
    expect(response.status).toBe(400);
  });

  it("refuses a link after 15 minutes and an unknown one", async () => {
    await t.app.request("/api/auth/magic-link", json({ email: "ada@example.com" }));
    const token = tokenOf(latestMailTo(t.outboxDir, "ada@example.com").link);
    const issuedAt = now;
    now = new Date(issuedAt.getTime() + 15 * 60_000 + 1);
    try {
      const late = await t.app.request("/api/auth/verify", json({ token }));
      expect(late.status).toBe(400);
      expect((await errorOf(late)).message).toMatch(/expired/);
    } finally {
      now = issuedAt;
    }
    const unknown = await t.app.request("/api/auth/verify", json({ token: "epm_nonsense" }));
    expect((await errorOf(unknown)).message).toMatch(/not valid/);
  });

  it("limits how many links one address can ask for, with 429 and Retry-After", async () => {
    await allowEmail({ db: db(), adminEmails: [] }, "busy@example.com", "test");
    const app = t.withApp({ signInLimits: createSignInLimits({ perAddress: 2 }) });
    const before = outboxCount();
    const ask = () => app.request("/api/auth/magic-link", json({ email: "busy@example.com" }));
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const third = await ask();
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(third)).message).toMatch(/Too many sign-in requests/);
    expect(outboxCount()).toBe(before + 2);
  });

  it("limits how many links one client IP can ask for", async () => {
    const app = t.withApp({ signInLimits: createSignInLimits({ perIp: 1 }) });
    const from = (email: string, ip: string) =>
      app.request("/api/auth/magic-link", json({ email }), { incoming: { socket: { remoteAddress: ip } } });
    expect((await from("ada@example.com", "203.0.113.9")).status).toBe(200);
    expect((await from("grace@example.com", "203.0.113.9")).status).toBe(429);
    expect((await from("grace@example.com", "203.0.113.10")).status).toBe(200);
  });
});

describe("sessions", () => {
  it("answers who is signed in, refreshes, and stops working after sign-out", async () => {
    const session = await signIn(t, "ada@example.com");
    const me = await t.app.request("/api/auth/session", bearer(session.access_token));
    expect(ZSessionResponse.parse(await me.json()).user.email).toBe("ada@example.com");

    const refreshed = await t.app.request("/api/auth/refresh", json({ refresh_token: session.refresh_token }));
    const tokens = ZSessionTokens.parse(await refreshed.json());
    expect(tokens.access_token).not.toBe(session.access_token);
    // The old pair is gone once rotated.
    expect((await t.app.request("/api/auth/session", bearer(session.access_token))).status).toBe(401);
    expect((await t.app.request("/api/auth/refresh", json({ refresh_token: session.refresh_token }))).status).toBe(401);

    expect((await t.app.request("/api/auth/sign-out", bearer(tokens.access_token, "POST"))).status).toBe(204);
    expect((await t.app.request("/api/keys/list", bearer(tokens.access_token))).status).toBe(401);
    const again = await t.app.request("/api/auth/sign-out", bearer(tokens.access_token, "POST"));
    expect((await errorOf(again)).message).toBe("Auth session missing");
  });

  it("refuses guarded endpoints without a session, and once the user leaves the allow-list", async () => {
    expect((await t.app.request("/api/keys/list")).status).toBe(401);
    await allowEmail({ db: db(), adminEmails: [] }, "temp@example.com", "test");
    const session = await signIn(t, "temp@example.com");
    expect((await t.app.request("/api/keys/list", bearer(session.access_token))).status).toBe(200);

    await disallowEmail({ db: db() }, "temp@example.com");
    const denied = await t.app.request("/api/keys/list", bearer(session.access_token));
    expect(denied.status).toBe(403);
    expect((await errorOf(denied)).message).toBe("Your email (temp@example.com) is not whitelisted for access.");
    const me = ZSessionResponse.parse(
      await (await t.app.request("/api/auth/session", bearer(session.access_token))).json(),
    );
    expect(me.user.is_allowed).toBe(false);
  });
});

describe("API keys", () => {
  it("shows a key once, stores only its prefix, and keeps users apart", async () => {
    const ada = await signIn(t, "ada@example.com");
    const grace = await signIn(t, "grace@example.com");

    const created = await t.app.request(
      "/api/keys/create",
      json({ name: "  research  ", user_id: ada.user.id }, { token: ada.access_token }),
    );
    expect(created.status).toBe(201);
    const key = ZCreatedApiKey.parse(await created.json());
    expect(key.name).toBe("research");
    expect(key.key.startsWith(key.key_prefix)).toBe(true);
    expect(key.key.length).toBeGreaterThan(key.key_prefix.length + 30);

    const adaKeys = ZApiKeyList.parse(await (await t.app.request("/api/keys/list", bearer(ada.access_token))).json());
    expect(adaKeys.keys.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(adaKeys)).not.toContain(key.key);

    // Grace can neither see nor revoke Ada's key, nor create one in her name.
    const graceKeys = ZApiKeyList.parse(
      await (await t.app.request("/api/keys/list", bearer(grace.access_token))).json(),
    );
    expect(graceKeys.keys.map((k) => k.id)).not.toContain(key.id);
    expect((await t.app.request(`/api/keys/${key.id}`, bearer(grace.access_token, "DELETE"))).status).toBe(404);
    const forged = await t.app.request(
      "/api/keys/create",
      json({ name: "x", user_id: ada.user.id }, { token: grace.access_token }),
    );
    expect(forged.status).toBe(403);
    const still = ZApiKeyList.parse(await (await t.app.request("/api/keys/list", bearer(ada.access_token))).json());
    expect(still.keys.map((k) => k.id)).toContain(key.id);
  });

  it("says what is missing when the name or user id is absent", async () => {
    const ada = await signIn(t, "ada@example.com");
    const noUser = await t.app.request("/api/keys/create", json({ name: "x" }, { token: ada.access_token }));
    expect((await errorOf(noUser)).message).toContain("User ID is missing. Please try logging out and back in.");
    const blank = await t.app.request(
      "/api/keys/create",
      json({ name: "   ", user_id: ada.user.id }, { token: ada.access_token }),
    );
    expect(blank.status).toBe(400);
    expect((await errorOf(blank)).message).toMatch(/name/);
  });

  it("never works on key management, and stops working at once when revoked", async () => {
    const ada = await signIn(t, "ada@example.com");
    const key = ZCreatedApiKey.parse(
      await (
        await t.app.request(
          "/api/keys/create",
          json({ name: "bot", user_id: ada.user.id }, { token: ada.access_token }),
        )
      ).json(),
    );
    const viaKey = await t.app.request("/api/keys/list", { headers: { "x-api-key": key.key } });
    expect(viaKey.status).toBe(403);
    expect((await t.app.request("/api/admin/users", bearer(key.key))).status).toBe(403);

    expect((await t.app.request(`/api/keys/${key.id}`, bearer(ada.access_token, "DELETE"))).status).toBe(204);
    expect((await t.app.request("/api/keys/list", { headers: { "x-api-key": key.key } })).status).toBe(401);
    expect((await t.app.request(`/api/keys/${key.id}`, bearer(ada.access_token, "DELETE"))).status).toBe(404);
  });

  it("stops a key at once after it has been answered from memory", async () => {
    const ada = await signIn(t, "ada@example.com");
    const key = ZCreatedApiKey.parse(
      await (
        await t.app.request(
          "/api/keys/create",
          json({ name: "script", user_id: ada.user.id }, { token: ada.access_token }),
        )
      ).json(),
    );
    // On PGlite the app keeps resolved callers in memory (services/access/principal-cache.ts).
    for (let call = 0; call < 3; call += 1) {
      expect((await t.app.request("/api/queries", { headers: { "x-api-key": key.key } })).status).toBe(200);
    }
    expect((await t.app.request(`/api/keys/${key.id}`, bearer(ada.access_token, "DELETE"))).status).toBe(204);
    expect((await t.app.request("/api/queries", { headers: { "x-api-key": key.key } })).status).toBe(401);
  });
});

describe("admin", () => {
  it("refuses every admin endpoint to a non-admin", async () => {
    const ada = await signIn(t, "ada@example.com");
    const calls: Array<[string, string]> = [
      ["GET", "/api/admin/allow-list"],
      ["POST", "/api/admin/allow-list"],
      ["DELETE", "/api/admin/allow-list/grace@example.com"],
      ["GET", "/api/admin/waitlist"],
      ["POST", "/api/admin/waitlist/stranger@example.com/approve"],
      ["DELETE", "/api/admin/waitlist/stranger@example.com"],
      ["GET", "/api/admin/users"],
      ["GET", "/api/admin/sync-runs"],
      ["GET", "/api/admin/query-runs"],
    ];
    for (const [method, path] of calls) {
      const response = await t.app.request(path, {
        method,
        headers: { authorization: `Bearer ${ada.access_token}`, "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ email: "x@example.com" }) : null,
      });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    const allowList = await t.app.request(
      "/api/admin/allow-list",
      bearer((await signIn(t, "boss@example.com")).access_token),
    );
    expect(allowList.status).toBe(200);
  });

  it("shows an ADMIN_EMAILS admin's allow-list entry as an admin's", async () => {
    const boss = await signIn(t, "boss@example.com");
    await allowEmail({ db: db(), adminEmails: [] }, "boss@example.com", "ALLOWED_EMAILS");
    const { entries } = (await (await t.app.request("/api/admin/allow-list", bearer(boss.access_token))).json()) as {
      entries: Array<{ email: string; is_admin: boolean }>;
    };
    const roles = Object.fromEntries(entries.map((entry) => [entry.email, entry.is_admin]));
    expect(roles).toMatchObject({ "boss@example.com": true, "ada@example.com": false });
  });

  it("approves a waiting e-mail: allow-listed, mailed, off the waitlist", async () => {
    const boss = await signIn(t, "boss@example.com");
    await t.app.request("/api/auth/magic-link", json({ email: "newcomer@example.com" }));
    const approved = await t.app.request(
      "/api/admin/waitlist/newcomer@example.com/approve",
      bearer(boss.access_token, "POST"),
    );
    expect(approved.status).toBe(200);
    expect(latestMailTo(t.outboxDir, "newcomer@example.com").link).toContain("/auth/callback?token=");
    expect((await waitlistView({ db: db() })).entries.map((entry) => entry.email)).not.toContain(
      "newcomer@example.com",
    );
    const users = await (await t.app.request("/api/admin/users", bearer(boss.access_token))).json();
    expect(JSON.stringify(users)).toContain("ada@example.com");
  });
});
