/**
 * The allow-list (`whitelist_emails`) and the waitlist. E-mails are compared and stored
 * lower-cased, so `Ada@Example.com` and `ada@example.com` are one person.
 */
import { desc, eq, sql } from "drizzle-orm";
import { announcingAccessChange } from "../access-changes";
import type { AppDb } from "../client";
import { waitlist, whitelistEmails } from "../schema";

export interface AllowListEntry {
  email: string;
  addedBy: string | null;
  isAdmin: boolean;
  createdAt: Date;
}

export interface WaitlistEntry {
  email: string;
  createdAt: Date;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function isAllowListed(db: AppDb, email: string | null | undefined): Promise<boolean> {
  if (!email) return false;
  const rows = await db
    .select({ email: whitelistEmails.email })
    .from(whitelistEmails)
    .where(eq(whitelistEmails.email, normalizeEmail(email)))
    .limit(1);
  return rows.length === 1;
}

export async function getAllowListEntry(db: AppDb, email: string): Promise<AllowListEntry | undefined> {
  const [entry] = await db
    .select()
    .from(whitelistEmails)
    .where(eq(whitelistEmails.email, normalizeEmail(email)));
  return entry;
}

/**
 * Adds an e-mail; adding one that is already there keeps the first entry, except that
 * `isAdmin: true` promotes it.
 */
export async function addToAllowList(
  db: AppDb,
  email: string,
  addedBy: string | null = null,
  options: { isAdmin?: boolean } = {},
): Promise<AllowListEntry> {
  const normalized = normalizeEmail(email);
  const isAdmin = options.isAdmin ?? false;
  await announcingAccessChange(db, { kind: "allow_list", email: normalized }, () =>
    db
      .insert(whitelistEmails)
      .values({ email: normalized, addedBy, isAdmin })
      .onConflictDoUpdate({
        target: whitelistEmails.email,
        set: { isAdmin: sql`${whitelistEmails.isAdmin} OR ${isAdmin}` },
      }),
  );
  const [entry] = await db.select().from(whitelistEmails).where(eq(whitelistEmails.email, normalized));
  if (!entry) throw new Error(`allow-list entry for ${normalized} vanished while it was being added`);
  return entry;
}

/** Removes an e-mail; true when there was one to remove. */
export async function removeFromAllowList(db: AppDb, email: string): Promise<boolean> {
  const normalized = normalizeEmail(email);
  const removed = await announcingAccessChange(db, { kind: "allow_list", email: normalized }, () =>
    db.delete(whitelistEmails).where(eq(whitelistEmails.email, normalized)).returning({ email: whitelistEmails.email }),
  );
  return removed.length > 0;
}

export function listAllowList(db: AppDb): Promise<AllowListEntry[]> {
  return db.select().from(whitelistEmails).orderBy(desc(whitelistEmails.createdAt), whitelistEmails.email);
}

export function listWaitlist(db: AppDb): Promise<WaitlistEntry[]> {
  return db
    .select({ email: waitlist.email, createdAt: waitlist.createdAt })
    .from(waitlist)
    .orderBy(desc(waitlist.createdAt), waitlist.email);
}

export async function removeFromWaitlist(db: AppDb, email: string): Promise<boolean> {
  const removed = await db
    .delete(waitlist)
    .where(eq(waitlist.email, normalizeEmail(email)))
    .returning({ id: waitlist.id });
  return removed.length > 0;
}

/** Puts an e-mail on the waitlist once, however often it is asked; true when it was new. */
export async function joinWaitlist(db: AppDb, email: string): Promise<boolean> {
  const inserted = await db
    .insert(waitlist)
    .values({ email: normalizeEmail(email) })
    .onConflictDoNothing()
    .returning({ id: waitlist.id });
  return inserted.length > 0;
}
