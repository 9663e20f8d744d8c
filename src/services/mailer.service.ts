// Outgoing mail. With [mailer] ENABLED the message goes over SMTP (nodemailer); otherwise it is written to the
// log, so a message is never silently dropped. Sending happens after the request has been answered.
import type nodemailer from 'nodemailer';
import type { User } from '../db/entities.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  send(message: MailMessage & { from: string }): Promise<void>;
}

function smtpTransport(settings: ServiceDeps['settings']['mailer']): MailTransport {
  // Loaded on first use: most instances never send mail.
  const { createTransport } = require('nodemailer') as typeof nodemailer;
  const transporter = createTransport({
    host: settings.SMTP_ADDR,
    port: settings.SMTP_PORT,
    auth: settings.USER ? { user: settings.USER, pass: settings.PASSWD } : undefined,
  });
  return {
    async send(message) {
      await transporter.sendMail(message);
    },
  };
}

export class MailerService {
  /** Where messages go; null writes them to the log. Replaceable (tests). */
  transport: MailTransport | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: ServiceDeps) {
    this.transport = deps.settings.mailer.ENABLED ? smtpTransport(deps.settings.mailer) : null;
  }

  /** Queues a message; delivery failures are logged, never thrown at the caller. */
  queue(message: MailMessage): void {
    const delivery = this.deliver(message).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  /** Resolves when every queued message has been handled. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Forgejo's registration notice for accounts an administrator created (services/mailer SendRegisterNotifyMail). */
  queueRegistrationNotice(user: User): void {
    const rootUrl = this.deps.settings.server.ROOT_URL;
    this.queue({
      to: user.email,
      subject: `Welcome to ${rootUrl}`,
      text: [
        `Hello ${user.name},`,
        '',
        `an administrator has created an account for you at ${rootUrl}.`,
        `Your user name is: ${user.name}`,
        `Sign in at ${rootUrl}user/login${user.mustChangePassword ? ' and choose a new password' : ''}.`,
      ].join('\n'),
    });
  }

  private async deliver(message: MailMessage): Promise<void> {
    const { log, settings } = this.deps;
    const full = { ...message, from: settings.mailer.FROM };
    if (!this.transport) {
      log.info({ mail: full }, 'mailer disabled: message written to the log instead of being sent');
      return;
    }
    try {
      await this.transport.send(full);
    } catch (error) {
      log.error({ err: error, to: message.to, subject: message.subject }, 'sending mail failed');
    }
  }
}
