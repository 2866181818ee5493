import { isIP } from 'node:net';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail: SmtpMailer when SMTP_URL is set, else LogMailer (mailerFor). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAILER = Symbol('MAILER');

/**
 * The default transport: writes the message to the log instead of sending it. Outside production the body (with its
 * link) is logged and the last messages are kept in `outbox` for local use; in production only the fact that a
 * message was not delivered is logged, since the body carries a secret link.
 */
@Injectable()
export class LogMailer implements Mailer {
  static readonly OUTBOX_SIZE = 50;
  readonly outbox: MailMessage[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    if (this.config.nodeEnv === 'production') {
      this.logger.warn({ subject: message.subject }, 'No mail transport is configured; an e-mail was not delivered');
      return;
    }
    this.outbox.push(message);
    if (this.outbox.length > LogMailer.OUTBOX_SIZE) this.outbox.shift();
    this.logger.info({ mail: message }, 'E-mail (development transport: logged, not sent)');
  }
}

/** Why a message was not delivered, with nothing of the message, the link or the credentials in it: safe to log. */
export class MailDeliveryError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly responseCode: number | undefined,
    readonly command: string | undefined,
  ) {
    super(`SMTP delivery failed${code ? ` (${code}${responseCode ? ` ${responseCode}` : ''})` : ''}`);
    this.name = 'MailDeliveryError';
  }
}

const SECONDS = 1000;
const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'));

/**
 * Delivers through the SMTP server of SMTP_URL, from MAIL_FROM. smtps:// speaks TLS from the start; smtp:// upgrades
 * with STARTTLS when the server offers it, and must when it sends credentials to a host other than this machine,
 * so a password never crosses the network in clear. Failures reject with a MailDeliveryError.
 */
@Injectable()
export class SmtpMailer implements Mailer, OnModuleDestroy {
  private readonly transport: ReturnType<typeof createTransport>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const url = new URL(config.mail.smtpUrl!);
    const auth = url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined;
    const secure = url.protocol === 'smtps:';
    this.transport = createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      auth,
      requireTLS: !secure && auth !== undefined && !isLoopback(url.hostname),
      connectionTimeout: 30 * SECONDS,
      greetingTimeout: 30 * SECONDS,
      socketTimeout: 60 * SECONDS,
      logger: false,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.config.mail.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      const { code, responseCode, command } = error as { code?: string; responseCode?: number; command?: string };
      // AUTH commands carry the credentials after the verb: only the verb is kept.
      throw new MailDeliveryError(code, responseCode, command?.split(' ').slice(0, 2).join(' '));
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}

/** The MAILER provider: SMTP when SMTP_URL is set; the log mailer, the documented default, otherwise. */
export const mailerProvider = {
  provide: MAILER,
  useFactory: (config: AppConfig, logger: Logger): Mailer => (config.mail.smtpUrl ? new SmtpMailer(config) : new LogMailer(config, logger)),
  inject: [APP_CONFIG, LOGGER],
};
