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
  })
  .meta({ id: "HealthResponse" });
export type HealthResponse = z.infer<typeof ZHealthResponse>;
