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
import { SandboxRefusal } from "./errors";

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

/** Why a dump is refused when it is not what the engine prints for a tree. */
export const UNREADABLE_TREE =
  "The engine's syntax tree of this query could not be read back, so it cannot be checked.";

/** A node type: a word, or a word inside another (`ColumnsReplaceTransformer::Replacement`). */
const NODE_TYPE = /^[A-Za-z][A-Za-z0-9_]*(::[A-Za-z][A-Za-z0-9_]*)?$/;

/**
 * Rebuilds the tree from the indentation of `EXPLAIN AST`'s text output, trusting none of
 * it: a line's type must be a plain word, a child sits exactly one space deeper than its
 * parent, every node has exactly the children its `(children N)` says (none when it says
 * nothing). Names cannot add lines of their own —
 * a name with a line break never reaches `EXPLAIN` (`canonical.ts`) — and a dump that
 * breaks any of these rules anyway is refused, not guessed at. Linear in the dump: a
 * literal of a million spaces is one line, and no pattern here scans a line twice.
 */
export function parseAstDump(dump: string): AstNode[] {
  const roots: AstNode[] = [];
  const stack: Array<{ depth: number; node: AstNode }> = [];
  const declared: Array<[AstNode, number]> = [];
  let start = 0;
  while (start < dump.length) {
    let end = dump.indexOf("\n", start);
    if (end === -1) end = dump.length;
    let depth = start;
    while (depth < end && dump.charCodeAt(depth) === 32) depth++;
    const label = dump.slice(depth, end);
    depth -= start;
    start = end + 1;
    if (label === "") {
      // Only the dump's last line may be empty.
      if (dump.slice(start).trim() !== "") throw new SandboxRefusal(UNREADABLE_TREE);
      continue;
    }
    const { node, children } = nodeOf(label);
    while (stack.length > 0 && (stack.at(-1) as { depth: number }).depth >= depth) stack.pop();
    const parent = stack.at(-1);
    if (depth !== (parent ? parent.depth + 1 : 0)) throw new SandboxRefusal(UNREADABLE_TREE);
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ depth, node });
    declared.push([node, children]);
  }
  for (const [node, children] of declared) {
    if (node.children.length !== children) throw new SandboxRefusal(UNREADABLE_TREE);
  }
  return roots;
}

function nodeOf(label: string): { node: AstNode; children: number } {
  const space = label.indexOf(" ");
  const type = space === -1 ? label : label.slice(0, space);
  if (!NODE_TYPE.test(type)) throw new SandboxRefusal(UNREADABLE_TREE);
  let rest = space === -1 ? "" : label.slice(space + 1);
  let children = 0;
  const suffix = rest.lastIndexOf("(children ");
  if (suffix !== -1 && (suffix === 0 || rest[suffix - 1] === " ") && /^\d{1,9}\)$/.test(rest.slice(suffix + 10))) {
    children = Number(rest.slice(suffix + 10, -1));
    rest = rest.slice(0, Math.max(0, suffix - 1));
  }
  if (type === "Literal" && rest.startsWith("'")) {
    const literal = readDumpString(rest);
    return {
      node: { type, argument: rest.slice(0, literal.end), label, children: [], text: literal.value },
      children,
    };
  }
  const alias = rest.indexOf(" (alias ");
  const argument = (alias === -1 ? (rest.startsWith("(alias ") ? "" : rest) : rest.slice(0, alias)).trim();
  return { node: { type, argument, label, children: [] }, children };
}

/**
 * A string literal as the dump prints it (`'it\\'s'`, with ClickHouse's backslash escapes),
 * read up to its closing quote: its value and where it ends. Built from the slices between
 * escapes, not a character at a time.
 */
function readDumpString(text: string): { value: string; end: number } {
  const parts: string[] = [];
  let run = 1;
  let index = 1;
  while (index < text.length) {
    const ch = text.charCodeAt(index);
    if (ch === 0x27) {
      parts.push(text.slice(run, index));
      return { value: parts.join(""), end: index + 1 };
    }
    if (ch !== 0x5c || index + 1 >= text.length) {
      index++;
      continue;
    }
    parts.push(text.slice(run, index));
    const next = text[index + 1] as string;
    if (next === "x" && /^[0-9A-Fa-f]{2}$/.test(text.slice(index + 2, index + 4))) {
      parts.push(String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 4), 16)));
      index += 4;
    } else {
      parts.push(ESCAPES[next] ?? next);
      index += 2;
    }
    run = index;
  }
  parts.push(text.slice(run));
  return { value: parts.join(""), end: text.length };
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
