import { Link } from "react-router";
import { AccountButton } from "../features/auth/AccountButton";
import { Logo } from "../ui/Logo";
import styles from "./TopBar.module.css";

/** The small-screen header; on wide screens the sidebar carries the brand. */
export function TopBar() {
  return (
    <header className={styles.topbar}>
      <Link to="/" className={styles.brand}>
        <Logo size={26} />
        <span>Epicenter</span>
      </Link>
      <div className={styles.account}>
        <AccountButton isCompact />
      </div>
    </header>
  );
}
