/** The product version the hub card and the OpenAPI document show. */
export const VERSION = "1.1.0";
