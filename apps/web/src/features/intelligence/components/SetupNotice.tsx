/**
 * What the page says when the server has no model configured: to an admin, plainly and
 * how to fix it; to everyone else, only that the assistant is not enabled here (the
 * server's settings are not theirs to change).
 */
import { Settings2 } from "lucide-react";
import { useCurrentUser } from "../../auth/session";
import styles from "../intelligence.module.css";

const OLLAMA = `SEISMO_BASE_URL=http://localhost:11434/v1
SEISMO_MODEL=qwen2.5-coder:14b`;

const HOSTED = `SEISMO_BASE_URL=https://api.openai.com/v1
SEISMO_API_KEY=sk-…
SEISMO_MODEL=gpt-4.1-mini`;

export function SetupNotice({ message }: { message?: string | null }) {
  const user = useCurrentUser();
  if (!user.is_admin) {
    return (
      <section className={styles.setup} aria-labelledby="seismo-setup">
        <div className={styles.setupIcon}>
          <Settings2 size={20} />
        </div>
        <div className={styles.setupText}>
          <h2 id="seismo-setup">The assistant is not enabled on this server</h2>
          <p>Write SQL in the Queries editor meanwhile; the data catalog lists every table and column.</p>
        </div>
      </section>
    );
  }
  return (
    <section className={styles.setup} aria-labelledby="seismo-setup">
      <div className={styles.setupIcon}>
        <Settings2 size={20} />
      </div>
      <div className={styles.setupText}>
        <h2 id="seismo-setup">Seismo is not configured on this server</h2>
        <p>
          {message ??
            "Seismo needs a language model. Point the server at any OpenAI-compatible chat-completions endpoint with a model that supports tool calling, then restart it."}
        </p>
        <div className={styles.setupExamples}>
          <div>
            <h3>Local, with Ollama</h3>
            <pre>{OLLAMA}</pre>
          </div>
          <div>
            <h3>A hosted provider</h3>
            <pre>{HOSTED}</pre>
          </div>
        </div>
        <p className={styles.setupNote}>
          Optional web search: set SEARCH_API_URL to a SearXNG-compatible JSON endpoint (and SEARCH_API_KEY if it needs
          one).
        </p>
      </div>
    </section>
  );
}
