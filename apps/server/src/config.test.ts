import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

describe("parseConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.warehouse.url).toBeUndefined();
    expect(config.warehouse.path).toBe(`${config.dataDir}/warehouse`);
    expect(config.appDatabase.path).toBe(`${config.dataDir}/app`);
    expect(config.outboxDir).toBe(`${config.dataDir}/outbox`);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.upstream.polymarket.apiUrl).toBe("https://gamma-api.polymarket.com");
    expect(config.upstream.kalshi.apiUrl).toBe("https://external-api.kalshi.com/trade-api/v2");
    expect(config.syncIntervalSeconds).toBe(600);
    expect(config.host).toBe("127.0.0.1");
  });

  it("takes HOST as an IP address or a host name, and stops on anything else naming it", () => {
    for (const host of ["0.0.0.0", "::", "::1", "10.1.2.3", "fe80::1", "localhost", "epicenter.internal", "db-1"]) {
      expect(parseConfig({ HOST: host }).host).toBe(host);
    }
    expect(parseConfig({ HOST: " 0.0.0.0 " }).host).toBe("0.0.0.0");
    for (const host of [
      "",
      "0.0.0.0:3000",
      "http://0.0.0.0",
      "[::1]",
      "bad host",
      "-lead.example",
      "a..b",
      "x".repeat(64),
    ]) {
      expect(() => parseConfig({ HOST: host }), host).toThrow(ConfigError);
      expect(() => parseConfig({ HOST: host }), host).toThrow(
        /HOST must be an IP address or a host name to listen on, for example 127\.0\.0\.1, 0\.0\.0\.0 or ::/,
      );
    }
  });

  it("names the variable and what it expects when a value is invalid", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(
      /PORT must be a whole number from 0 to 65535 \(got "eighty"\)/,
    );
    expect(() => parseConfig({ SYNC_INTERVAL_SECONDS: "-5" })).toThrow(/SYNC_INTERVAL_SECONDS must be a whole number/);
    expect(() => parseConfig({ DATABASE_URL: "not a url" })).toThrow(/DATABASE_URL must be a URL/);
    expect(() => parseConfig({ ADMIN_EMAILS: "ops@example.com, nope" })).toThrow(/ADMIN_EMAILS must be .*"nope"/);
  });

  it("runs every worker between snapshots unless SYNC_WORKERS names fewer, and refuses a name it does not know", () => {
    expect([...parseConfig({}).syncWorkers]).toEqual(["books", "backfill", "history", "crossvenue", "live"]);
    expect([...parseConfig({ SYNC_WORKERS: " Books, crossvenue " }).syncWorkers]).toEqual(["books", "crossvenue"]);
    expect(parseConfig({ SYNC_WORKERS: "" }).syncWorkers.size).toBe(0);
    expect(() => parseConfig({ SYNC_WORKERS: "books,tapes" })).toThrow(/SYNC_WORKERS must be .*"tapes" is not one/);
  });

  it("signs Kalshi's live feed with a key id and a private key file given together, and says what is wrong otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "epicenter-config-"));
    const keyPath = join(dir, "kalshi.key");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    writeFileSync(keyPath, privateKey.export({ type: "pkcs1", format: "pem" }));
    writeFileSync(join(dir, "notes.txt"), "not a key");
    try {
      expect(parseConfig({}).upstream.kalshi.credentials).toBeUndefined();
      const signed = parseConfig({ KALSHI_API_KEY_ID: "a1b2", KALSHI_PRIVATE_KEY_PATH: keyPath }).upstream.kalshi;
      expect(signed.credentials?.keyId).toBe("a1b2");
      expect(signed.credentials?.privateKey).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
      expect(() => parseConfig({ KALSHI_API_KEY_ID: "a1b2" })).toThrow(/KALSHI_PRIVATE_KEY_PATH must be set too/);
      expect(() => parseConfig({ KALSHI_PRIVATE_KEY_PATH: keyPath })).toThrow(/KALSHI_API_KEY_ID must be set too/);
      expect(() => parseConfig({ KALSHI_API_KEY_ID: "a1b2", KALSHI_PRIVATE_KEY_PATH: join(dir, "gone.key") })).toThrow(
        /KALSHI_PRIVATE_KEY_PATH must be the path of the Kalshi API key's private key \(.*gone\.key: no such file\)/,
      );
      expect(() => parseConfig({ KALSHI_API_KEY_ID: "a1b2", KALSHI_PRIVATE_KEY_PATH: join(dir, "notes.txt") })).toThrow(
        /notes\.txt: not an RSA private key in PEM/,
      );
      expect(() => parseConfig({ KALSHI_WS_URL: "not a url" })).toThrow(/KALSHI_WS_URL must be a WebSocket URL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports every invalid variable at once", () => {
    try {
      parseConfig({ PORT: "x", CLICKHOUSE_URL: "::" });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/PORT/);
      expect(String(error)).toMatch(/CLICKHOUSE_URL/);
    }
  });

  it("lower-cases e-mail lists and always allows admins", () => {
    const config = parseConfig({ ADMIN_EMAILS: "Ops@Example.com", ALLOWED_EMAILS: "a@example.com, B@example.com" });
    expect(config.adminEmails).toEqual(["ops@example.com"]);
    expect(config.allowedEmails).toEqual(["a@example.com", "b@example.com", "ops@example.com"]);
  });

  it("derives the public URL from the port and drops a trailing slash", () => {
    expect(parseConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(parseConfig({ PUBLIC_URL: "https://epicenter.example.com/" }).publicUrl).toBe(
      "https://epicenter.example.com",
    );
  });
});
