import { type FormEvent, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { useDocumentTitle } from "../../lib/document-title";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { Logo } from "../../ui/Logo";
import styles from "./auth.module.css";
import { type MagicLinkOutcome, requestMagicLink } from "./request-magic-link";
import { useSession } from "./session";

const FOOTERS: Record<MagicLinkOutcome["kind"], string> = {
  sent: "Check your email for the magic link!",
  waitlist: "You've been added to the waitlist! Once approved, you'll receive a magic link to sign in.",
  error: "Failed to send login email",
};

export function LoginPage() {
  useDocumentTitle("Sign in");
  const { state } = useSession();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const [email, setEmail] = useState("");
  const [isBusy, setIsBusy] = useState(false);
  const [outcome, setOutcome] = useState<MagicLinkOutcome | null>(null);

  if (state.status === "signed-in" && state.user.is_allowed) return <Navigate to={from ?? "/"} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    setOutcome(null);
    setOutcome(await requestMagicLink(email.trim(), from));
    setIsBusy(false);
  };

  const footer = outcome
    ? outcome.kind === "error"
      ? (outcome.message ?? FOOTERS.error)
      : FOOTERS[outcome.kind]
    : null;

  return (
    <div className={styles.screen}>
      <div className={styles.glow} aria-hidden="true" />
      <form className={styles.card} onSubmit={onSubmit}>
        <Logo size={40} />
        <h1>Sign in to Epicenter</h1>
        <p className={styles.muted}>
          The data terminal for prediction markets. Access is by invitation during the alpha: enter your e-mail and we
          will send you a magic link.
        </p>
        <Field
          label="Email"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          disabled={isBusy}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" variant="accent" size="lg" isBlock disabled={isBusy || email.trim() === ""}>
          {isBusy ? "PROCESSING" : "REQUEST ACCESS"}
        </Button>
        {footer ? (
          <p className={outcome?.kind === "error" ? styles.footerError : styles.footer} role="status">
            {footer}
          </p>
        ) : (
          <p className={styles.hint}>The magic link expires in 15 minutes.</p>
        )}
      </form>
    </div>
  );
}
