/**
 * The narrow logger the ingest code writes to. The server passes its own; the default
 * writes one JSON line per entry to stderr so a CLI run is still readable.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const consoleLogger: Logger = {
  info: (message, fields) => console.error(JSON.stringify({ level: "info", message, ...fields })),
  warn: (message, fields) => console.error(JSON.stringify({ level: "warn", message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: "error", message, ...fields })),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
