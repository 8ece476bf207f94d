import { z } from "zod";
import { MARKET_DATABASES } from "./venues";

export const ZNamespace = z.enum([...MARKET_DATABASES, "internal"]);
export type Namespace = z.infer<typeof ZNamespace>;

export const ZTableColumn = z.object({
  name: z.string(),
  type: z.string().describe("The engine's type, e.g. Nullable(Float64)"),
  description: z.string().nullable(),
});
export type TableColumn = z.infer<typeof ZTableColumn>;

export const ZTable = z
  .object({
    name: z.string(),
    table_name: z.string(),
    namespace: ZNamespace,
    source: z
      .string()
      .describe("Where its data comes from: a venue's name (Polymarket, Kalshi), Cross-venue, System or Other."),
    full_name: z.string().describe("namespace.table, as used in SQL"),
    description: z.string().nullable(),
    columns: z.array(ZTableColumn),
    row_count: z.number().int().nullable().describe("Null unless with_stats=true"),
  })
  .meta({ id: "Table" });
export type Table = z.infer<typeof ZTable>;

export const ZTableList = z.object({ tables: z.array(ZTable), count: z.number().int() }).meta({ id: "TableList" });

export const ZTableParams = z.object({
  namespace: z.string().regex(/^[a-z_]+$/, "a namespace such as polymarket or kalshi"),
  table: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a table name"),
});

export const ZSampleQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(5).describe("Rows to sample (default 5)"),
});

export const ZSampleData = z
  .object({
    columns: z.array(z.string()),
    sample_data: z.array(z.array(z.unknown())).describe("Rows as value arrays, in column order"),
    sample_size: z.number().int(),
  })
  .meta({ id: "SampleData" });
export type SampleData = z.infer<typeof ZSampleData>;

export const ZTablesQuery = z.object({
  with_stats: z.enum(["true", "false"]).optional().describe("Include row counts"),
});

/**
 * The "as of" views of each venue's database, called like table functions with a moment:
 * `SELECT * FROM kalshi.book_asof(now() - INTERVAL 1 HOUR)` (the engine's own form is
 * `book_asof(ts = …)`; the sandbox names a lone argument).
 */
export const AS_OF_VIEWS = ["markets_asof", "book_asof"] as const;

export function isAsOfView(name: string): boolean {
  return (AS_OF_VIEWS as readonly string[]).includes(name);
}
