import { LogIn } from "lucide-react";
import { useState } from "react";
import styles from "./auth.module.css";
import { ProfileModal } from "./ProfileModal";
import { SignInModal } from "./SignInModal";
import { useSession } from "./session";

/** The profile button when signed in, the sign-in button otherwise; each opens its dialog. */
export function AccountButton({ isCompact = false }: { isCompact?: boolean }) {
  const { state } = useSession();
  const [isOpen, setIsOpen] = useState(false);
  if (state.status !== "signed-in") {
    return (
      <>
        <button type="button" className={styles.accountButton} onClick={() => setIsOpen(true)}>
          <LogIn size={16} />
          {isCompact ? null : <span>Sign in</span>}
        </button>
        <SignInModal isOpen={isOpen} onClose={() => setIsOpen(false)} />
      </>
    );
  }
  const { email } = state.user;
  return (
    <>
      <button type="button" className={styles.accountButton} onClick={() => setIsOpen(true)} aria-label="Profile">
        <span className={styles.avatar} aria-hidden="true">
          {email.charAt(0).toUpperCase()}
        </span>
        {isCompact ? null : <span className={styles.accountEmail}>{email}</span>}
      </button>
      <ProfileModal isOpen={isOpen} onClose={() => setIsOpen(false)} email={email} />
    </>
  );
}
