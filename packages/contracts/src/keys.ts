import { z } from "zod";

export const ZApiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key_prefix: z.string().describe("The first characters of the key, to tell keys apart"),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.object({ keys: z.array(ZApiKey) }).meta({ id: "ApiKeyList" });

export const USER_ID_MISSING = "User ID is missing. Please try logging out and back in.";

export const ZCreateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1, "a name is required").max(100),
    user_id: z.string({ error: USER_ID_MISSING }).min(1, USER_ID_MISSING),
  })
  .meta({ id: "CreateApiKeyRequest" });

export const ZCreatedApiKey = ZApiKey.extend({
  key: z.string().describe("The full key. It is shown this once and cannot be recovered."),
}).meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof ZCreatedApiKey>;
