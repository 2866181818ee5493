import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail. Bind another implementation to MAILER to deliver through a real transport. */
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
