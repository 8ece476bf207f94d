import { ShieldX } from "lucide-react";
import { useNavigate } from "react-router";
import { Button } from "../../ui/Button";
import styles from "./auth.module.css";
import { useSession } from "./session";

export function AccessDenied({ email }: { email: string }) {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return (
    <div className={styles.screen}>
      <div className={styles.card} role="alert">
        <div className={styles.iconDanger}>
          <ShieldX size={24} />
        </div>
        <h1>Access Denied</h1>
        <p className={styles.muted}>Your email ({email}) is not whitelisted for access.</p>
        <Button
          variant="secondary"
          isBlock
          onClick={() => {
            void signOut().then(() => navigate("/login", { replace: true }));
          }}
        >
          Try Different Email
        </Button>
      </div>
    </div>
  );
}
