import { z } from "zod";
import { MAX_QUERY_LENGTH } from "./query-node";
import { ZQueryParams } from "./query-params";

export const MAX_EXPORT_ROW_LIMIT = 1_000_000;

export const ZExportQueryRequest = z
  .object({
    query: z.string().min(1).max(MAX_QUERY_LENGTH).describe("One SELECT statement"),
    format: z
      .enum(["csv", "json", "parquet", "arrow"])
      .describe("CSV with a header, a JSON array of objects, Parquet, or an Arrow IPC stream"),
    limit: z.number().int().min(1).max(MAX_EXPORT_ROW_LIMIT).default(MAX_EXPORT_ROW_LIMIT).describe("Rows at most"),
    filename: z
      .string()
      .regex(/^[A-Za-z0-9 _.-]{1,80}$/, "letters, digits, spaces, dots, dashes and underscores")
      .optional()
      .describe("File name without extension"),
    params: ZQueryParams.optional(),
  })
  .meta({ id: "ExportQueryRequest" });
export type ExportQueryRequest = z.infer<typeof ZExportQueryRequest>;
