/**
 * Sends mail: over SMTP with nodemailer when `SMTP_URL` is set; otherwise into the outbox,
 * one JSON file per mail in `DATA_DIR/outbox/`, with the link in the log, so a machine with
 * no mail server (the demo, tests, a first install) can still sign people in.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link inside the mail, logged when the mail goes to the outbox. */
  link?: string;
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(mail: Mail): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }, logger: Logger): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: "smtp",
      send: async (mail) => {
        await transport.sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
    };
  }
  return {
    kind: "outbox",
    send: async (mail) => {
      // Each mail holds a sign-in link: the folder and the file are the server's user's only.
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(options.outboxDir, `${stamp}-${mail.to.replace(/[^a-z0-9@._-]/gi, "_")}.json`);
      await writeFile(
        file,
        `${JSON.stringify({ from: options.from, ...mail, created_at: new Date().toISOString() }, null, 2)}\n`,
        { mode: 0o600 },
      );
      logger.info({ to: mail.to, subject: mail.subject, link: mail.link, file }, "mail written to the outbox");
    },
  };
}
