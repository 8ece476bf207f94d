/**
 * A success body already written as JSON: a query result whose rows are the engine's own
 * text (`@epicenter/warehouse`'s `runJson`), put into the answer's object without being
 * read. `mount` sends it as it is, and checks it against the endpoint's schema like any
 * other answer when responses are checked (the tests).
 */
export class JsonText {
  constructor(readonly bytes: Buffer) {}

  /**
   * `{"key":value,…}` in the order given: a `JsonText` value goes in as it is, `undefined`
   * is left out, anything else is `JSON.stringify`'d.
   */
  static object(entries: Readonly<Record<string, unknown>>): JsonText {
    const parts: Buffer[] = [];
    let separator = "{";
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) continue;
      const head = `${separator}${JSON.stringify(key)}:`;
      separator = ",";
      if (value instanceof JsonText) {
        parts.push(Buffer.from(head), value.bytes);
      } else {
        parts.push(Buffer.from(head + JSON.stringify(value)));
      }
    }
    parts.push(Buffer.from(separator === "{" ? "{}" : "}"));
    return new JsonText(Buffer.concat(parts));
  }
}
