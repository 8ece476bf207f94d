import { z } from "zod";

/** What the editor needs to speak the engine's SQL: its own keywords, functions and types. */
export const ZSqlDialect = z
  .object({
    keywords: z.array(z.string()),
    functions: z.array(z.string()),
    types: z.array(z.string()),
  })
  .meta({ id: "SqlDialect" });
export type SqlDialect = z.infer<typeof ZSqlDialect>;
