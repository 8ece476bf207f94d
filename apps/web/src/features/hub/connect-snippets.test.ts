import { paramsProblem, queryParameters } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import {
  clickHouseCurl,
  clickHouseGrafana,
  clickHouseNode,
  clickHousePython,
  connectTargetOf,
  mcpRemoteConfig,
  mcpStdioConfig,
  PARAMETERISED_QUERY,
  SAVED_QUERY_ERRORS,
  savedQueryCurl,
} from "./connect-snippets";

describe("connectTargetOf", () => {
  it("splits an https origin with the scheme's default port", () => {
    expect(connectTargetOf("https://epicenter.example.com")).toEqual({
      origin: "https://epicenter.example.com",
      host: "epicenter.example.com",
      port: 443,
      isSecure: true,
    });
  });

  it("keeps an explicit port and reads http as not secure", () => {
    expect(connectTargetOf("http://127.0.0.1:5173")).toEqual({
      origin: "http://127.0.0.1:5173",
      host: "127.0.0.1",
      port: 5173,
      isSecure: false,
    });
  });
});

describe("the connection examples", () => {
  const target = connectTargetOf("https://epicenter.example.com");

  it("run the saved query by id with its parameters, never with the key written in", () => {
    const curl = savedQueryCurl(target);
    expect(curl).toContain('"https://epicenter.example.com/api/query"');
    expect(curl).toContain("$EPICENTER_API_KEY");
    const body = JSON.parse(/-d '(.*)'$/m.exec(curl)?.[1] ?? "{}") as { params: Record<string, string | number> };
    expect(paramsProblem(PARAMETERISED_QUERY, body.params)).toBeUndefined();
    expect(queryParameters(PARAMETERISED_QUERY).map((parameter) => parameter.name)).toEqual(["market_id", "days"]);
  });

  it("quote the 400 exactly as the server words a missing and a mistyped parameter", () => {
    const missing = paramsProblem(PARAMETERISED_QUERY, { market_id: "512272" }) as string;
    const mistyped = paramsProblem(PARAMETERISED_QUERY, { market_id: "512272", days: "a week" }) as string;
    expect(SAVED_QUERY_ERRORS).toContain(JSON.stringify({ error: { code: "invalid_sql", message: missing } }));
    expect(SAVED_QUERY_ERRORS).toContain(JSON.stringify({ error: { code: "invalid_sql", message: mistyped } }));
  });

  it("give @clickhouse/client the path as pathname, since a path in url is read as the database", () => {
    const code = clickHouseNode(target);
    expect(code).toContain('url: "https://epicenter.example.com"');
    expect(code).toContain('pathname: "/clickhouse"');
    expect(code).toContain("query_params");
  });

  it("give clickhouse-connect and Grafana the host, port, TLS and path of this origin", () => {
    const python = clickHousePython(target);
    expect(python).toContain('host="epicenter.example.com"');
    expect(python).toContain("port=443");
    expect(python).toContain("secure=True");
    expect(python).toContain('proxy_path="/clickhouse"');
    expect(clickHouseGrafana(target)).toMatch(/HTTP path\s+clickhouse/);
    expect(clickHouseCurl(target)).toContain('"https://epicenter.example.com/clickhouse/?query=SELECT%201"');
  });

  it("configure MCP over HTTP at /mcp and over stdio with npm kept quiet", () => {
    const remote = JSON.parse(mcpRemoteConfig(target));
    expect(remote.mcpServers.epicenter.url).toBe("https://epicenter.example.com/mcp");
    expect(remote.mcpServers.epicenter.headers.Authorization).toMatch(/^Bearer /);
    const stdio = JSON.parse(mcpStdioConfig(target));
    expect(stdio.mcpServers.epicenter.args).toContain("--silent");
    expect(stdio.mcpServers.epicenter.env.EPICENTER_URL).toBe("https://epicenter.example.com");
  });
});
