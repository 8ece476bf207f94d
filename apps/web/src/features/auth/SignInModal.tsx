import { ArrowLeft, MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { Modal } from "../../ui/Modal";
import styles from "./auth.module.css";
import { requestMagicLink } from "./request-magic-link";

export function SignInModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [email, setEmail] = useState("");
  const [isSending, setIsSending] = useState(false);
  const [isSent, setIsSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsSending(true);
    setError(null);
    const outcome = await requestMagicLink(email.trim());
    setIsSending(false);
    if (outcome.kind === "sent") setIsSent(true);
    else if (outcome.kind === "waitlist") setError("Email not whitelisted. Please contact support for access.");
    else setError(outcome.message ?? "Failed to send magic link");
  };

  const back = () => {
    setIsSent(false);
    setEmail("");
    setError(null);
  };

  return (
    <Modal isOpen={isOpen} onClose={onClose} title="Sign in" size="sm">
      {isSent ? (
        <div className={styles.sent}>
          <MailCheck size={28} className={styles.accentIcon} />
          <h3>Check your email</h3>
          <p className={styles.muted}>
            We sent a magic link to <strong>{email}</strong>. The magic link expires in 15 minutes.
          </p>
          <Button variant="ghost" icon={<ArrowLeft size={16} />} onClick={back}>
            Back
          </Button>
        </div>
      ) : (
        <form className={styles.modalForm} onSubmit={onSubmit}>
          <Field
            label="Email"
            type="email"
            required
            data-autofocus
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            disabled={isSending}
            onChange={(event) => setEmail(event.target.value)}
          />
          <p className={styles.hint}>We will e-mail you a magic link. It expires in 15 minutes.</p>
          {error ? (
            <p className={styles.footerError} role="alert">
              {error}
            </p>
          ) : null}
          <Button type="submit" variant="accent" isBlock disabled={isSending || email.trim() === ""}>
            {isSending ? "Loading..." : "Send magic link"}
          </Button>
        </form>
      )}
    </Modal>
  );
}
