import type { LucideIcon } from "lucide-react";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import styles from "./UpcomingPage.module.css";

export interface UpcomingPageProps {
  title: string;
  description: string;
  icon: LucideIcon;
  /** What this page will hold once its part of the product lands. */
  upcoming: string[];
}

/** Stands in for a screen whose part of the product has not landed yet, and says what it will be. */
export function UpcomingPage({ title, description, icon: Icon, upcoming }: UpcomingPageProps) {
  return (
    <Page>
      <PageHeader title={title} description={description} />
      <section className={styles.panel}>
        <div className={styles.icon}>
          <Icon size={22} strokeWidth={1.7} />
        </div>
        <div>
          <h2>Being built</h2>
          <p className={styles.lead}>This screen is on its way. Here is what it will hold:</p>
          <ul className={styles.list}>
            {upcoming.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </section>
    </Page>
  );
}
