import { z } from "zod";

export const ZHealthResponse = z
  .object({
    status: z.enum(["healthy", "unhealthy"]),
    timestamp: z.iso.datetime(),
    catalog_connected: z.boolean().describe("The app database (users, saved queries, keys) answers."),
    warehouse: z.object({
      connected: z.boolean(),
      engine: z.enum(["chdb", "clickhouse"]).describe("Embedded chDB or a ClickHouse server."),
      schema_version: z.number().int().nullable(),
    }),
    sandbox: z
      .object({
        confined: z
          .boolean()
          .describe(
            "User SQL runs where it cannot reach the host's files, network or processes (bubblewrap, or a ClickHouse server).",
          ),
        user_sql: z
          .enum(["everyone", "admins"])
          .describe(
            "Who may run SQL they write: admins only where it cannot be confined, unless the operator allowed it.",
          ),
      })
      .optional(),
  })
  .meta({ id: "HealthResponse" });
export type HealthResponse = z.infer<typeof ZHealthResponse>;
