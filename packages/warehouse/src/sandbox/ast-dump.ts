/**
 * The text of `EXPLAIN AST` read back into a tree. The dump is one node per line,
 * indented one space per level, e.g.
 *
 *     SelectWithUnionQuery (children 1)
 *      ExpressionList (children 1)
 *       SelectQuery (children 2)
 *        …
 *           TableIdentifier polymarket.markets (alias m)
 *
 * Pure and linear in the dump: a literal of a million spaces is one line, and no pattern
 * here scans a line twice (a quadratic pattern over such a line once froze the server).
 */

export interface AstNode {
  /** First word of the line: `Function`, `TableIdentifier`, `SelectQuery`, … */
  type: string;
  /** What follows the type, without `(alias …)` and `(children N)`: a name, a literal. */
  argument: string;
  label: string;
  children: AstNode[];
  /** The value of a string literal, unescaped. */
  text?: string;
}

/**
 * Rebuilds the tree from the indentation of `EXPLAIN AST`'s text output. Linear in the
 * dump: a literal of a million spaces is one line, and no pattern here scans a line twice.
 */
export function parseAstDump(dump: string): AstNode[] {
  const roots: AstNode[] = [];
  const stack: Array<{ depth: number; node: AstNode }> = [];
  let start = 0;
  while (start < dump.length) {
    let end = dump.indexOf("\n", start);
    if (end === -1) end = dump.length;
    let depth = start;
    while (depth < end && dump.charCodeAt(depth) === 32) depth++;
    const label = dump.slice(depth, end).trimEnd();
    depth -= start;
    start = end + 1;
    if (label === "") continue;
    const node = nodeOf(label);
    while (stack.length > 0 && (stack.at(-1) as { depth: number }).depth >= depth) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ depth, node });
  }
  return roots;
}

function nodeOf(label: string): AstNode {
  const space = label.indexOf(" ");
  const type = space === -1 ? label : label.slice(0, space);
  let rest = space === -1 ? "" : label.slice(space + 1);
  const children = rest.lastIndexOf(" (children ");
  if (children !== -1 && rest.endsWith(")") && /^\d{1,9}$/.test(rest.slice(children + 11, -1))) {
    rest = rest.slice(0, children);
  } else if (rest.startsWith("(children ")) rest = "";
  if (type === "Literal" && rest.startsWith("'")) {
    const literal = readDumpString(rest);
    return { type, argument: rest.slice(0, literal.end), label, children: [], text: literal.value };
  }
  const alias = rest.indexOf(" (alias ");
  const argument = (alias === -1 ? (rest.startsWith("(alias ") ? "" : rest) : rest.slice(0, alias)).trim();
  return { type, argument, label, children: [] };
}

/**
 * A string literal as the dump prints it (`'it\\'s'`, with ClickHouse's backslash escapes),
 * read up to its closing quote: its value and where it ends.
 */
function readDumpString(text: string): { value: string; end: number } {
  let value = "";
  let index = 1;
  while (index < text.length) {
    const ch = text[index] as string;
    if (ch === "'") return { value, end: index + 1 };
    if (ch !== "\\" || index + 1 >= text.length) {
      value += ch;
      index++;
      continue;
    }
    const next = text[index + 1] as string;
    if (next === "x" && /^[0-9A-Fa-f]{2}$/.test(text.slice(index + 2, index + 4))) {
      value += String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 4), 16));
      index += 4;
      continue;
    }
    value += ESCAPES[next] ?? next;
    index += 2;
  }
  return { value, end: text.length };
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  b: "\b",
  f: "\f",
  a: "\x07",
  v: "\v",
  e: "\x1b",
};

/** A function node's name, lower-cased unless `original`. */
export function functionName(node: AstNode, original = false): string {
  const name = node.argument.split(/\s/)[0] ?? "";
  return original ? name : name.toLowerCase();
}
