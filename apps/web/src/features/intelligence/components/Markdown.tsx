/** Seismo's markdown, with every SQL code block drawn as a runnable SQL block. */
import type { SqlBlock } from "@epicenter/contracts";
import type { ReactNode } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import styles from "./answer.module.css";
import { SqlBlockView } from "./SqlBlockView";

const SQL_LANGUAGES = new Set(["sql", "clickhouse"]);

const normalise = (sql: string) => sql.trim().replace(/;\s*$/, "").replace(/\s+/g, " ").toLowerCase();

export function Markdown({ text, checks, title }: { text: string; checks: SqlBlock[]; title: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          pre: ({ children }) => <>{children}</>,
          code: ({ className, children }) => {
            const language = /language-(\w+)/.exec(className ?? "")?.[1]?.toLowerCase();
            const body = String(children as ReactNode).replace(/\n$/, "");
            if (language && SQL_LANGUAGES.has(language)) {
              const check = checks.find((block) => normalise(block.sql) === normalise(body));
              return <SqlBlockView sql={body.trim()} title={check?.title ?? title} {...(check ? { check } : {})} />;
            }
            if (language || body.includes("\n")) {
              return (
                <pre className={styles.codeBlock}>
                  <code>{body}</code>
                </pre>
              );
            }
            return <code className={styles.inlineCode}>{children}</code>;
          },
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
