/** Signs a user in through the real magic-link flow, reading the link from the outbox. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionTokens } from "@epicenter/contracts";
import type { TestApp } from "./test-app";

export function latestMailTo(outboxDir: string, email: string): { link: string; subject: string; text: string } {
  const files = readdirSync(outboxDir)
    .filter((file) => file.endsWith(".json"))
    .sort();
  for (const file of files.reverse()) {
    const mail = JSON.parse(readFileSync(join(outboxDir, file), "utf8")) as {
      to: string;
      link: string;
      subject: string;
      text: string;
    };
    if (mail.to === email.toLowerCase()) return mail;
  }
  throw new Error(`no mail to ${email} in ${outboxDir}`);
}

export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

export async function signIn(t: TestApp, email: string): Promise<SessionTokens> {
  const asked = await t.app.request("/api/auth/magic-link", json({ email }));
  if (asked.status !== 200) throw new Error(`magic link for ${email}: ${asked.status} ${await asked.text()}`);
  const verified = await t.app.request(
    "/api/auth/verify",
    json({ token: tokenOf(latestMailTo(t.outboxDir, email).link) }),
  );
  if (verified.status !== 200) throw new Error(`verify for ${email}: ${verified.status} ${await verified.text()}`);
  return (await verified.json()) as SessionTokens;
}

/** Signs in as `email` and creates an API key for that user: the session's token and the key. */
export async function signInWithKey(
  t: TestApp,
  email: string,
  name = "test key",
): Promise<{ token: string; key: string }> {
  const signedIn = await signIn(t, email);
  const created = await t.app.request(
    "/api/keys/create",
    json({ name, user_id: signedIn.user.id }, { token: signedIn.access_token }),
  );
  if (created.status !== 201) throw new Error(`key for ${email}: ${created.status} ${await created.text()}`);
  return { token: signedIn.access_token, key: ((await created.json()) as { key: string }).key };
}

export function json(body: unknown, init: { method?: string; token?: string } = {}): RequestInit {
  return {
    method: init.method ?? "POST",
    headers: {
      "content-type": "application/json",
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: JSON.stringify(body),
  };
}

export function bearer(token: string, method = "GET"): RequestInit {
  return { method, headers: { authorization: `Bearer ${token}` } };
}
