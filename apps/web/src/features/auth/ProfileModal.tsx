import { LogOut } from "lucide-react";
import { useNavigate } from "react-router";
import { Button } from "../../ui/Button";
import { Modal } from "../../ui/Modal";
import styles from "./auth.module.css";
import { useSession } from "./session";

export function ProfileModal({ isOpen, onClose, email }: { isOpen: boolean; onClose: () => void; email: string }) {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return (
    <Modal isOpen={isOpen} onClose={onClose} title="Profile" size="sm">
      <div className={styles.profile}>
        <div className={styles.avatarLarge} aria-hidden="true">
          {email.charAt(0).toUpperCase()}
        </div>
        <div className={styles.profileText}>
          <strong>{email}</strong>
          <span className={styles.plan}>Free Account</span>
        </div>
      </div>
      <Button
        variant="danger"
        isBlock
        icon={<LogOut size={16} />}
        onClick={() => {
          onClose();
          void signOut();
          void navigate("/login", { replace: true });
        }}
      >
        Sign Out
      </Button>
    </Modal>
  );
}
