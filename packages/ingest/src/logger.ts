/**
 * The logger and clock shapes ingest is handed: the server's own, so it passes its pino
 * logger (`info(fields, message)`, typically a `child({ area: "ingest" })`) and its clock
 * (`() => Date`) as they are. The default logger writes one JSON line per entry to stderr
 * so a CLI run is still readable.
 */
export type LogFields = Record<string, unknown>;

type LogFn = (fields: LogFields, message: string) => void;

export interface Logger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export const consoleLogger: Logger = {
  info: (fields, message) => console.error(JSON.stringify({ level: "info", message, ...fields })),
  warn: (fields, message) => console.error(JSON.stringify({ level: "warn", message, ...fields })),
  error: (fields, message) => console.error(JSON.stringify({ level: "error", message, ...fields })),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
