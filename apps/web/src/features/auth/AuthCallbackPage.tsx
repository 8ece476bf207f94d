import { endpoints } from "@epicenter/contracts";
import { LinkIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiRequestError, call } from "../../lib/api";
import { useDocumentTitle } from "../../lib/document-title";
import { LoadingScreen } from "../../ui/LoadingScreen";
import styles from "./auth.module.css";
import { useSession } from "./session";

/** Where the magic link lands: trades the token for a session, then goes where the user was going. */
export function AuthCallbackPage() {
  useDocumentTitle("Signing in");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signInWithTokens } = useSession();
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Strict mode mounts twice; a link works once, so verify once.
    if (started.current) return;
    started.current = true;
    const token = params.get("token");
    if (!token) {
      setProblem("This sign-in link is not valid. Ask for a new one.");
      return;
    }
    call(endpoints.verifyMagicLink, { body: { token } })
      .then((tokens) => {
        signInWithTokens(tokens);
        void navigate(tokens.redirect_to || "/", { replace: true });
      })
      .catch((error: unknown) => {
        setProblem(error instanceof ApiRequestError ? error.message : "The sign-in link could not be checked.");
      });
  }, [params, navigate, signInWithTokens]);

  if (!problem) return <LoadingScreen isFullScreen message="Signing you in..." />;
  return (
    <div className={styles.screen}>
      <div className={styles.card} role="alert">
        <div className={styles.iconDanger}>
          <LinkIcon size={22} />
        </div>
        <h1>This link does not work</h1>
        <p className={styles.muted}>{problem}</p>
        <Link to="/login" className={styles.linkButton}>
          Back to sign in
        </Link>
      </div>
    </div>
  );
}
